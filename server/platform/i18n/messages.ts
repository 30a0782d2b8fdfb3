import de from '../../../locales/de/errors.json';
import en from '../../../locales/en/errors.json';
import es from '../../../locales/es/errors.json';
import ja from '../../../locales/ja/errors.json';
import ko from '../../../locales/ko/errors.json';
import th from '../../../locales/th/errors.json';
import zh from '../../../locales/zh/errors.json';
import { DEFAULT_LANG, isLang, type Lang } from '../../../protocol';

/** Every server message is a key of the `errors` locale files; German is the reference set of keys. */
export type MessageKey = keyof typeof de;
type Table = Record<MessageKey, string>;

const tables: Record<Lang, Table> = { de, en, es, ja, ko, th, zh };

export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(de, key);

/** Every message key, in the reference table's order (the published API documents list them). */
export const messageKeys = (): MessageKey[] => Object.keys(de).filter(isMessageKey);

/**
 * The message for `key` in `lang`. Unknown keys (e.g. a zod default message) become `invalidInput`;
 * `{{name}}` placeholders are filled from `values`.
 */
export function translate(lang: Lang, key: string, values: Record<string, string | number> = {}): string {
  const table = tables[lang];
  const text = isMessageKey(key) ? table[key] : table.invalidInput;
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
