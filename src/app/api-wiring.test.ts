import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { request } from '../../core/api/client';
import { apiEvents } from '../../core/api/events';
import type { User } from '../../protocol/account';
import { startI18n } from '../lib/i18n';
import { loading } from '../state/loading';
import { session, setSession } from '../state/session';
import { settings } from '../state/settings';
import { toasts } from '../state/toasts';
import { connectApi, EXPIRED_REDIRECT_MS } from './api-wiring';
import { loginGuard } from './guard';
import { setNavigator } from './navigation';

/** The shell's half of SPEC 4 and 7: core/api emits, src/app/api-wiring.ts clears, toasts and navigates. */

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

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn<(input: Request | string | URL, init?: RequestInit) => Promise<Response>>>;
let disconnect: () => void = () => {};

const lastRequest = (): Request => {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  const [input] = call;
  if (!(input instanceof Request)) throw new Error('ky passes a Request');
  return input;
};

const toastTexts = () => toasts.items.map((t) => t.text);

beforeAll(async () => {
  await startI18n('en');
  disconnect = connectApi();
});

afterAll(() => disconnect());

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  toasts.items.splice(0);
  loginGuard.reset();
  settings.lang = 'en';
  setSession('tok-123', user);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setNavigator(null);
});

describe('session and language reach every request', () => {
  it('sends the stored token and language', async () => {
    fetchMock.mockResolvedValue(json({ type: 'ok', code: 1, message: 'OK', data: {} }));
    settings.lang = 'de';
    await request('POST', 'x');
    expect(lastRequest().headers.get('authorization')).toBe('tok-123');
    expect(lastRequest().headers.get('lang')).toBe('de');
    session.token = null;
    await request('POST', 'x');
    expect(lastRequest().headers.get('authorization')).toBe('');
  });
});

describe('toasts and the loading bar', () => {
  it('toasts failures as errors and ok messages of typed calls as information, in the language', async () => {
    fetchMock.mockResolvedValue(json({ type: 'error', code: 0, message: 'Wrong account or password' }));
    await request('POST', 'x');
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await request('POST', 'x');
    expect(toasts.items.map((t) => [t.text, t.kind])).toEqual([
      ['Wrong account or password', 'error'],
      ['No connection to the server. Please check your network.', 'error'],
    ]);
  });

  it('counts a call on the loading bar while it runs', async () => {
    let release: (r: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((r) => (release = r)));
    const p = request('POST', 'x');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled(), { timeout: 10_000 });
    expect(loading.pending).toBe(1);
    release(json({ type: 'ok', code: 1, message: 'OK', data: 1 }));
    await p;
    expect(loading.pending).toBe(0);
  });
});

describe('type 999 (session gone)', () => {
  it('clears token and user, toasts, emits not-logged-in and goes to login after 1 s', async () => {
    vi.useFakeTimers();
    window.history.replaceState(null, '', '/pages/settings/account/index?tab=1');
    const navigate = vi.fn();
    setNavigator(navigate);
    const events: string[] = [];
    const off = apiEvents.on('notLoggedIn', (e) => events.push(e.message));
    fetchMock.mockResolvedValue(json({ type: 999, code: 0, message: 'Please log in' }));

    await expect(request('GET', 'user/center2')).resolves.toBe(false);

    expect(session.token).toBeNull();
    expect(session.user).toBeNull();
    expect(toastTexts()).toEqual(['Please log in']);
    expect(events).toEqual(['Please log in']);
    expect(navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(EXPIRED_REDIRECT_MS - 1);
    expect(navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate.mock.calls[0]?.[0]).toEqual({
      to: '/pages/user/login/login',
      search: { backpage: '/pages/settings/account/index?tab=1', backtype: 1 },
    });
    off();
  });

  it('navigates once when several calls answer 999 together, with backtype 2 on a tab page', async () => {
    vi.useFakeTimers();
    window.history.replaceState(null, '', '/pages/index/index');
    const navigate = vi.fn();
    setNavigator(navigate);
    fetchMock.mockImplementation(async () => json({ type: 999, code: 0, message: 'Please log in' }));
    await Promise.all([request('POST', 'a'), request('POST', 'b'), request('POST', 'c')]);
    await vi.advanceTimersByTimeAsync(EXPIRED_REDIRECT_MS);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate.mock.calls[0]?.[0]).toMatchObject({ search: { backtype: 2 } });
    expect(toastTexts()).toEqual(['Please log in']);
  });

  it('shows the generic message when the server sent none', async () => {
    vi.useFakeTimers();
    setNavigator(vi.fn());
    fetchMock.mockResolvedValue(json({ type: 999, code: 0, message: '' }));
    await request('POST', 'x');
    expect(toastTexts()).toHaveLength(1);
    expect(toastTexts()[0]).not.toBe('');
  });
});
