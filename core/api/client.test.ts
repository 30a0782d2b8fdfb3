// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountCalls, type User } from '../../protocol/account';
import { createServerClock } from '../clock';
import { areaApi, configureApi, FALLBACK_ERROR, refusal, request, TIMEOUT_MS } from './client';
import { apiEvents } from './events';

const { callApi, callApiResult } = areaApi(accountCalls);

const user: User = {
  id: 7,
  username: 'alice',
  email: 'alice@example.com',
  mobile: null,
  area_code: null,
  invite_code: 'ABC123',
  lang: 'en',
  has_fund_password: false,
  created_at: 1_700_000_000_000,
};

/** What the app would hand the client (src/app/api-wiring.ts): the session token, the language, the texts. */
const session: { token: string | null } = { token: null };
const settings = { lang: 'en' };
const TEXTS = {
  timeout: 'The server did not answer in time. Please try again.',
  offline: 'No connection to the server. Please check your network.',
  uploadFailed: 'Upload failed – please retry',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn<(input: Request | string | URL, init?: RequestInit) => Promise<Response>>>;

const lastRequest = (): Request => {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  const [input] = call;
  if (!(input instanceof Request)) throw new Error('ky passes a Request');
  return input;
};

/** The client's events as the shell hears them: `failed` messages are what it toasts as errors. */
let failed: string[] = [];
let notices: string[] = [];
let notLoggedIn: string[] = [];
let pending = 0;
let offs: (() => void)[] = [];
const toastTexts = () => failed;

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  failed = [];
  notices = [];
  notLoggedIn = [];
  pending = 0;
  offs = [
    apiEvents.on('failed', (e) => failed.push(e.message)),
    apiEvents.on('notice', (e) => notices.push(e.message)),
    apiEvents.on('notLoggedIn', (e) => notLoggedIn.push(e.message)),
    apiEvents.on('loadingBegin', () => {
      pending += 1;
    }),
    apiEvents.on('loadingEnd', () => {
      pending -= 1;
    }),
  ];
  settings.lang = 'en';
  session.token = 'tok-123';
  configureApi({ headers: () => ({ token: session.token, lang: settings.lang }), text: (key) => TEXTS[key] });
});

