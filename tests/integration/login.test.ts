import { describe, expect, it } from 'vitest';
import { calls, okEnvelope } from '../../protocol';
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
    expect(wrongArea.body).toMatchObject({ type: 'error', message: 'Wrong account or password' });
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
    expect(wrongPassword.body).toEqual({ type: 'error', code: 0, message: 'Wrong account or password' });
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

  it('locks an account after 5 failures in 15 minutes, even for the right password', async () => {
    const email = uniqueEmail();
    const { user } = await t.registerByEmail(email);
    for (let i = 0; i < 5; i++) {
      // Different spellings of the same account share one lock.
      const account = i % 2 ? email : user.username;
      expect((await t.call('user/login', { account, password: 'wrong-pass' })).body.message).toBe(
        'Wrong account or password',
      );
    }
    const locked = await t.call('user/login', { account: email, password: 'secret1' });
    expect(locked.body).toMatchObject({
      type: 'error',
      message: 'Too many login attempts – please try again later',
    });
    expect((locked.body.data as { retry_after: number }).retry_after).toBeGreaterThan(0);
    const sessions = await t.count('sessions');
    expect((await t.call('user/login', { account: user.username, password: 'secret1' })).body.type).toBe('error');
    expect(await t.count('sessions')).toBe(sessions);

    t.clock.advance(15 * 60_000 + 1);
    expect((await t.call('user/login', { account: email, password: 'secret1' })).body.type).toBe('ok');
  });

  it('a successful login clears earlier failures', async () => {
    const email = uniqueEmail();
    await t.registerByEmail(email);
    for (let i = 0; i < 4; i++) await t.call('user/login', { account: email, password: 'wrong-pass' });
    expect((await t.call('user/login', { account: email, password: 'secret1' })).body.type).toBe('ok');
    for (let i = 0; i < 4; i++) await t.call('user/login', { account: email, password: 'wrong-pass' });
    expect((await t.call('user/login', { account: email, password: 'secret1' })).body.type).toBe('ok');
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
