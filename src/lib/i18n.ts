import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type appEn from '../../locales/en/app.json';
import type errorsEn from '../../locales/en/errors.json';
import { ALL_LANGS, DEFAULT_LANG, isLang, type Lang } from '../../protocol/lang';
import { SHELL_NAMESPACES } from './first-route';

/**
 * The tables, per language and namespace (DESIGN "Fast on a phone": only the active language loads, per namespace).
 * `app` is the shell's (tabs, menu, common texts, and every group more than one feature uses), `errors` is shared
 * with the server; both load at start (SHELL_NAMESPACES). Each feature has its own namespace, loaded with its routes
 * (src/app/pages.ts). Every key keeps its one full path: a feature's namespace joins i18next's fallback namespaces
 * when it loads, so a market key such as kline.period is found without a prefix once that namespace is loaded.
 *
 * A feature names its table's type here from its own `feature.ts` (`declare module` adding to this interface), so a
 * new feature touches no shared file for its strings.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by each feature's declaration
export interface FeatureStrings {}
export type FeatureNamespace = keyof FeatureStrings;
export type Namespace = (typeof SHELL_NAMESPACES)[number] | FeatureNamespace;

/** Every feature's keys in one type: `A | B` becomes `A & B`. */
type AllOf<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'app';
    /** One table for the keys without a prefix: the shell's and every feature's (they are looked up in that order). */
    resources: {
      app: typeof appEn & AllOf<FeatureStrings[FeatureNamespace]>;
      errors: typeof errorsEn;
    };
  }
}

/** Every table is its own chunk; none ships in the main bundle. */
const tables = import.meta.glob<{ default: Record<string, unknown> }>('../../locales/*/*.json');

export const i18n: I18n = i18next.createInstance();

/** Namespaces the app has asked for so far: a language switch loads them all in the new language first. */
const wanted = new Set<Namespace>(SHELL_NAMESPACES);
/** One load per language and namespace; a failed load is forgotten so the next attempt tries again. */
const loading = new Map<string, Promise<void>>();

function loadTable(lang: Lang, ns: Namespace): Promise<void> {
  const id = `${lang}/${ns}`;
  let pending = loading.get(id);
  if (!pending) {
    const load = tables[`../../locales/${id}.json`];
    if (!load) return Promise.reject(new Error(`no table ${id}`));
    pending = load().then(
      (mod) => {
        i18n.addResourceBundle(lang, ns, mod.default, true, true);
      },
      (err: unknown) => {
        loading.delete(id);
        throw err;
      },
    );
    loading.set(id, pending);
  }
  return pending;
}

const loadTables = (lang: Lang, namespaces: Iterable<Namespace>): Promise<unknown> =>
  Promise.all([...namespaces].map((ns) => loadTable(lang, ns)));

let started: Promise<I18n> | null = null;
/** The language being switched to (the active one once the switch is done). */
let target: Lang = DEFAULT_LANG;

/**
 * Starts i18next once, in the given language, with the shell's tables of that language loaded (a failed load is
 * tried once more; after that the app starts anyway and the loading view of its pages offers Retry).
 */
export function startI18n(lang: Lang = DEFAULT_LANG): Promise<I18n> {
  started ??= (async () => {
    target = lang;
    await i18n.use(initReactI18next).init({
      lng: lang,
      fallbackLng: false,
      supportedLngs: [...ALL_LANGS],
      ns: [...SHELL_NAMESPACES],
      defaultNS: 'app',
      // Grows as features load (loadNamespace): a key is looked up in the shell's table, then in each loaded one.
      fallbackNS: [],
      // The tables are added as they load; there is no backend, so i18next never fetches anything itself.
      resources: {},
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
    try {
      await loadTables(lang, wanted);
    } catch {
      // One more attempt below (setI18nLanguage warns if that fails too).
    }
    await setI18nLanguage(lang);
    return i18n;
  })();
  return started;
}

/**
 * A feature's table in the active language, loaded before its page shows (src/app/pages.ts); later language
 * switches load it in the new language too.
 */
export async function loadNamespace(ns: FeatureNamespace): Promise<void> {
  wanted.add(ns);
  // During a language switch the page still shows in the old language until the switch is done: load both.
  await loadTables(target, [ns]);
  if (currentLang() !== target) await loadTables(currentLang(), [ns]);
  const fallback = i18n.options.fallbackNS;
  const loaded = Array.isArray(fallback) ? fallback : [];
  if (!loaded.includes(ns)) i18n.options.fallbackNS = [...loaded, ns];
}

/** Switches i18next (loading every table asked for so far in the new language first) and sets `<html lang>`. */
export async function setI18nLanguage(lang: Lang): Promise<void> {
  target = lang;
  try {
    await loadTables(lang, wanted);
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