afterEach(() => {
  for (const off of offs) off();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('request headers and encoding', () => {
  it('posts form-encoded fields to /api with the raw token and the language header', async () => {
    let sent = '';
    fetchMock.mockImplementation(async (input) => {
      if (input instanceof Request) sent = await input.clone().text();
      return json({ type: 'ok', code: 1, message: 'OK', data: { x: 1 } });
    });
    await request('POST', 'user/login', { account: 'alice', password: 'p w&d', skip: undefined });
    const req = lastRequest();
    expect(new URL(req.url).pathname).toBe('/api/user/login');
    expect(req.method).toBe('POST');
    expect(req.headers.get('authorization')).toBe('tok-123');
    expect(req.headers.get('lang')).toBe('en');
    expect(req.headers.get('content-type')).toContain('application/x-www-form-urlencoded');
    const body = new URLSearchParams(sent);
    expect(body.get('account')).toBe('alice');
    expect(body.get('password')).toBe('p w&d');
    expect(body.has('skip')).toBe(false);
  });

  it('sends GET fields as query parameters', async () => {
    fetchMock.mockResolvedValue(json({ type: 'ok', code: 1, message: 'OK', data: {} }));
    await request('GET', 'user/center2', { page: 2 });
    const url = new URL(lastRequest().url);
    expect(url.pathname).toBe('/api/user/center2');
    expect(url.searchParams.get('page')).toBe('2');
  });

  it('sends an empty Authorization header when logged out', async () => {
    session.token = null;
    fetchMock.mockResolvedValue(json({ type: 'ok', code: 1, message: 'OK', data: {} }));
    await request('POST', 'get/lang');
    expect(lastRequest().headers.get('authorization')).toBe('');
  });
});

describe('envelope rules (SPEC 7)', () => {
  it('is ok by type and returns data when message is OK', async () => {
    fetchMock.mockResolvedValue(json({ type: 'ok', code: 1, message: 'OK', data: { a: 1 } }));
    await expect(request('POST', 'x')).resolves.toEqual({ a: 1 });
  });

  it('is ok by code 1 alone and returns data when msg is success', async () => {
    fetchMock.mockResolvedValue(json({ type: 'success', code: 1, msg: 'success', data: [1, 2] }));
    await expect(request('POST', 'x')).resolves.toEqual([1, 2]);
  });

  it('accepts code "1" as a string', async () => {
    fetchMock.mockResolvedValue(json({ type: 'anything', code: '1', message: 'OK', data: 'd' }));
    await expect(request('POST', 'x')).resolves.toBe('d');
  });

  it('returns the message when an ok answer carries another message', async () => {
    fetchMock.mockResolvedValue(json({ type: 'ok', code: 1, message: 'Code sent', data: { a: 1 } }));
    await expect(request('POST', 'x')).resolves.toBe('Code sent');
    expect(toastTexts()).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('tells the user the message of an ok answer from a typed call', async () => {
    fetchMock.mockResolvedValue(json({ type: 'ok', code: 1, message: 'Code sent', data: { has_password: true } }));
    await expect(callApi('user/has_password', {})).resolves.toEqual({ has_password: true });
    expect(notices).toEqual(['Code sent']);
  });

  it('toasts the message of an error answer and resolves false', async () => {
    fetchMock.mockResolvedValue(json({ type: 'error', code: 0, message: 'Wrong account or password' }));
    await expect(request('POST', 'x')).resolves.toBe(false);
    expect(toastTexts()).toEqual(['Wrong account or password']);
  });

  it('hands a typed call the refusal’s reason (its errors-table key) beside the translated message', async () => {
    fetchMock.mockResolvedValue(
      json({
        type: 'error',
        code: 0,
        message: 'Falsches Konto oder Passwort',
        reason: 'loginFailed',
        field: 'password',
      }),
    );
    const r = await callApiResult('email_send', { email: 'a@example.com', scene: 'register' }, { quiet: true });
    expect(r).toEqual({ ok: false, message: 'Falsches Konto oder Passwort', reason: 'loginFailed', field: 'password' });
    expect(refusal(r.ok ? { message: '' } : r)).toMatchObject({ reason: 'loginFailed', answered: true });
    // No reason, no answer the client can trust: the server may have acted, so a retry keeps its request id.
    expect(refusal({ message: 'ERROR' }).answered).toBe(false);
  });

  it('toasts ERROR when a failure carries no message', async () => {
    fetchMock.mockResolvedValue(json({ type: 'error', code: 0 }));
    await expect(request('POST', 'x')).resolves.toBe(false);
    expect(toastTexts()).toEqual([FALLBACK_ERROR]);
  });

  it('uses the envelope message of an HTTP error (404 with envelope)', async () => {
    fetchMock.mockResolvedValue(json({ type: 'error', code: 0, message: 'Not found' }, 404));
    await expect(request('POST', 'nope')).resolves.toBe(false);
    expect(toastTexts()).toEqual(['Not found']);
  });

  it('toasts ERROR for an HTTP error without an envelope', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(request('POST', 'x')).resolves.toBe(false);
    expect(toastTexts()).toEqual([FALLBACK_ERROR]);
  });

  it('toasts a message and resolves false on a network error', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(request('POST', 'x')).resolves.toBe(false);
    expect(toastTexts()).toHaveLength(1);
    expect(toastTexts()[0]).toMatch(/connection/i);
  });

  it('times out after 60 s with a toast and false', async () => {
    expect(TIMEOUT_MS).toBe(60_000);
    vi.useFakeTimers();
    fetchMock.mockImplementation(
      (input) =>
        new Promise((_resolve, reject) => {
          const signal = input instanceof Request ? input.signal : undefined;
          signal?.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    const pending = request('POST', 'slow');
    await vi.advanceTimersByTimeAsync(59_000);
    expect(toastTexts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(pending).resolves.toBe(false);
    expect(toastTexts()[0]).toMatch(/in time/i);
  });

  it('stays quiet when asked to', async () => {
    fetchMock.mockResolvedValue(json({ type: 'error', code: 0, message: 'nope' }));
    await expect(request('POST', 'x', {}, { quiet: true })).resolves.toBe(false);
    expect(toastTexts()).toEqual([]);
  });
});

describe('loading indicator', () => {
  it('counts a call while it runs, unless the call opts out', async () => {
    let release: (r: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((r) => (release = r)));
    const p = request('POST', 'x');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled(), { timeout: 10_000 });
    expect(pending).toBe(1);
    release(json({ type: 'ok', code: 1, message: 'OK', data: 1 }));
    await p;
    expect(pending).toBe(0);

    fetchMock.mockImplementation(() => new Promise<Response>((r) => (release = r)));
    const q = request('POST', 'x', {}, { loading: false });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2), { timeout: 10_000 });
    expect(pending).toBe(0);
    release(json({ type: 'ok', code: 1, message: 'OK', data: 1 }));
    await q;
  });
});

describe('type 999 (session gone)', () => {
  // What the shell does on this event (clear the session, toast, go to login after 1 s) is tested end to end in
  // src/app/api-wiring.test.ts.
  it('emits not-logged-in with the message, toasts nothing itself, and resolves false', async () => {
    fetchMock.mockResolvedValue(json({ type: 999, code: 0, message: 'Please log in' }));
    await expect(request('GET', 'user/center2')).resolves.toBe(false);
    expect(notLoggedIn).toEqual(['Please log in']);
    expect(toastTexts()).toEqual([]);
  });

  it('emits once per call that answers 999, and not at all when quiet', async () => {
    fetchMock.mockImplementation(async () => json({ type: 999, code: 0, message: 'Please log in' }));
    await Promise.all([request('POST', 'a'), request('POST', 'b'), request('POST', 'c', {}, { quiet: true })]);
    expect(notLoggedIn).toEqual(['Please log in', 'Please log in']);
  });
});

describe('server time', () => {
  it("feeds the answer's Date header to the clock", async () => {
    let now = 1_000_000;
    const clock = createServerClock({ now: () => now });
    configureApi({ headers: () => ({ token: null, lang: 'en' }), text: (key) => TEXTS[key], clock });
    fetchMock.mockImplementation(async () => {
      now += 200;
      return new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data: {} }), {
        headers: { 'content-type': 'application/json', date: new Date(5_000_000).toUTCString() },
      });
    });
    await request('POST', 'x');
    // Server time was in [5_000_000, 5_000_999] while the call ran from 1_000_000 to 1_000_200.
    expect(clock.synced()).toBe(true);
    expect(clock.offset()).toBe(4_000_399);
  });
});

