import { proxy, subscribe } from 'valtio';
import { DEFAULT_LANG, isLang, type Lang } from '../../protocol/lang';
import { localeOf } from '../lib/format';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

export type Theme = 'dark' | 'light';

/** The store version held with the persisted session (SPEC 3, 9). */
export const STORE_VERSION = '1.0.0';

export interface Settings {
  theme: Theme;
  lang: Lang;
  /** The language-mark: the BCP 47 locale used for dates, numbers and country names. */
  langMark: string;
  /** The language page shows the five extra translations when this is on. */
  showAllLangs: boolean;
  /** Order pages draw the order's state machine with its current state (QA; off by default). */
  showOrderFlow: boolean;
}

interface PersistedApp {
  version?: string;
  theme?: unknown;
  token?: unknown;
  user?: unknown;
}

export function readPersistedApp(): PersistedApp {
  const raw = readStorage(STORAGE_KEYS.app);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? (parsed as PersistedApp) : {};
  } catch {
    return {};
  }
}

export function initialLang(): Lang {
  const stored = readStorage(STORAGE_KEYS.lang);
  return isLang(stored) ? stored : DEFAULT_LANG;
}

function initialSettings(): Settings {
  const persisted = readPersistedApp();
  const lang = initialLang();
  return {
    theme: persisted.theme === 'light' ? 'light' : 'dark',
    lang,
    langMark: localeOf(lang),
    showAllLangs: !(['de', 'en'] as string[]).includes(lang),
    showOrderFlow: readStorage(STORAGE_KEYS.orderFlow) === '1',
  };
}

export const settings = proxy<Settings>(initialSettings());

export function setTheme(theme: Theme): void {
  settings.theme = theme;
}

export function toggleTheme(): void {
  settings.theme = settings.theme === 'dark' ? 'light' : 'dark';
}

/** Stores the language locally; i18n and the server are told by `changeLanguage` in lib/i18n. */
export function storeLang(lang: Lang): void {
  settings.lang = lang;
  settings.langMark = localeOf(lang);
  writeStorage(STORAGE_KEYS.lang, lang);
  writeStorage(STORAGE_KEYS.langMark, settings.langMark);
}

export function setShowAllLangs(on: boolean): void {
  settings.showAllLangs = on;
}

export function setShowOrderFlow(on: boolean): void {
  settings.showOrderFlow = on;
  writeStorage(STORAGE_KEYS.orderFlow, on ? '1' : null);
}

/** The browser's bar colour per theme: the page background (theme.css --bg), as index.html and the manifest say. */
export const THEME_COLORS: Readonly<Record<Theme, string>> = { dark: '#0b0f19', light: '#f4f6fa' };

/**
 * Applies the theme to the root element so the CSS variables switch, and to the browser's bar: every theme-color
 * meta (index.html has one per system colour scheme, for the moment before any script runs) takes the app's theme,
 * which the user chose and which need not be the system's.
 */
export function applyTheme(theme: Theme, root: HTMLElement | undefined = globalThis.document?.documentElement): void {
  if (!root) return;
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  for (const meta of root.ownerDocument.querySelectorAll('meta[name="theme-color"]')) {
    meta.setAttribute('content', THEME_COLORS[theme]);
  }
}

subscribe(settings, () => applyTheme(settings.theme));
