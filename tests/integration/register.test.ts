import { describe, expect, it } from 'vitest';
import { availableResponse, codeSentResponse, errorEnvelope, okEnvelope } from '../../protocol';
import { calls } from '../../server/domains';
import { withAccount } from '../../server/domains/account';
import { appPerSuite, DATABASES, PLATFORM_INVITE, type TestApp, uniqueEmail, uniqueMobile } from './harness';

describe.each(DATABASES)('registration on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });

  /** A complete, valid register-by-e-mail form whose code was really sent; tests spoil one field. */
  async function emailForm(email = uniqueEmail()) {
    await t.call('email_send', { email, scene: 'register' });
    const code = await t.latestCode(email);
    return {
      type: 'email',
      email,
      code: code ?? '',
      password: 'secret1',
      repassword: 'secret1',
      invite_code: PLATFORM_INVITE,
      agree: '1',
    };
  }

  /** Asserts a refused registration left no user and no session behind. */
  async function expectRefused(fields: Record<string, string>, message: string, field?: string, lang = 'en') {
    const [users, sessions] = [await t.count('users'), await t.count('sessions')];
    const { status, body } = await t.call('user/register', fields, { lang });
    expect(status).toBe(200);
    expect(errorEnvelope.parse(body)).toMatchObject({ type: 'error', code: 0, message });
    if (field) expect(body.field).toBe(field);
    expect(await t.count('users')).toBe(users);
    expect(await t.count('sessions')).toBe(sessions);
  }

  it('registers by e-mail with a code from the outbox and logs the user in', async () => {
    const email = uniqueEmail('Mixed.Case');
    const sent = await t.call('email_send', { email, scene: 'register' });
    expect(okEnvelope(codeSentResponse).parse(sent.body).data).toEqual({
      channel: 'email',
      to: email.toLowerCase(),
      retry_after: 60,
    });
    const code = await t.latestCode(email.toLowerCase());
    expect(code).toMatch(/^\d{6}$/);

    const { body } = await t.call(
      'user/register',
      {
        type: 'email',
        email,
        code: code ?? '',
        password: 'secret1',
        repassword: 'secret1',
        invite_code: PLATFORM_INVITE.toLowerCase(),
        agree: 'true',
      },
      { lang: 'ja' },
    );
    const data = okEnvelope(calls['user/register'].response).parse(body).data;
    expect(data.token.length).toBeGreaterThanOrEqual(43);
    expect(data.user).toMatchObject({
      email: email.toLowerCase(),
      mobile: null,
      area_code: null,
      lang: 'ja',
      has_fund_password: false,
    });
    expect(data.user.username).toMatch(/^u\d{8}$/);
    expect(data.user.invite_code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);

    const center = await t.call('user/center', {}, { token: data.token });
    expect(okEnvelope(calls['user/center'].response).parse(center.body).data).toEqual(data.user);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', data.user.id).executeTakeFirstOrThrow();
    expect(row.referrer_id).toBeNull();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('registers by phone; the trunk zero is dropped and the code goes to +<area><number>', async () => {
    const mobile = uniqueMobile();
    const sent = await t.call('sms_send', { area_code: '+49', mobile: `0${mobile}`, scene: 'register' });
    expect(okEnvelope(codeSentResponse).parse(sent.body).data).toMatchObject({ channel: 'mobile', to: `+49${mobile}` });
    const code = await t.latestCode(`+49${mobile}`);
    const { body } = await t.call('user/register', {
      type: 'mobile',
      area_code: '49',
      mobile: `0${mobile}`,
      code: code ?? '',
      password: 'secret1',
      repassword: 'secret1',
      invite_code: PLATFORM_INVITE,
      agree: '1',
    });
    const data = okEnvelope(calls['user/register'].response).parse(body).data;
    expect(data.user).toMatchObject({ mobile, area_code: '49', email: null });
    const outbox = await withAccount(t.db)
      .selectFrom('code_outbox')
      .selectAll()
      .where('address', '=', `+49${mobile}`)
      .execute();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ channel: 'sms', scene: 'register' });
  });

  it("records the referrer when a user's own invite code is used", async () => {
    const referrer = await t.registerByEmail(uniqueEmail('referrer'));
    const invited = await t.registerByEmail(uniqueEmail('invited'), 'secret1', {
      invite_code: ` ${referrer.user.invite_code.toLowerCase()} `,
    });
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', invited.user.id).executeTakeFirstOrThrow();
    expect(row.referrer_id).toBe(referrer.user.id);
    const c2 = await t.call('user/center2', {}, { token: referrer.token });
    expect(okEnvelope(calls['user/center2'].response).parse(c2.body).data.invite_count).toBe(1);
  });

  it('check_email and check_mobile report free and taken addresses', async () => {
    const email = uniqueEmail();
    const free = await t.call('user/check_email', { email });
    expect(okEnvelope(availableResponse).parse(free.body).data).toEqual({ available: true });
    await t.registerByEmail(email);
    const taken = await t.call('user/check_email', { email: email.toUpperCase() }, { lang: 'de' });
    expect(taken.body).toMatchObject({
      type: 'error',
      message: 'Diese E-Mail-Adresse ist bereits registriert',
      field: 'email',
    });

    const mobile = uniqueMobile();
    expect((await t.call('user/check_mobile', { area_code: '49', mobile })).body.type).toBe('ok');
    await t.registerByPhone(mobile);
    const takenPhone = await t.call('user/check_mobile', { area_code: '49', mobile: `0${mobile}` });
    expect(takenPhone.body).toMatchObject({ message: 'This phone number is already registered', field: 'mobile' });
  });

  it('refuses a register code for an address that is already registered', async () => {
    const email = uniqueEmail();
    await t.registerByEmail(email);
    const outbox = await t.count('code_outbox');
    t.clock.advance(61_000);
    const { body } = await t.call('email_send', { email, scene: 'register' });
    expect(body).toMatchObject({ type: 'error', message: 'This e-mail address is already registered' });
    expect(await t.count('code_outbox')).toBe(outbox);
  });

  describe('bad input changes nothing', () => {
    it('missing fields, in German and English', async () => {
      await expectRefused({}, 'Invalid input', 'type');
      await expectRefused({ type: 'email' }, 'Bitte gib deine E-Mail-Adresse ein', 'email', 'de');
      await expectRefused({ type: 'email' }, 'Please enter your e-mail address', 'email', 'en');
      const form = await emailForm();
      await expectRefused({ ...form, code: '' }, 'Please enter the verification code', 'code');
      await expectRefused({ ...form, password: '', repassword: '' }, 'Please enter a password', 'password');
      await expectRefused({ ...form, repassword: '' }, 'Please repeat the password', 'repassword');
      await expectRefused({ ...form, invite_code: '' }, 'Please enter an invite code', 'invite_code');
      const { agree: _agree, ...withoutAgree } = form;
      await expectRefused(withoutAgree, 'Please accept the user agreement', 'agree');
      await expectRefused({ ...form, agree: '0' }, 'Bitte stimme der Nutzungsvereinbarung zu', 'agree', 'de');
    });

    it('malformed e-mail and phone, short and mismatched passwords', async () => {
      const form = await emailForm();
      await expectRefused({ ...form, email: 'no-at-sign.example.com' }, 'Please enter your valid email', 'email');
      await expectRefused({ ...form, email: 'a b@example.com' }, 'Please enter your valid email', 'email');
      await expectRefused({ ...form, password: 'abc', repassword: 'abc' }, 'Minimum password length 6', 'password');
      await expectRefused({ ...form, repassword: 'secret2' }, 'Password twice inconsistent', 'repassword');
      await expectRefused(
        { ...form, repassword: 'secret2' },
        'Die beiden Passwörter stimmen nicht überein',
        'repassword',
        'de',
      );
      const phone = { ...form, type: 'mobile', area_code: '49' };
      await expectRefused({ ...phone, mobile: '12ab45' }, 'Please enter the correct phone number', 'mobile');
      await expectRefused({ ...phone, mobile: '123' }, 'Please enter the correct phone number', 'mobile');
      await expectRefused({ ...phone, mobile: '15112345678', area_code: 'x1' }, 'Please choose a valid country code');
      await expectRefused({ ...form, code: '12345' }, 'The verification code has 6 digits', 'code');
      // The code was never spent on any of these: the real registration still works.
      const ok = await t.call('user/register', form);
      expect(ok.body.type).toBe('ok');
    });

    it('5,000-character fields are refused as too long', async () => {
      const form = await emailForm();
      const long = 'x'.repeat(5000);
      for (const field of ['email', 'code', 'password', 'repassword', 'invite_code']) {
        const { body } = await t.call('user/register', { ...form, [field]: long });
        expect(body, field).toMatchObject({ type: 'error', message: 'The input is too long', field });
      }
      await expectRefused({ ...form, agree: long }, 'Please accept the user agreement', 'agree');
      expect((await t.call('user/register', form)).body.type).toBe('ok');
    });

    it('wrong, reused, foreign-scene, foreign-address and expired codes', async () => {
      const form = await emailForm();
      const wrong = form.code === '000000' ? '000001' : '000000';
      await expectRefused({ ...form, code: wrong }, 'The verification code is wrong or has expired', 'code');
      await expectRefused({ ...form, code: wrong }, 'Der Bestätigungscode ist falsch oder abgelaufen', 'code', 'de');

      // A code sent to another address does not work for this one.
      const other = await emailForm();
      await expectRefused({ ...form, code: other.code }, 'The verification code is wrong or has expired', 'code');

      // A forget code for an existing account is not a register code.
      const existing = uniqueEmail();
      await t.registerByEmail(existing);
      await t.call('email_send', { email: existing, scene: 'forget' });
      const forgetCode = (await t.latestCode(existing)) ?? '';
      const byForgetCode = { ...(await emailForm()), code: forgetCode };
      await expectRefused(byForgetCode, 'The verification code is wrong or has expired', 'code');

      // Used once, then gone.
      expect((await t.call('user/register', form)).body.type).toBe('ok');
      const again = { ...form, email: uniqueEmail() };
      await expectRefused(again, 'The verification code is wrong or has expired', 'code');
      await expectRefused(form, 'This e-mail address is already registered', 'email');

      // Ten minutes later a code has expired.
      const late = await emailForm();
      t.clock.advance(10 * 60_000 + 1);
      await expectRefused(late, 'The verification code is wrong or has expired', 'code');
    });

    it('a code dies after five wrong tries, even for the right value', async () => {
      const form = await emailForm();
      const wrong = form.code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 4; i++) {
        await expectRefused({ ...form, code: wrong }, 'The verification code is wrong or has expired', 'code');
      }
      await expectRefused({ ...form, code: wrong }, 'Too many wrong attempts – please request a new code', 'code');
      await expectRefused(form, 'Too many wrong attempts – please request a new code', 'code');
    });

    it('a newer code replaces the older one', async () => {
      const email = uniqueEmail();
      const first = await emailForm(email);
      t.clock.advance(61_000);
      const second = await emailForm(email);
      if (first.code !== second.code) {
        await expectRefused(first, 'The verification code is wrong or has expired', 'code');
      }
      expect((await t.call('user/register', second)).body.type).toBe('ok');
    });

    it('bad invite code, taken e-mail and taken phone', async () => {
      const form = await emailForm();
      await expectRefused({ ...form, invite_code: 'NOPE1234' }, 'This invite code is not valid', 'invite_code');
      await expectRefused(
        { ...form, invite_code: 'NOPE1234' },
        'Dieser Einladungscode ist ungültig',
        'invite_code',
        'de',
      );
      // The refusals above did not spend the code.
      expect((await t.call('user/register', form)).body.type).toBe('ok');

      const mobile = uniqueMobile();
      await t.registerByPhone(mobile);
      // Taken since the code was sent: the code is fine, the phone is not.
      const other = uniqueMobile();
      await t.call('sms_send', { area_code: '49', mobile: other, scene: 'register' });
      const code = (await t.latestCode(`+49${other}`)) ?? '';
      await expectRefused(
        { ...form, type: 'mobile', area_code: '49', mobile, code },
        'This phone number is already registered',
        'mobile',
      );
    });
  });
});
