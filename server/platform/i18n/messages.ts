import de from '../../../locales/de/errors.json';
import en from '../../../locales/en/errors.json';
import es from '../../../locales/es/errors.json';
import ja from '../../../locales/ja/errors.json';
import ko from '../../../locales/ko/errors.json';
import th from '../../../locales/th/errors.json';
import zh from '../../../locales/zh/errors.json';
import { DEFAULT_LANG, isLang, type Lang } from '../../../protocol';

/**
 * The keys domains add with their own tables (locales/<lang>/errors/<domain>.json): each domain's errors.ts merges
 * its keys in here, so a BusinessError of any domain's key type-checks while platform code imports no domain.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one domain at a time.
export interface DomainMessageKeys {}

/**
 * Every server message is a key of the `errors` locale files: the shared ones (locales/<lang>/errors.json) and each
 * domain's; German is the reference set of keys.
 */
export type MessageKey = keyof typeof de | keyof DomainMessageKeys;
type Table = Record<string, string>;

/** A domain's messages in every language (its defineDomain names them, domains/compose.ts adds them). */
export type DomainMessages = Readonly<Record<Lang, Readonly<Record<string, string>>>>;

const tables: Record<Lang, Table> = {
  de: { ...de },
  en: { ...en },
  es: { ...es },
  ja: { ...ja },
  ko: { ...ko },
  th: { ...th },
  zh: { ...zh },
};
const added = new Set<DomainMessages>();

/** Adds domains' messages to the shared ones, once each; a key that two tables define stops the start. */
export function addMessages(list: readonly DomainMessages[]): void {
  for (const messages of list) {
    if (added.has(messages)) continue;
    for (const key of Object.keys(messages.de)) {
      if (Object.hasOwn(tables.de, key)) throw new Error(`message ${key} is defined twice`);
    }
    for (const lang of Object.keys(tables) as Lang[]) Object.assign(tables[lang], messages[lang]);
    added.add(messages);
  }
}

export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(tables.de, key);

/** Every message key, in the reference table's order (shared first, then each domain's in list order). */
export const messageKeys = (): MessageKey[] => Object.keys(tables.de).filter(isMessageKey);

/**
 * The message for `key` in `lang`. Unknown keys (e.g. a zod default message) become `invalidInput`;
 * `{{name}}` placeholders are filled from `values`.
 */
export function translate(lang: Lang, key: string, values: Record<string, string | number> = {}): string {
  const table = tables[lang];
  const text = (isMessageKey(key) ? table[key] : undefined) ?? table.invalidInput ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/**
 * The language of a request from its `lang` header (SPEC 7's language-mark). Accepts region forms like
 * `en-US` or `zh_CN`; anything else falls back to German (SPEC 9).
 */
export function langFromHeader(header: string | string[] | undefined): Lang {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase() ?? '';
  const base = raw.split(/[-_]/)[0];
  return isLang(base) ? base : DEFAULT_LANG;
}
