import { describe, expect, it } from 'vitest';
import { openTestDatabase, startTestApp, uniqueEmail } from './harness';

/** TRUST_PROXY: behind one proxy, per-IP limits count the client's address from X-Forwarded-For, not the proxy's. */
describe('behind a trusted proxy', () => {
  it('limits codes per client address, not per proxy', async () => {
    const database = await openTestDatabase('sqlite');
    const t = await startTestApp(database.handle, {
      // One hop, as main.ts builds it from TRUST_PROXY=1.
      trustProxy: (_address: string, hop: number) => hop < 1,
      limits: { codePerIp: { max: 2, windowMs: 3_600_000 } },
    });
    try {
      const send = async (client: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/email_send',
          headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en', 'x-forwarded-for': client },
          payload: new URLSearchParams({ email: uniqueEmail(), scene: 'register' }).toString(),
          remoteAddress: '10.0.0.1', // the proxy
        });
        return res.json<{ type: string }>().type;
      };
      expect([await send('203.0.113.7'), await send('203.0.113.7'), await send('203.0.113.7')]).toEqual([
        'ok',
        'ok',
        'error',
      ]);
      // Another client behind the same proxy has its own allowance.
      expect(await send('198.51.100.9')).toBe('ok');
    } finally {
      await t.close();
      await database.close();
    }
  });
});
