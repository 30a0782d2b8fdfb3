import { describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import { calls } from '../../server/domains';
import { appPerSuite, DATABASES, startTestApp, type TestApp, uniqueEmail, uniqueMobile } from './harness';

describe.each(DATABASES)('login on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });

  const loginData = (body: unknown) => okEnvelope(calls['user/login'].response).parse(body).data;

  it('logs in by e-mail (any case), username and phone, each with a new session', async () => {
    const email = uniqueEmail();
    const { user } = await t.registerByEmail(email, 'pass-word');
    const before = await t.count('sessions');

    const byEmail = loginData(
      (await t.call('user/login', { account: email.toUpperCase(), password: 'pass-word' })).body,
    );
    expect(byEmail.user.id).toBe(user.id);
    const byName = loginData((await t.call('user/login', { account: user.username, password: 'pass-word' })).body);
    expect(byName.user.id).toBe(user.id);
    expect(byName.token).not.toBe(byEmail.token);
    expect(await t.count('sessions')).toBe(before + 2);

    const mobile = uniqueMobile();
    const phoneUser = (await t.registerByPhone(mobile, 'phone-pass')).user;
    const forms: Record<string, string>[] = [
      { account: mobile, area_code: '49' },
      { account: `0${mobile}`, area_code: '+49' },
      { account: `+49${mobile}` },
      { account: mobile },
    ];
    for (const fields of forms) {
      const { body } = await t.call('user/login', { ...fields, password: 'phone-pass' });
      expect(loginData(body).user.id, JSON.stringify(fields)).toBe(phoneUser.id);
    }
    const wrongArea = await t.call('user/login', { account: mobile, area_code: '43', password: 'phone-pass' });
    expect(wrongArea.body).toMatchObject({
      type: 'error',
      message: 'Wrong account or password',
      reason: 'loginFailed',
    });
  });

  it('stores the login time and shows it in center2', async () => {
    const email = uniqueEmail();
    await t.registerByEmail(email);
    t.clock.advance(5_000);
    const { token } = loginData((await t.call('user/login', { account: email, password: 'secret1' })).body);
    const c2 = okEnvelope(calls['user/center2'].response).parse(
      (await t.call('user/center2', {}, { token })).body,
    ).data;
    expect(c2.last_login_at).toBe(t.clock.now());
    expect(c2.sessions).toBe(2);
  });

  it('answers a wrong password and an unknown account the same way', async () => {
    const email = uniqueEmail();
    await t.registerByEmail(email);
    const wrongPassword = await t.call('user/login', { account: email, password: 'nope-nope' });
    const unknown = await t.call('user/login', { account: uniqueEmail('ghost'), password: 'secret1' });
    expect(wrongPassword.body).toEqual(unknown.body);
    expect(wrongPassword.body).toEqual({
      type: 'error',
      code: 0,
      message: 'Wrong account or password',
      reason: 'loginFailed',
    });
    const de = await t.call('user/login', { account: email, password: 'nope-nope' }, { lang: 'de' });
    expect(de.body.message).toBe('Konto oder Passwort ist falsch');
  });

  it('validates the form', async () => {
    expect((await t.call('user/login', { password: 'x' })).body).toMatchObject({
      message: 'Please enter your phone number, e-mail or username',
      field: 'account',
    });
    expect((await t.call('user/login', { account: 'someone' })).body).toMatchObject({
      message: 'Please enter a password',
      field: 'password',
    });
    expect((await t.call('user/login', { account: 'x'.repeat(5000), password: 'x' })).body).toMatchObject({
      message: 'The input is too long',
      field: 'account',
    });
  });

  const WRONG = 'Wrong account or password';
  const WAIT = 'Too many requests – please try again shortly';
  const retryAfter = (body: { data?: unknown }) => (body.data as { retry_after?: number } | undefined)?.retry_after;

  it('throttles a guessing source with growing delays while the owner logs in from another IP at once', async () => {
    // (This replaces the old rule, 5 failures locking the account for everyone for 15 minutes.)
    const email = uniqueEmail();
    const { user } = await t.registerByEmail(email);
    const attacker = { ip: '198.51.100.7' };
    for (let i = 0; i < 3; i++) {
      // Different spellings of the same account count alike.
      const account = i % 2 ? email : user.username;
      expect((await t.call('user/login', { account, password: 'wrong-pass' }, attacker)).body.message).toBe(WRONG);
    }
    // After 3 failures this source waits 1 s before its next try counts, even with the right password.
    const sessions = await t.count('sessions');
    const held = await t.call('user/login', { account: email, password: 'secret1' }, attacker);
    expect(held.body).toMatchObject({ type: 'error', message: WAIT, data: { retry_after: 1 } });
    expect(await t.count('sessions')).toBe(sessions);

    // The owner, on a fresh device elsewhere, is not held up at all.
    const owner = await t.call('user/login', { account: email, password: 'secret1' }, { ip: '203.0.113.50' });
    expect(owner.body.type).toBe('ok');

    // Each further failure from the attacker's source doubles its wait, up to 15 minutes; refused tries do not count.
    for (const seconds of [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]) {
      const early = await t.call('user/login', { account: email, password: 'wrong-pass' }, attacker);
      expect(retryAfter(early.body), `wait ${seconds}`).toBe(seconds);
      t.clock.advance(seconds * 1000);
      expect((await t.call('user/login', { account: email, password: 'wrong-pass' }, attacker)).body.message).toBe(
        WRONG,
      );
    }
    expect(retryAfter((await t.call('user/login', { account: email, password: 'x' }, attacker)).body)).toBe(900);
    t.clock.advance(900_000);
    expect(
      (await t.call('user/login', { account: email, password: 'secret1' }, { ip: '203.0.113.51' })).body.type,
    ).toBe('ok');
  });

  it('throttles logins to unknown accounts the same way, so the wait tells nothing', async () => {
    const ghost = uniqueEmail('ghost');
    const ip = { ip: '198.51.100.8' };
    for (let i = 0; i < 3; i++) {
      expect((await t.call('user/login', { account: ghost, password: 'wrong-pass' }, ip)).body.message).toBe(WRONG);
    }
    expect((await t.call('user/login', { account: ghost, password: 'x' }, ip)).body).toMatchObject({
      message: WAIT,
      data: { retry_after: 1 },
    });
  });

  it("a right password forgets that source's failures", async () => {
    const email = uniqueEmail();
    await t.registerByEmail(email);
    const ip = { ip: '198.51.100.9' };
    for (let i = 0; i < 3; i++) await t.call('user/login', { account: email, password: 'wrong-pass' }, ip);
    t.clock.advance(1000);
    expect((await t.call('user/login', { account: email, password: 'secret1' }, ip)).body.type).toBe('ok');
    for (let i = 0; i < 3; i++) {
      expect((await t.call('user/login', { account: email, password: 'wrong-pass' }, ip)).body.message).toBe(WRONG);
    }
    t.clock.advance(1000);
    expect((await t.call('user/login', { account: email, password: 'secret1' }, ip)).body.type).toBe('ok');
  });

  it('parallel guesses from one source cannot slip through the same gap', async () => {
    const email = uniqueEmail();
    await t.registerByEmail(email);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.call('user/login', { account: email, password: 'wrong-pass' }, { ip: '198.51.100.10' }),
      ),
    );
    const messages = results.map((r) => r.body.message);
    expect(messages.filter((m) => m === WRONG)).toHaveLength(3);
    expect(messages.filter((m) => m === WAIT)).toHaveLength(7);
  });

  it('slows the sources hammering one account, never the owner on a fresh device', async () => {
    const email = uniqueEmail();
    await t.registerByEmail(email);
    // 20 sources, one guess each: none of them is throttled on its own.
    for (let i = 0; i < 20; i++) {
      const guess = await t.call('user/login', { account: email, password: 'wrong-pass' }, { ip: `192.0.2.${i + 1}` });
      expect(guess.body.message).toBe(WRONG);
    }
    // The account is now hot: a source that already failed here waits after the newest failure ...
    const again = await t.call('user/login', { account: email, password: 'wrong-pass' }, { ip: '192.0.2.1' });
    expect(again.body).toMatchObject({ message: WAIT, data: { retry_after: 1 } });
    // ... a new attacker address gets one guess, then waits too ...
    const newcomer = { ip: '192.0.2.100' };
    expect((await t.call('user/login', { account: email, password: 'wrong-pass' }, newcomer)).body.message).toBe(WRONG);
    const second = await t.call('user/login', { account: email, password: 'wrong-pass' }, newcomer);
    expect(second.body.message).toBe(WAIT);
    // ... and the owner on a fresh device logs in at once, however many strangers guessed.
    for (let i = 0; i < 30; i++) {
      await t.call('user/login', { account: email, password: 'wrong-pass' }, { ip: `198.51.100.${i + 1}` });
    }
    const owner = await t.call('user/login', { account: email, password: 'secret1' }, { ip: '203.0.113.60' });
    expect(owner.body.type).toBe('ok');
  });

  it('caps login attempts per IP', async () => {
    const strict = await startTestApp(t.handle, { limits: { loginPerIp: { max: 3, windowMs: 15 * 60_000 } } });
    try {
      const email = uniqueEmail();
      await t.registerByEmail(email);
      const ip = '203.0.113.7';
      for (let i = 0; i < 3; i++) {
        expect((await strict.call('user/login', { account: email, password: 'secret1' }, { ip })).body.type).toBe('ok');
      }
      const refused = await strict.call('user/login', { account: email, password: 'secret1' }, { ip });
      expect(refused.body).toMatchObject({ type: 'error', message: 'Too many requests – please try again shortly' });
      // Another IP is not affected.
      const other = await strict.call('user/login', { account: email, password: 'secret1' }, { ip: '203.0.113.8' });
      expect(other.body.type).toBe('ok');
    } finally {
      await strict.close();
    }
  });
});
