import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../protocol';
import { migrateToLatest } from '../../server/migrations';
import { openSqlite } from '../../server/platform/db/connect';
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

  it('accepts JSON bodies (strings, and booleans read as form strings) and empty bodies', async () => {
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
      JSON.stringify({ area_code: '49', mobile: '15199887766', scene: 'register' }),
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

  it('refuses a JSON number anywhere in the body: its exact text is already lost', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const transfer = (amount: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/wallet/change',
        headers: { 'content-type': 'application/json', authorization: token, lang: 'en' },
        payload: `{"currency":"USDT","from":"coin","to":"option","amount":${amount},"request_id":"r-${amount}"}`,
      });
    // 1.0000000000000001 would have become 1 and 1.5e2 would have become 150.
    for (const amount of ['1.0000000000000001', '1.5e2', '1', '0']) {
      const response = await transfer(amount);
      expect(response.statusCode, amount).toBe(400);
      expectClean(response.body, 'Numbers must be sent as text in quotes, not as JSON numbers');
      expect(response.json().field, amount).toBe('amount');
    }
    // The same text as a string is read like a form field, and refused or accepted by the call's own rules.
    const asText = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/change',
      headers: { 'content-type': 'application/json', authorization: token, lang: 'en' },
      payload: '{"currency":"USDT","from":"coin","to":"option","amount":"1.0000000000000001","request_id":"r-text"}',
    });
    expect(asText.statusCode).toBe(200);
    expect(asText.json()).toMatchObject({ type: 'error', field: 'amount' });

    const before = await t.count('code_outbox');
    const nested = [
      [{ area_code: 49, mobile: '15199887700', scene: 'register' }, 'area_code'],
      [{ email: uniqueEmail(), scene: { depth: [1] } }, 'scene.depth.0'],
    ] as const;
    for (const [body, field] of nested) {
      const response = await post('/api/sms_send', JSON.stringify(body), 'application/json', 'de');
      expect(response.statusCode, field).toBe(400);
      expectClean(response.body, 'Zahlen müssen als Text in Anführungszeichen gesendet werden, nicht als JSON-Zahl');
      expect(response.json().field).toBe(field);
    }
    expect(await t.count('code_outbox')).toBe(before);
    // A form is all text: the same digits there are read (and checked) as text.
    const form = await post(
      '/api/sms_send',
      'area_code=49&mobile=15199887701&scene=register',
      'application/x-www-form-urlencoded',
    );
    expect(form.json()).toMatchObject({ type: 'ok' });
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

  /** Sends `request` as raw bytes over a real connection and reads the answer until the server closes it. */
  function rawRequest(port: number, request: string): Promise<{ status: number; body: string; headers: string }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        const headers = text.slice(0, split);
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]), headers, body: text.slice(split + 4) });
      });
      socket.end(request);
    });
  }

  it('answers every early client error over real HTTP in the envelope', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const head = (line: string, headers = '') =>
      `${line}\r\nhost: x\r\nlang: en\r\n${headers}connection: close\r\n\r\n`;
    const post = (path: string, type: string, body: string, extra = '') =>
      `${head(`POST ${path} HTTP/1.1`, `content-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}`)}${body}`;
    const cases: Array<[string, string, number, string]> = [
      // Node's HTTP parser: request line or headers over its limit (16 KB), unreadable requests.
      [
        '64 KB query string',
        head(`GET /api/coin/list?q=${'a'.repeat(64 * 1024)} HTTP/1.1`),
        431,
        // The parser gave up before the lang header: German, the default.
        'Die Anfrage ist zu groß',
      ],
      [
        'oversized header',
        head('GET /api/coin/list HTTP/1.1', `x-big: ${'b'.repeat(20_000)}\r\n`),
        431,
        'The request is too large',
      ],
      ['invalid method', head('GE\u0001T /api/coin/list HTTP/1.1'), 400, 'The request could not be read'],
      [
        'invalid header name',
        head('GET /api/coin/list HTTP/1.1', 'bad header: 1\r\n'),
        400,
        'The request could not be read',
      ],
      [
        'broken chunked body',
        `${head('POST /api/email_send HTTP/1.1', 'content-type: application/json\r\ntransfer-encoding: chunked\r\n')}zz\r\n{}\r\n0\r\n\r\n`,
        400,
        'The request could not be read',
      ],
      // Fastify's router and body parsers.
      ['bad URL encoding in the path', head('GET /api/%zz HTTP/1.1'), 400, 'The request could not be read'],
      ['bad JSON', post('/api/email_send', 'application/json', '{"email": '), 400, 'The request could not be read'],
      [
        'body over 64 KB',
        post('/api/user/login', 'application/x-www-form-urlencoded', `account=a&password=${'x'.repeat(70_000)}`),
        413,
        'The request is too large',
      ],
      [
        'unsupported content type',
        post('/api/email_send', 'application/xml', '<a/>'),
        415,
        'This request format is not supported',
      ],
    ];
    for (const [name, request, status, message] of cases) {
      const response = await rawRequest(port, request);
      expect(response.status, name).toBe(status);
      expect(response.headers, name).toMatch(/content-type: application\/json; charset=utf-8/i);
      expectClean(response.body, message);
    }
    // Bad percent-encoding in the query is no crash either: the call reads the text as it came.
    const query = await rawRequest(port, head('GET /api/coin/list?kind=%E0%A4%zz HTTP/1.1'));
    expect(query.status).toBe(200);
    expect(JSON.parse(query.body)).toEqual({
      type: 'error',
      code: 0,
      message: 'Invalid input',
      reason: 'invalidInput',
      field: 'kind',
    });
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
