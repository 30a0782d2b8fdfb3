import { describe, expect, it } from 'vitest';
import { codeSentResponse, okEnvelope } from '../../protocol';
import { calls } from '../../server/domains';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail, uniqueMobile } from './harness';

describe.each(DATABASES)('fund password on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });

  const hasPassword = async (token: string) =>
    okEnvelope(calls['user/has_password'].response).parse((await t.call('user/has_password', {}, { token })).body).data
      .has_password;
  const fundHash = async (userId: number) =>
    (await t.db.selectFrom('users').select('fund_password_hash').where('id', '=', userId).executeTakeFirstOrThrow())
      .fund_password_hash;
  /** A fund code sent to the user's own contact, a minute after the register code. */
  async function ownCode(token: string, address: string) {
    t.clock.advance(61_000);
    const sent = await t.call('sms_other_mail', { scene: 'fund' }, { token });
    return { sent, code: (await t.latestCode(address)) ?? '' };
  }

  it('sets the fund password with the login password', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail());
    expect(await hasPassword(token)).toBe(false);
    const { body } = await t.call(
      'user/e_pwd',
      { mode: 'password', login_password: 'secret1', password: '123456', repassword: '123456' },
      { token },
    );
    expect(body).toMatchObject({ type: 'ok', data: {} });
    expect(await hasPassword(token)).toBe(true);
    expect(await fundHash(user.id)).toMatch(/^\$argon2id\$/);
    const center = await t.call('user/center', {}, { token });
    expect(center.body.data).toMatchObject({ has_fund_password: true });
  });

  it('sets it with a fund code sent to the own e-mail, shown masked', async () => {
    const email = uniqueEmail('fundmail');
    const { token } = await t.registerByEmail(email);
    const { sent, code } = await ownCode(token, email);
    const data = okEnvelope(codeSentResponse).parse(sent.body).data;
    expect(data.channel).toBe('email');
    expect(data.to).toMatch(/^fu\*\*\*@example\.com$/);
    const { body } = await t.call(
      'user/e_pwd',
      { mode: 'code', code, password: '654321', repassword: '654321' },
      { token },
    );
    expect(body.type).toBe('ok');
    expect(await hasPassword(token)).toBe(true);
    // Single use.
    const again = await t.call(
      'user/e_pwd',
      { mode: 'code', code, password: '111111', repassword: '111111' },
      { token },
    );
    expect(again.body).toMatchObject({ message: 'The verification code is wrong or has expired', field: 'code' });
  });

  it('sends the fund code to the phone when there is no e-mail', async () => {
    const mobile = uniqueMobile();
    const { token } = await t.registerByPhone(mobile);
    const { sent, code } = await ownCode(token, `+49${mobile}`);
    const data = okEnvelope(codeSentResponse).parse(sent.body).data;
    expect(data).toMatchObject({ channel: 'mobile', retry_after: 60 });
    expect(data.to).toBe(`+49${'*'.repeat(mobile.length - 4)}${mobile.slice(-4)}`);
    expect(code).toMatch(/^\d{6}$/);
    const { body } = await t.call(
      'user/e_pwd',
      { mode: 'code', code, password: '246810', repassword: '246810' },
      { token },
    );
    expect(body.type).toBe('ok');
  });

  it('refuses wrong proofs and wrong formats without changing anything', async () => {
    const email = uniqueEmail();
    const { token, user } = await t.registerByEmail(email);
    const valid = { mode: 'password', login_password: 'secret1', password: '123456', repassword: '123456' };
    const cases: Array<[Record<string, string>, string, string | undefined]> = [
      [{ ...valid, login_password: 'wrong-pass' }, 'The login password is wrong', 'login_password'],
      [{ ...valid, password: '12345', repassword: '12345' }, 'The fund password is exactly 6 digits', 'password'],
      [{ ...valid, password: '1234567', repassword: '1234567' }, 'The fund password is exactly 6 digits', 'password'],
      [{ ...valid, password: 'abcdef', repassword: 'abcdef' }, 'The fund password is exactly 6 digits', 'password'],
      [{ ...valid, repassword: '123457' }, 'Password twice inconsistent', 'repassword'],
      [{ ...valid, password: '' }, 'Please enter the fund password', 'password'],
      [{ ...valid, mode: 'magic' }, 'Invalid input', 'mode'],
      [{ ...valid, login_password: '' }, 'Please enter a password', 'login_password'],
      [{ ...valid, password: '9'.repeat(5000) }, 'The input is too long', 'password'],
      [
        { mode: 'code', code: '12345', password: '123456', repassword: '123456' },
        'The verification code has 6 digits',
        'code',
      ],
      [
        { mode: 'code', code: '123456', password: '123456', repassword: '123456' },
        'The verification code is wrong or has expired',
        'code',
      ],
    ];
    for (const [fields, message, field] of cases) {
      const { body } = await t.call('user/e_pwd', fields, { token });
      expect(body, JSON.stringify(fields).slice(0, 80)).toMatchObject({ type: 'error', message, field });
    }
    const de = await t.call('user/e_pwd', { ...valid, password: '12' }, { token, lang: 'de' });
    expect(de.body.message).toBe('Das Fondspasswort besteht aus genau 6 Ziffern');
    expect(await hasPassword(token)).toBe(false);
    expect(await fundHash(user.id)).toBeNull();

    // A register code of the user's own address is not a fund code.
    t.clock.advance(61_000);
    const other = uniqueEmail();
    await t.call('email_send', { email: other, scene: 'register' });
    const foreign = (await t.latestCode(other)) ?? '';
    const { body } = await t.call(
      'user/e_pwd',
      { mode: 'code', code: foreign, password: '123456', repassword: '123456' },
      { token },
    );
    expect(body.message).toBe('The verification code is wrong or has expired');
    expect(await fundHash(user.id)).toBeNull();
  });

  it('changes an existing fund password', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail());
    const set = (password: string) =>
      t.call('user/e_pwd', { mode: 'password', login_password: 'secret1', password, repassword: password }, { token });
    expect((await set('111111')).body.type).toBe('ok');
    const first = await fundHash(user.id);
    expect((await set('222222')).body.type).toBe('ok');
    expect(await fundHash(user.id)).not.toBe(first);
  });

  it('counts wrong login passwords towards the login lock', async () => {
    const email = uniqueEmail();
    const { token } = await t.registerByEmail(email);
    for (let i = 0; i < 5; i++) {
      await t.call(
        'user/e_pwd',
        { mode: 'password', login_password: 'guess', password: '123456', repassword: '123456' },
        { token },
      );
    }
    const locked = await t.call(
      'user/e_pwd',
      { mode: 'password', login_password: 'secret1', password: '123456', repassword: '123456' },
      { token },
    );
    expect(locked.body.message).toBe('Too many requests – please try again shortly');
    expect((await t.call('user/login', { account: email, password: 'secret1' })).body.type).toBe('error');
  });

  it('sms_other_mail only takes the fund and address scenes', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const { body } = await t.call('sms_other_mail', { scene: 'register' }, { token });
    expect(body).toMatchObject({ type: 'error', message: 'Invalid input', field: 'scene' });
  });
});
