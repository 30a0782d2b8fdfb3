import { describe, expect, it } from 'vitest';
import { okEnvelope, sessionExpiredEnvelope } from '../../protocol';
import { type CallPath, calls } from '../../server/domains';
import { withAccount } from '../../server/domains/account';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail, uniqueMobile } from './harness';

const PROTECTED = (Object.keys(calls) as CallPath[]).filter((path) => calls[path].auth);

describe.each(DATABASES)('sessions and passwords on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });

  const login = async (account: string, password: string) => {
    const { body } = await t.call('user/login', { account, password });
    return body.type === 'ok' ? okEnvelope(calls['user/login'].response).parse(body).data.token : undefined;
  };
  const isLoggedIn = async (token: string) => (await t.call('user/center', {}, { token })).body.type === 'ok';

  const PHONE =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';
  const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
  /** Logs in with the suite's password from a browser with this User-Agent; the session's token. */
  const signIn = async (account: string, userAgent: string) => {
    const { body } = await t.call('user/login', { account, password: 'secret1' }, { userAgent });
    return okEnvelope(calls['user/login'].response).parse(body).data.token;
  };
  /** The data of the user's account events of one kind, oldest first. */
  const userEvents = async (userId: number, kind: string): Promise<unknown[]> =>
    (
      await t.db
        .selectFrom('user_events')
        .select('payload')
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .orderBy('id')
        .execute()
    ).map((r) => JSON.parse(r.payload) as unknown);

  describe('type 999', () => {
    it('every protected call without a token says "please log in"', async () => {
      expect(PROTECTED.length).toBeGreaterThan(0);
      for (const path of PROTECTED) {
        const { status, body } = await t.call(path, {});
        expect(status, path).toBe(200);
        expect(sessionExpiredEnvelope.parse(body), path).toEqual({ type: 999, code: 0, message: 'Please log in' });
      }
      const de = await t.call('user/center', {}, { lang: 'de', token: '' });
      expect(de.body).toEqual({ type: 999, code: 0, message: 'Bitte melde dich an' });
    });

    it('a garbage, revoked or expired token says "session expired"', async () => {
      const expired = { type: 999, code: 0, message: 'Your session has expired – please log in again' };
      for (const token of ['garbage', 'Bearer garbage', 'x'.repeat(5000)]) {
        expect((await t.call('user/center', {}, { token })).body, token.slice(0, 20)).toEqual(expired);
      }

      const { token } = await t.registerByEmail(uniqueEmail());
      expect(await isLoggedIn(token)).toBe(true);
      expect(await isLoggedIn(`Bearer ${token}`)).toBe(true);
      const logout = await t.call('user/logout', {}, { token });
      expect(logout.body).toMatchObject({ type: 'ok', data: {} });
      expect((await t.call('user/center2', {}, { token })).body).toEqual(expired);
      expect((await t.call('user/logout', {}, { token })).body).toEqual(expired);

      const email = uniqueEmail();
      const fresh = (await t.registerByEmail(email)).token;
      t.clock.advance(30 * 24 * 3_600_000 - 1_000);
      expect(await isLoggedIn(fresh)).toBe(true);
      t.clock.advance(1_000);
      expect((await t.call('user/center', {}, { token: fresh })).body).toEqual(expired);
      expect(await login(email, 'secret1')).toBeDefined();
    });

    it('a guest call with a stale token still works as a guest', async () => {
      const { token } = await t.registerByEmail(uniqueEmail());
      await t.call('user/logout', {}, { token });
      const { body } = await t.call('get/lang', {}, { token, lang: 'es' });
      expect(body).toMatchObject({ type: 'ok', data: { lang: 'es' } });
    });
  });

  describe('signed-in devices', () => {
    const devices = async (token: string) => {
      const { body } = await t.call('user/sessions', {}, { token });
      return okEnvelope(calls['user/sessions'].response).parse(body).data.sessions;
    };
    const endedEvents = (userId: number) => userEvents(userId, 'session_ended');

    it('lists the caller’s sessions by device, ends another one at once, and refuses what is not theirs', async () => {
      const email = uniqueEmail();
      const { user } = await t.registerByEmail(email);
      const phone = await signIn(email, PHONE);
      const laptop = await signIn(email, LAPTOP);
      const stranger = (await t.registerByEmail(uniqueEmail())).token;

      const seen = await devices(phone);
      // The registration's own session, the phone's and the laptop's; the stranger's is not among them.
      expect(seen).toHaveLength(3);
      const mine = seen.find((d) => d.current);
      const other = seen.find((d) => d.browser === 'Firefox 133');
      expect(mine).toMatchObject({ browser: 'Chrome 156', os: 'Android', mobile: true });
      expect(other).toMatchObject({ os: 'Windows', mobile: false, current: false });
      if (!mine || !other) throw new Error('unreachable');

      // Another user's session id is "not found", in the caller's language, and that session lives on.
      const strangerId = (await devices(stranger))[0]?.id ?? 0;
      const refused = await t.call('user/sessions/end', { id: String(strangerId) }, { token: phone, lang: 'de' });
      expect(refused.body).toMatchObject({ type: 'error', field: 'id' });
      expect((refused.body as { message: string }).message).toBe(
        'Diese Sitzung ist bereits beendet oder gehört nicht zu deinem Konto',
      );
      expect(await isLoggedIn(stranger)).toBe(true);
      // This device's own session is ended by logging out.
      const current = await t.call('user/sessions/end', { id: String(mine.id) }, { token: phone });
      expect(current.body).toMatchObject({
        type: 'error',
        message: 'This is the session you are using – log out instead',
      });
      expect(await isLoggedIn(phone)).toBe(true);

      const ended = await t.call('user/sessions/end', { id: String(other.id) }, { token: phone });
      expect(ended.body).toMatchObject({ type: 'ok', data: {} });
      expect(await isLoggedIn(laptop)).toBe(false);
      expect((await devices(phone)).map((d) => d.id)).not.toContain(other.id);
      // Ended once: again is "not found".
      const again = await t.call('user/sessions/end', { id: String(other.id) }, { token: phone });
      expect(again.body).toMatchObject({ type: 'error', message: 'This session has already ended or is not yours' });
      // The user's open devices hear of it (the socket relay sends this row to their room).
      expect(await endedEvents(user.id)).toEqual([{ ids: [other.id] }]);
    });

    it('ends every other session and keeps this one', async () => {
      const email = uniqueEmail();
      const { token: first, user } = await t.registerByEmail(email);
      const phone = await signIn(email, PHONE);
      const laptop = await signIn(email, LAPTOP);
      // An expired session nobody logged out of is neither listed nor counted as ended.
      await t.db
        .insertInto('sessions')
        .values({ user_id: user.id, token_hash: 'e'.repeat(64), created_at: 1, expires_at: 2 })
        .execute();
      const others = (await devices(phone)).filter((d) => !d.current).map((d) => d.id);
      const { body } = await t.call('user/sessions/end_others', {}, { token: phone });
      expect(body).toMatchObject({ type: 'ok', data: { ended: 2 } });
      expect([await isLoggedIn(first), await isLoggedIn(laptop), await isLoggedIn(phone)]).toEqual([
        false,
        false,
        true,
      ]);
      expect(await devices(phone)).toHaveLength(1);
      expect(await endedEvents(user.id)).toEqual([{ ids: others }]);
      // Nothing left to end: no event.
      expect((await t.call('user/sessions/end_others', {}, { token: phone })).body).toMatchObject({
        data: { ended: 0 },
      });
      expect(await endedEvents(user.id)).toHaveLength(1);
    });
  });

  describe('new devices and the anti-phishing code', () => {
    const news = async (userId: number) =>
      (await userEvents(userId, 'new_sign_in')) as { browser: string | null; os: string | null }[];
    const mails = async (address: string) =>
      withAccount(t.db).selectFrom('mail_outbox').selectAll().where('address', '=', address).orderBy('id').execute();
    const signInMails = async (address: string) =>
      (await mails(address)).filter((m) => !m.subject.toLowerCase().includes('code'));

    it('tells the user of a sign-in from a device the account has not used, in app and by e-mail', async () => {
      const email = uniqueEmail();
      const { user } = await t.registerByEmail(email);
      await signIn(email, PHONE);
      await expect.poll(() => signInMails(email)).toHaveLength(1);
      expect(await news(user.id)).toEqual([expect.objectContaining({ browser: 'Chrome 156', os: 'Android' })]);
      const [mail] = await signInMails(email);
      expect(mail?.subject).toBe('New sign-in to your TradeWave account');
      expect(mail?.body).toContain('Chrome 156, Android');
      expect(mail?.body).toMatch(/https?:\/\/[^/\s]+\/pages\/settings\/security\/index/);

      // The same phone after a browser update is no news; a laptop is.
      const updated = await signIn(email, PHONE.replace('Chrome/156', 'Chrome/157'));
      const laptop = LAPTOP;
      await signIn(email, laptop);
      await expect.poll(() => signInMails(email)).toHaveLength(2);
      expect((await news(user.id)).map((n) => n.browser)).toEqual(['Chrome 156', 'Firefox 133']);

      // A device the user signed out from the list is not known any more: signing in from it again is news.
      const listed = (await t.call('user/sessions', {}, { token: updated })).body as {
        data: { sessions: { id: number; browser: string }[] };
      };
      for (const d of listed.data.sessions.filter((x) => x.browser === 'Firefox 133')) {
        await t.call('user/sessions/end', { id: String(d.id) }, { token: updated });
      }
      await signIn(email, laptop);
      await expect.poll(() => signInMails(email)).toHaveLength(3);
      // A client that names no device is news every time.
      await t.call('user/login', { account: email, password: 'secret1' }, { userAgent: '' });
      await expect.poll(() => signInMails(email)).toHaveLength(4);
    });

    it('links the e-mail only to a site the operator named, never to the Host a signer-in sent', async () => {
      const email = uniqueEmail();
      await t.registerByEmail(email);
      await t.call('user/login', { account: email, password: 'secret1' }, { userAgent: PHONE, host: 'evil.example' });
      await expect.poll(() => signInMails(email)).toHaveLength(1);
      const [mail] = await signInMails(email);
      expect(mail?.body).not.toContain('evil.example');
      expect(mail?.body).toMatch(/(^|\s)\/pages\/settings\/security\/index/);
    });

    it('puts the anti-phishing code first in every e-mail, and refuses one that is not a phrase', async () => {
      const email = uniqueEmail();
      const { token } = await t.registerByEmail(email);
      const get = async (tk: string) => (await t.call('user/anti_phishing', {}, { token: tk })).body;
      expect(await get(token)).toMatchObject({ type: 'ok', data: { code: null } });
      for (const bad of ['abc', 'x'.repeat(21), 'no<script>', 'two  spaces', '']) {
        const refused = await t.call('user/anti_phishing/set', { code: bad }, { token, lang: 'de' });
        expect(refused.body, bad).toMatchObject({
          type: 'error',
          field: 'code',
          message: 'Der Anti-Phishing-Code muss aus 4 bis 20 Buchstaben, Ziffern oder Leerzeichen bestehen',
        });
      }
      expect(await get(token)).toMatchObject({ data: { code: null } });
      // Any script: Thai with its vowel and tone marks, German with an umlaut typed as two code points (kept composed).
      const thai = await t.call('user/anti_phishing/set', { code: 'สวัสดี ครับ' }, { token });
      expect(thai.body).toMatchObject({ type: 'ok', data: { code: 'สวัสดี ครับ' } });
      const typedApart = await t.call('user/anti_phishing/set', { code: 'Mo\u0308we 42' }, { token });
      expect(typedApart.body).toMatchObject({ type: 'ok', data: { code: 'M\u00f6we 42' } });
      const set = await t.call('user/anti_phishing/set', { code: ' Blaue Möwe 7 ' }, { token });
      expect(set.body).toMatchObject({ type: 'ok', data: { code: 'Blaue Möwe 7' } });
      expect(await get(token)).toMatchObject({ data: { code: 'Blaue Möwe 7' } });

      // A code e-mail and a sign-in e-mail both start with it.
      // Past the resend wait after the registration's code.
      t.clock.advance(5 * 60_000);
      expect((await t.call('email_send', { email, scene: 'forget' })).body).toMatchObject({ type: 'ok' });
      await signIn(email, PHONE);
      await expect.poll(async () => (await mails(email)).length).toBeGreaterThanOrEqual(3);
      const after = (await mails(email)).slice(1);
      expect(after.map((m) => m.body.split('\n')[0])).toEqual([
        'Your anti-phishing code: Blaue Möwe 7',
        'Your anti-phishing code: Blaue Möwe 7',
      ]);
      // Another user's e-mails do not carry it.
      const other = uniqueEmail();
      await t.registerByEmail(other);
      expect((await mails(other))[0]?.body).not.toContain('Blaue Möwe 7');

      expect((await t.call('user/anti_phishing/clear', {}, { token })).body).toMatchObject({ type: 'ok' });
      expect(await get(token)).toMatchObject({ data: { code: null } });
    });
  });

  describe('safe/update_password', () => {
    it('refuses a wrong old password and mismatched new ones, changing nothing', async () => {
      const email = uniqueEmail();
      const { token } = await t.registerByEmail(email);
      const wrongOld = await t.call(
        'safe/update_password',
        { old_password: 'not-it', password: 'newpass1', repassword: 'newpass1' },
        { token },
      );
      expect(wrongOld.body).toMatchObject({
        type: 'error',
        message: 'The current password is wrong',
        field: 'old_password',
      });
      const mismatch = await t.call(
        'safe/update_password',
        { old_password: 'secret1', password: 'newpass1', repassword: 'newpass2' },
        { token, lang: 'de' },
      );
      expect(mismatch.body).toMatchObject({
        message: 'Die beiden Passwörter stimmen nicht überein',
        field: 'repassword',
      });
      const missing = await t.call('safe/update_password', { password: 'newpass1', repassword: 'newpass1' }, { token });
      expect(missing.body).toMatchObject({ message: 'Please enter your current password', field: 'old_password' });
      const short = await t.call(
        'safe/update_password',
        { old_password: 'secret1', password: 'abc', repassword: 'abc' },
        { token },
      );
      expect(short.body).toMatchObject({ message: 'Minimum password length 6', field: 'password' });

      expect(await login(email, 'secret1')).toBeDefined();
      expect(await login(email, 'newpass1')).toBeUndefined();
      expect(await isLoggedIn(token)).toBe(true);
    });

    it('changes the password and ends every other session, keeping the current one', async () => {
      const email = uniqueEmail();
      const { token: other } = await t.registerByEmail(email);
      const current = (await login(email, 'secret1')) ?? '';
      const { body } = await t.call(
        'safe/update_password',
        { old_password: 'secret1', password: 'newpass1', repassword: 'newpass1' },
        { token: current },
      );
      expect(body).toMatchObject({ type: 'ok', data: {} });
      expect(await isLoggedIn(current)).toBe(true);
      expect(await isLoggedIn(other)).toBe(false);
      expect(await login(email, 'secret1')).toBeUndefined();
      expect(await login(email, 'newpass1')).toBeDefined();
    });
  });

  describe('user/forget', () => {
    /** A forget code for `email`, a minute after its register code (one send per address per minute). */
    async function forgetCode(email: string) {
      t.clock.advance(61_000);
      const sent = await t.call('email_send', { email, scene: 'forget' });
      expect(sent.body.type).toBe('ok');
      return (await t.latestCode(email)) ?? '';
    }

    it('resets the password with a forget code and ends every session', async () => {
      const email = uniqueEmail();
      const { token } = await t.registerByEmail(email);
      const second = (await login(email, 'secret1')) ?? '';
      const code = await forgetCode(email);
      const { body } = await t.call('user/forget', {
        type: 'email',
        email,
        code,
        password: 'reset-pass',
        repassword: 'reset-pass',
      });
      expect(body).toMatchObject({ type: 'ok', data: {} });
      expect(await isLoggedIn(token)).toBe(false);
      expect(await isLoggedIn(second)).toBe(false);
      expect(await login(email, 'secret1')).toBeUndefined();
      expect(await login(email, 'reset-pass')).toBeDefined();

      // The code was used up.
      const again = await t.call('user/forget', {
        type: 'email',
        email,
        code,
        password: 'other-pass',
        repassword: 'other-pass',
      });
      expect(again.body).toMatchObject({ message: 'The verification code is wrong or has expired', field: 'code' });
      expect(await login(email, 'reset-pass')).toBeDefined();
    });

    it('works by phone too', async () => {
      const mobile = uniqueMobile();
      await t.registerByPhone(mobile);
      t.clock.advance(61_000);
      await t.call('sms_send', { area_code: '49', mobile, scene: 'forget' });
      const code = (await t.latestCode(`+49${mobile}`)) ?? '';
      const { body } = await t.call('user/forget', {
        type: 'mobile',
        area_code: '49',
        mobile,
        code,
        password: 'by-phone',
        repassword: 'by-phone',
      });
      expect(body.type).toBe('ok');
      expect(await login(mobile, 'by-phone')).toBeDefined();
    });

    it('refuses wrong codes, register codes and mismatched passwords without changing anything', async () => {
      const email = uniqueEmail();
      const { token } = await t.registerByEmail(email);
      const code = await forgetCode(email);
      const base = { type: 'email', email, code, password: 'reset-pass', repassword: 'reset-pass' };
      const wrong = code === '000000' ? '000001' : '000000';
      expect((await t.call('user/forget', { ...base, code: wrong })).body.message).toBe(
        'The verification code is wrong or has expired',
      );
      expect((await t.call('user/forget', { ...base, repassword: 'other-pass' })).body.message).toBe(
        'Password twice inconsistent',
      );
      // The register code that created the account is spent and of another scene anyway.
      const newcomer = uniqueEmail();
      await t.call('email_send', { email: newcomer, scene: 'register' });
      const registerCode = (await t.latestCode(newcomer)) ?? '';
      expect((await t.call('user/forget', { ...base, email: newcomer, code: registerCode })).body.message).toBe(
        'The verification code is wrong or has expired',
      );
      expect(await isLoggedIn(token)).toBe(true);
      expect(await login(email, 'secret1')).toBeDefined();
    });

    it('answers a forget request for an unknown address like any other, but sends nothing', async () => {
      const ghost = uniqueEmail('ghost');
      const outbox = await t.count('code_outbox');
      const codes = await t.count('verification_codes');
      const { body } = await t.call('email_send', { email: ghost, scene: 'forget' });
      expect(body).toEqual({
        type: 'ok',
        code: 1,
        message: 'OK',
        data: { channel: 'email', to: ghost, retry_after: 60 },
      });
      expect(await t.count('code_outbox')).toBe(outbox);
      expect(await t.count('verification_codes')).toBe(codes);
      // Still rate limited like a real send, so timing of answers does not tell the two apart.
      expect((await t.call('email_send', { email: ghost, scene: 'forget' })).body.type).toBe('error');
    });
  });
});
