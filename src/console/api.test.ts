import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { configureApi } from '../../core/api/client';
import { consoleSession, opsCall, opsImageUrl, signedIn, signedOut } from './api';

/**
 * The console's calls go through core/api/client.ts with the console's token in X-Ops-Token and never the user's
 * Authorization header (even where the user app has a session in the same browser); a 999 answer signs the console
 * out with the server's message.
 */

interface Seen {
  url: URL;
  method: string;
  headers: Headers;
  body: string;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('console api', () => {
  const seen: Seen[] = [];
  let answer: () => Response = () => json({ type: 'ok', code: 1, message: 'OK', data: {} });
  beforeEach(() => {
    seen.length = 0;
    sessionStorage.clear();
    // The user app's own session (another part of the same origin): its token must never travel with console calls.
    configureApi({ headers: () => ({ token: 'USER-TOKEN', lang: 'de' }) });
    vi.stubGlobal('fetch', async (input: Request) => {
      seen.push({ url: new URL(input.url), method: input.method, headers: input.headers, body: await input.text() });
      return answer();
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    configureApi({});
    signedOut();
  });

  it("sends the console token in X-Ops-Token, never the user's Authorization", async () => {
    signedIn('OPS-TOKEN', { name: 'alice', roles: ['reviewer'] });
    answer = () => json({ type: 'ok', code: 1, message: 'OK', data: { id: 7, state: 'passed' } });
    const r = await opsCall('ops/deposits/approve', { id: '7' });
    expect(r).toEqual({ ok: true, data: { id: 7, state: 'passed' } });
    const [call] = seen;
    expect(call?.url.pathname).toBe('/api/ops/deposits/approve');
    expect(call?.method).toBe('POST');
    expect(call?.body).toBe('id=7');
    expect(call?.headers.get('x-ops-token')).toBe('OPS-TOKEN');
    expect(call?.headers.get('authorization')).toBeNull();
    expect(sessionStorage.getItem('tw.ops.token')).toBe('OPS-TOKEN');
  });

  it('a 999 answer signs the console out with its message; a refusal keeps the session', async () => {
    signedIn('OPS-TOKEN', { name: 'alice', roles: ['support'] });
    answer = () => json({ type: 'error', code: 0, message: 'Your operator role does not allow this' }, 403);
    expect(await opsCall('ops/deposits', {})).toEqual({ ok: false, message: 'Your operator role does not allow this' });
    expect(consoleSession.token).toBe('OPS-TOKEN');
    answer = () => json({ type: 999, code: 0, message: 'Your console session has ended' });
    expect(await opsCall('ops/me', {})).toMatchObject({ ok: false, expired: true });
    expect(consoleSession).toMatchObject({ token: null, operator: null, ended: 'Your console session has ended' });
    expect(sessionStorage.getItem('tw.ops.token')).toBeNull();
  });

  it('fetches review images with the console token; a refusal is no image', async () => {
    signedIn('OPS-TOKEN', { name: 'alice', roles: ['reviewer'] });
    // jsdom has no object URLs: a stand-in for this test only.
    const original = URL.createObjectURL;
    URL.createObjectURL = vi.fn(() => 'blob:image');
    onTestFinished(() => {
      URL.createObjectURL = original;
    });
    answer = () => new Response(new Uint8Array([0xff, 0xd8, 0xff]), { headers: { 'content-type': 'image/jpeg' } });
    expect(await opsImageUrl('ops/kyc/photo', { id: '3', side: 'front' })).toBe('blob:image');
    expect(seen[0]?.url.search).toBe('?id=3&side=front');
    expect(seen[0]?.headers.get('x-ops-token')).toBe('OPS-TOKEN');
    expect(seen[0]?.headers.get('authorization')).toBeNull();
    answer = () => json({ type: 'error', code: 0, message: 'not found' }, 404);
    expect(await opsImageUrl('ops/kyc/photo', { id: '3', side: 'front' })).toBeNull();
  });
});
