import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../protocol';
import { withAccount } from '../../server/domains/account';
import {
  DATABASES,
  type Envelope,
  openTestDatabase,
  startTestApp,
  type TestApp,
  type TestDatabase,
  uniqueEmail,
  uniqueMobile,
} from './harness';

const HOUR = 3_600_000;

describe.each(DATABASES)('code rate limits on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    // The production limits, per-IP included.
    t = await startTestApp(database.handle, {
      limits: { codePerIp: { max: 10, windowMs: HOUR }, loginPerIp: { max: 30, windowMs: 15 * 60_000 } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  /** The wait a rate-limit refusal announces, in seconds. */
  const retryAfter = (body: Envelope) => {
    errorEnvelope.parse(body);
    return (body.data as { retry_after: number }).retry_after;
  };

  it('refuses a resend to the same address within 60 s and says how long to wait', async () => {
    const ip = '198.51.100.1';
    const email = uniqueEmail();
    expect((await t.call('email_send', { email, scene: 'register' }, { ip })).body.type).toBe('ok');
    const outbox = await t.count('code_outbox');

    t.clock.advance(20_000);
    const refused = await t.call('email_send', { email, scene: 'register' }, { ip, lang: 'de' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({
      type: 'error',
      message: 'Bitte warte einen Moment, bevor du einen neuen Code anforderst',
    });
    expect(retryAfter(refused.body)).toBe(40);
    // Another scene or another IP does not get around it.
    const forget = await t.call('email_send', { email, scene: 'forget' }, { ip: '198.51.100.2' });
    expect(forget.body.message).toBe('Please wait a moment before requesting another code');
    expect(await t.count('code_outbox')).toBe(outbox);

    // Refused attempts do not extend the wait.
    t.clock.advance(40_000);
    expect((await t.call('email_send', { email, scene: 'register' }, { ip })).body.type).toBe('ok');
    expect(await t.count('code_outbox')).toBe(outbox + 1);
  });

  it('allows 5 sends per address per hour', async () => {
    const mobile = uniqueMobile();
    for (let i = 0; i < 5; i++) {
      const { body } = await t.call(
        'sms_send',
        { area_code: '49', mobile, scene: 'register' },
        { ip: `198.51.100.${10 + i}` },
      );
      expect(body.type, `send ${i + 1}`).toBe('ok');
      t.clock.advance(61_000);
    }
    const sixth = await t.call('sms_send', { area_code: '49', mobile, scene: 'register' }, { ip: '198.51.100.20' });
    expect(sixth.body.message).toBe('Too many requests – please try again shortly');
    expect(retryAfter(sixth.body)).toBeGreaterThan(60);
    t.clock.advance(HOUR);
    expect((await t.call('sms_send', { area_code: '49', mobile, scene: 'register' })).body.type).toBe('ok');
  });

  it('allows 10 sends per IP per hour, whatever the address', async () => {
    const ip = '198.51.100.99';
    for (let i = 0; i < 10; i++) {
      expect((await t.call('email_send', { email: uniqueEmail(), scene: 'register' }, { ip })).body.type).toBe('ok');
    }
    const outbox = await t.count('code_outbox');
    const refused = await t.call('email_send', { email: uniqueEmail(), scene: 'register' }, { ip });
    expect(refused.body).toMatchObject({ type: 'error', message: 'Too many requests – please try again shortly' });
    expect(retryAfter(refused.body)).toBe(3600);
    expect(await t.count('code_outbox')).toBe(outbox);
    // Forget requests for unknown addresses count too.
    expect((await t.call('email_send', { email: uniqueEmail(), scene: 'forget' }, { ip })).body.type).toBe('error');
    // Other IPs are unaffected; the cap lifts an hour later.
    expect(
      (await t.call('email_send', { email: uniqueEmail(), scene: 'register' }, { ip: '198.51.100.98' })).body.type,
    ).toBe('ok');
    t.clock.advance(HOUR);
    expect((await t.call('email_send', { email: uniqueEmail(), scene: 'register' }, { ip })).body.type).toBe('ok');
  });

  it('validates the send requests', async () => {
    const cases: Array<[Parameters<TestApp['call']>[0], Record<string, string>, string, string]> = [
      ['email_send', { scene: 'register' }, 'Please enter your e-mail address', 'email'],
      ['email_send', { email: 'bad@', scene: 'register' }, 'Please enter your valid email', 'email'],
      ['email_send', { email: `${'a'.repeat(5000)}@example.com`, scene: 'register' }, 'The input is too long', 'email'],
      ['email_send', { email: uniqueEmail(), scene: 'party' }, 'Invalid input', 'scene'],
      ['email_send', { email: uniqueEmail() }, 'Invalid input', 'scene'],
      ['sms_send', { mobile: '15112345678', scene: 'register' }, 'Please choose a country code', 'area_code'],
      [
        'sms_send',
        { area_code: '49', mobile: '+49 151', scene: 'register' },
        'Please enter the correct phone number',
        'mobile',
      ],
      ['sms_send', { area_code: '49', mobile: '1'.repeat(5000), scene: 'register' }, 'The input is too long', 'mobile'],
    ];
    const outbox = await t.count('code_outbox');
    for (const [path, fields, message, field] of cases) {
      const { body } = await t.call(path, fields, { ip: '198.51.100.200' });
      expect(body, `${path} ${JSON.stringify(fields).slice(0, 60)}`).toMatchObject({ type: 'error', message, field });
    }
    expect(await t.count('code_outbox')).toBe(outbox);
  });

  it('stores codes hashed and never twice per address and scene', async () => {
    const email = uniqueEmail();
    await t.call('email_send', { email, scene: 'register' });
    t.clock.advance(61_000);
    await t.call('email_send', { email, scene: 'register' });
    const rows = await withAccount(t.db)
      .selectFrom('verification_codes')
      .selectAll()
      .where('address', '=', email)
      .execute();
    expect(rows).toHaveLength(1);
    const code = await t.latestCode(email);
    expect(rows[0]?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.code_hash).not.toContain(code);
    expect(rows[0]?.expires_at).toBe(t.clock.now() + 10 * 60_000);
  });
});
