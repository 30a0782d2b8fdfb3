import { describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import { calls } from '../../server/domains';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

describe.each(DATABASES)('language, profile and area codes on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });

  const langOf = async (token?: string, lang?: string) =>
    okEnvelope(calls['get/lang'].response).parse((await t.call('get/lang', {}, { token, lang })).body).data.lang;

  it('a guest gets the header language (German by default) and set/lang only checks', async () => {
    expect(await langOf(undefined, 'en')).toBe('en');
    expect(await langOf(undefined, 'zh-CN')).toBe('zh');
    expect(await langOf(undefined, 'xx')).toBe('de');
    const response = await t.app.inject({ method: 'POST', url: '/api/get/lang' });
    expect(response.json()).toMatchObject({ data: { lang: 'de' } });

    expect((await t.call('set/lang', { lang: 'th' })).body).toMatchObject({ type: 'ok', data: { lang: 'th' } });
    const unsupported = await t.call('set/lang', { lang: 'fr' });
    expect(unsupported.body).toMatchObject({ type: 'error', message: 'This language is not supported', field: 'lang' });
    const de = await t.call('set/lang', { lang: 'x'.repeat(5000) }, { lang: 'de' });
    expect(de.body.message).toBe('Diese Sprache wird nicht unterstützt');
  });

  it('a logged-in user keeps the chosen language whatever the header says', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail());
    expect(await langOf(token, 'de')).toBe('en');
    expect((await t.call('set/lang', { lang: 'ko' }, { token })).body).toMatchObject({ data: { lang: 'ko' } });
    expect(await langOf(token, 'de')).toBe('ko');
    expect((await t.call('set/lang', { lang: 'fr' }, { token })).body.type).toBe('error');
    expect(await langOf(token, 'de')).toBe('ko');
    const center = okEnvelope(calls['user/center'].response).parse((await t.call('user/center', {}, { token })).body);
    expect(center.data).toMatchObject({ id: user.id, lang: 'ko' });
  });

  it('center and center2 show only the caller, whatever ids the request carries', async () => {
    const a = await t.registerByEmail(uniqueEmail('alice'));
    const b = await t.registerByEmail(uniqueEmail('bob'));
    await t.registerByEmail(uniqueEmail('carol'), 'secret1', { invite_code: a.user.invite_code });
    for (const [path, query] of [
      ['user/center', `?id=${b.user.id}&user_id=${b.user.id}`],
      ['user/center2', `?id=${b.user.id}`],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/${path}${query}`,
        headers: { authorization: a.token },
      });
      expect(JSON.stringify(response.json()), path).toContain(`"id":${a.user.id}`);
      expect(JSON.stringify(response.json()), path).not.toContain(`"id":${b.user.id}`);
    }
    const c2 = okEnvelope(calls['user/center2'].response).parse(
      (await t.call('user/center2', {}, { token: a.token })).body,
    );
    expect(c2.data).toMatchObject({ user: { id: a.user.id }, invite_count: 1, sessions: 1 });
    expect(c2.data.last_login_at).toBe(c2.data.user.created_at);
    // No password hashes leave the server.
    expect(JSON.stringify(c2)).not.toContain('argon2');
  });

  it('area_code lists about 60 countries, Germany first, dial codes as digits', async () => {
    const { body } = await t.call('area_code');
    const list = okEnvelope(calls.area_code.response).parse(body).data;
    expect(list.length).toBeGreaterThanOrEqual(55);
    expect(list.slice(0, 5).map((c) => c.iso)).toEqual(['DE', 'AT', 'CH', 'GB', 'US']);
    expect(list[0]).toEqual({ iso: 'DE', dial: '49' });
    for (const c of list) {
      expect(c.dial).toMatch(/^\d{1,4}$/);
      expect(c.iso).toMatch(/^[A-Z]{2}$/);
    }
    expect(new Set(list.map((c) => c.iso)).size).toBe(list.length);
  });
});
