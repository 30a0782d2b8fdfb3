import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import appDe from '../../locales/de/app.json';
import errorsDe from '../../locales/de/errors.json';
import appEn from '../../locales/en/app.json';
import errorsEn from '../../locales/en/errors.json';
import { DEFAULT_LANG, isLang, type Lang } from '../../protocol/lang';

export const NAMESPACES = ['app', 'errors'] as const;
export type Namespace = (typeof NAMESPACES)[number];

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'app';
    resources: { app: typeof appEn; errors: typeof errorsEn };
  }
}

/** de and en ship in the main bundle; the other five tables load on demand. */
const lazyTables = import.meta.glob<{ default: Record<string, unknown> }>([
  '../../locales/*/app.json',
  '../../locales/*/errors.json',
  '!../../locales/de/*.json',
  '!../../locales/en/*.json',
]);

export const i18n: I18n = i18next.createInstance();

async function loadTables(lang: Lang): Promise<void> {
  for (const ns of NAMESPACES) {
    if (i18n.hasResourceBundle(lang, ns)) continue;
    const load = lazyTables[`../../locales/${lang}/${ns}.json`];
    if (!load) continue;
    const mod = await load();
    i18n.addResourceBundle(lang, ns, mod.default, true, true);
  }
}

let started: Promise<I18n> | null = null;

/** Starts i18next once, in the given language, with the `app` (default) and `errors` namespaces. */
export function startI18n(lang: Lang = DEFAULT_LANG): Promise<I18n> {
  started ??= (async () => {
    await i18n.use(initReactI18next).init({
      lng: DEFAULT_LANG,
      fallbackLng: ['en', 'de'],
      supportedLngs: ['de', 'en', 'ja', 'ko', 'es', 'th', 'zh'],
      ns: [...NAMESPACES],
      defaultNS: 'app',
      resources: { de: { app: appDe, errors: errorsDe }, en: { app: appEn, errors: errorsEn } },
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
    await setI18nLanguage(lang);
    return i18n;
  })();
  return started;
}

/** Switches i18next (loading the tables first) and sets `<html lang>`. */
export async function setI18nLanguage(lang: Lang): Promise<void> {
  try {
    await loadTables(lang);
  } catch (err) {
    console.warn('language tables failed to load', lang, err);
  }
  await i18n.changeLanguage(lang);
  if (globalThis.document) globalThis.document.documentElement.lang = lang;
}

/** Translates an `errors` namespace key (as used by the protocol schemas); unknown keys fall back to invalidInput. */
export function errorText(key: string): string {
  const full = `errors:${key}`;
  return i18n.exists(full) ? i18n.t(full as 'errors:invalidInput') : i18n.t('errors:invalidInput');
}

export const currentLang = (): Lang => {
  const l = i18n.language;
  return isLang(l) ? l : DEFAULT_LANG;
};
