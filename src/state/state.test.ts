import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../protocol/account';
import { changeLanguage } from '../app/language';
import { i18n, startI18n } from '../lib/i18n';
import { clearSession, persistApp, session, setSession } from './session';
import { readPersistedApp, STORE_VERSION, setTheme, settings } from './settings';
import { clearCache, onClearCache, STORAGE_KEYS } from './storage';

const user: User = {
  id: 3,
  username: 'carol',
  email: 'carol@example.com',
  mobile: null,
  area_code: null,
  invite_code: 'CAR0L1',
  lang: 'de',
  has_fund_password: false,
  created_at: 1_700_000_000_000,
};

beforeAll(async () => {
  await startI18n('de');
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('session and theme persistence (SPEC 3)', () => {
  it('stores token, user and theme together with the store version', async () => {
    setSession('tok', user);
    setTheme('light');
    persistApp();
    const saved = readPersistedApp();
    expect(saved).toMatchObject({ version: STORE_VERSION, theme: 'light', token: 'tok', user: { username: 'carol' } });
    expect(STORE_VERSION).toBe('1.0.0');
    clearSession();
    setTheme('dark');
    persistApp();
    expect(readPersistedApp()).toMatchObject({ token: null, user: null, theme: 'dark' });
  });
});

describe('language (SPEC 1, 7, 9)', () => {
  it('stores lang and language-mark, switches i18n and <html lang>, and tells the server', async () => {
    const fetchMock = vi.fn(
      async (_input: Request | string | URL) =>
        new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data: { lang: 'en' } })),
    );
    vi.stubGlobal('fetch', fetchMock);
    await changeLanguage('en');
    expect(settings.lang).toBe('en');
    expect(localStorage.getItem(STORAGE_KEYS.lang)).toBe('en');
    expect(localStorage.getItem(STORAGE_KEYS.langMark)).toBe('en-US');
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('settings.title')).toBe('Settings');
    const req = fetchMock.mock.calls[0]?.[0];
    expect(req instanceof Request && new URL(req.url).pathname).toBe('/api/set/lang');

    await changeLanguage('ja');
    expect(i18n.hasResourceBundle('ja', 'app')).toBe(true);
    expect(document.documentElement.lang).toBe('ja');
    await changeLanguage('de');
    expect(i18n.t('settings.title')).toBe('Einstellungen');
  });
});

describe('clear cache', () => {
  it('removes cached data but keeps the session and the settings', async () => {
    setSession('tok', user);
    persistApp();
    localStorage.setItem(STORAGE_KEYS.lang, 'de');
    localStorage.setItem(STORAGE_KEYS.langMark, 'de-DE');
    localStorage.setItem('quotes.cache', '[1,2,3]');
    sessionStorage.setItem('draft', 'x');
    const memory = vi.fn();
    const off = onClearCache(memory);
    await clearCache();
    expect(localStorage.getItem('quotes.cache')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(memory).toHaveBeenCalledOnce();
    expect(readPersistedApp()).toMatchObject({ token: 'tok' });
    expect(localStorage.getItem(STORAGE_KEYS.lang)).toBe('de');
    expect(localStorage.getItem(STORAGE_KEYS.langMark)).toBe('de-DE');
    expect(session.token).toBe('tok');
    off();
  });
});
