import { describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../protocol';
import { openSqlite } from '../../server/platform/db/connect';
import { migrateToLatest } from '../../server/migrations';
import { appPerSuite, DATABASES, startTestApp, type TestApp, uniqueEmail } from './harness';

describe.each(DATABASES)('malformed requests on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });

  const post = (url: string, payload: string, contentType: string, lang = 'en') =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType, lang } });

  /** The body is an error envelope with `message`, and shows nothing of the server's insides. */
  function expectClean(body: string, message: string) {
    expect(errorEnvelope.parse(JSON.parse(body))).toMatchObject({ type: 'error', code: 0, message });
    expect(body).not.toMatch(/stack|at \w+ \(|node_modules|\.ts:\d+/);
  }

  it('unknown /api paths and wrong methods get a 404 envelope', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/user/nope'],
      ['GET', '/api/user/login'],
      ['GET', '/api'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { lang: 'en' } });
      expect(response.statusCode, url).toBe(404);
      expectClean(response.body, 'Not found');
    }
    const de = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expectClean(de.body, 'Nicht gefunden');
  });

  it('a wrong content type is refused with 415 and changes nothing', async () => {
    const users = await t.count('users');
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
      const response = await post('/api/email_send', 'email=a@example.com&scene=register', type);
      expect(response.statusCode, type).toBe(415);
      expectClean(response.body, 'This request format is not supported');
    }
    expect(await t.count('code_outbox')).toBe(0);
    expect(await t.count('users')).toBe(users);
  });

  it('broken JSON and non-object bodies are refused with 400', async () => {
    for (const payload of ['{"email": ', '{bad json}', '[1,2,3]', '"just a string"']) {
      const response = await post('/api/email_send', payload, 'application/json', 'de');
      expect(response.statusCode, payload).toBe(400);
      expectClean(response.body, 'Die Anfrage konnte nicht gelesen werden');
    }
    expect(await t.count('code_outbox')).toBe(0);
  });

  it('a body over 64 KB is refused with 413', async () => {
    const response = await post(
      '/api/user/login',
      `account=a&password=${'x'.repeat(70_000)}`,
      'application/x-www-form-urlencoded',
    );
    expect(response.statusCode).toBe(413);
    expectClean(response.body, 'The request is too large');
  });

  it('accepts JSON bodies (numbers and booleans read as form strings) and empty bodies', async () => {
    const email = uniqueEmail();
    const sent = await post('/api/email_send', JSON.stringify({ email, scene: 'register' }), 'application/json');
    expect(sent.json()).toMatchObject({ type: 'ok' });
    const registered = await post(
      '/api/user/register',
      JSON.stringify({
        type: 'email',
        email,
        code: await t.latestCode(email),
        password: 'secret1',
        repassword: 'secret1',
        invite_code: 'PLATFORM',
        agree: true,
      }),
      'application/json',
    );
    expect(registered.json()).toMatchObject({ type: 'ok', data: { user: { email } } });
    const sms = await post(
      '/api/sms_send',
      JSON.stringify({ area_code: 49, mobile: 15199887766, scene: 'register' }),
      'application/json',
    );
    expect(sms.json()).toMatchObject({ type: 'ok', data: { to: '+4915199887766' } });
    expect((await post('/api/area_code', '', 'application/json')).json().type).toBe('ok');
    // What the browser client sends.
    const charset = await post(
      '/api/user/check_email',
      `email=${uniqueEmail()}`,
      'application/x-www-form-urlencoded;charset=UTF-8',
    );
    expect(charset.json()).toMatchObject({ type: 'ok', data: { available: true } });
    expect((await t.app.inject({ method: 'POST', url: '/api/area_code' })).json().type).toBe('ok');
  });

  it('repeated and nested fields are invalid input, not a crash', async () => {
    const repeated = await post(
      '/api/user/login',
      'account=a&account=b&password=x',
      'application/x-www-form-urlencoded',
    );
    expect(repeated.statusCode).toBe(200);
    expectClean(repeated.body, 'Please enter your phone number, e-mail or username');
    const nested = await post(
      '/api/user/login',
      JSON.stringify({ account: { $gt: '' }, password: 'x' }),
      'application/json',
    );
    expect(nested.statusCode).toBe(200);
    expect(nested.json()).toMatchObject({ type: 'error', field: 'account' });
  });

  it('an unexpected failure is a 500 with a generic message and no stack', async () => {
    // An app whose database is gone: every query throws.
    const broken = openSqlite(':memory:');
    await migrateToLatest(broken);
    const app = await startTestApp(broken);
    await broken.db.destroy();
    try {
      const response = await app.app.inject({
        method: 'POST',
        url: '/api/user/check_email',
        payload: 'email=a@example.com',
        headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      });
      expect(response.statusCode).toBe(500);
      expectClean(response.body, 'Something went wrong – please try again');
    } finally {
      await app.close();
    }
  });
});