describe("callApi (typed, from an area's call table)", () => {
  it('parses ok data with the call schema', async () => {
    fetchMock.mockResolvedValue(json({ type: 'ok', code: 1, message: 'OK', data: { has_password: true } }));
    await expect(callApi('user/has_password', {})).resolves.toEqual({ has_password: true });
    expect(lastRequest().method).toBe('POST');
  });

  it('uses the method of the table (GET for user/center2)', async () => {
    fetchMock.mockResolvedValue(
      json({ type: 'ok', code: 1, message: 'OK', data: { user, invite_count: 0, last_login_at: null, sessions: 1 } }),
    );
    const r = await callApi('user/center2', {});
    expect(lastRequest().method).toBe('GET');
    expect(r === false ? null : r.user.username).toBe('alice');
  });

  it('resolves false (and toasts ERROR) when data breaks the contract', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fetchMock.mockResolvedValue(json({ type: 'ok', code: 1, message: 'OK', data: { has_password: 'yes' } }));
    await expect(callApi('user/has_password', {})).resolves.toBe(false);
    expect(toastTexts()).toEqual([FALLBACK_ERROR]);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('resolves false on a business error', async () => {
    fetchMock.mockResolvedValue(json({ type: 'error', code: 0, message: 'The login password is wrong' }));
    await expect(
      callApi('user/e_pwd', { mode: 'password', login_password: 'x', password: '123456', repassword: '123456' }),
    ).resolves.toBe(false);
    expect(toastTexts()).toEqual(['The login password is wrong']);
  });

  it('carries the wait of a rate-limited send, so the button can count down', async () => {
    fetchMock.mockResolvedValue(
      json({ type: 'error', code: 0, message: 'Please wait', field: 'email', data: { retry_after: 42 } }),
    );
    const r = await callApiResult('email_send', { email: 'a@example.com', scene: 'register' });
    expect(r).toEqual({ ok: false, message: 'Please wait', field: 'email', retryAfter: 42 });
  });
});
