import { readFileSync } from 'node:fs';
import type { Lang } from '../../../protocol/lang';
import { BusinessError } from '../errors';
import { translate } from '../i18n/messages';
import type { Out } from '../ops/commands';
import type { StoredTexts, TextInput } from './texts';

/**
 * The ops CLI's side of published texts (`articles …`, `news …`): texts given as `de.title=… de.body=…` words or a
 * JSON file, ids, printing, and the exit codes (a refusal prints the reason in English and exits 1, a usage mistake
 * exits 2).
 */

export class UsageError extends Error {}

/** `\n` in a shell word is a line break (a shell word cannot easily hold one); `\\` is a backslash. */
const lineBreaks = (value: string): string => value.replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));

/** What a JSON file or the key=value words say: the module's own fields (`topic`, `kind`, ...) and texts by language. */
export interface TextFields {
  fields: Record<string, unknown>;
  texts: Record<string, Partial<TextInput>>;
}

function fromJson(path: string, keys: readonly string[]): TextFields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${path} does not hold a JSON object`);
  }
  const out: TextFields = { fields: {}, texts: {} };
  for (const [key, value] of Object.entries(parsed)) {
    if (keys.includes(key)) out.fields[key] = value;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const text = value as Record<string, unknown>;
      out.texts[key] = {
        ...(typeof text.title === 'string' ? { title: text.title } : {}),
        ...(typeof text.body === 'string' ? { body: text.body } : {}),
      };
    } else throw new UsageError(`unknown field in ${path}: ${key}`);
  }
  return out;
}

/** The words after `add` or `edit <id>`: `key=value` words (the module's `keys` and `<lang>.title|body`) or one file. */
export function textFieldsOf(words: readonly string[], keys: readonly string[]): TextFields {
  const [only] = words;
  if (words.length === 1 && only !== undefined && !only.includes('=')) return fromJson(only, keys);
  const out: TextFields = { fields: {}, texts: {} };
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new UsageError(`not a key=value word: ${word}`);
    const key = word.slice(0, eq);
    const value = word.slice(eq + 1);
    if (keys.includes(key)) out.fields[key] = value;
    else {
      const m = /^([a-z]{2})\.(title|body)$/.exec(key);
      if (!m?.[1] || !m[2]) throw new UsageError(`unknown key: ${key}`);
      const text = out.texts[m[1]] ?? {};
      text[m[2] as 'title' | 'body'] = lineBreaks(value);
      out.texts[m[1]] = text;
    }
  }
  return out;
}

/** Texts of a new publication: a language named with only a title or a body gets the other empty (then refused). */
export const fullTexts = (texts: TextFields['texts']): Record<string, TextInput> =>
  Object.fromEntries(Object.entries(texts).map(([lang, t]) => [lang, { title: t.title ?? '', body: t.body ?? '' }]));

const ID_RE = /^[1-9]\d{0,9}$/;

export function idOf(word: string | undefined, what: string): number {
  if (!word || !ID_RE.test(word)) throw new UsageError(`${what} id is needed, not ${word ?? 'nothing'}`);
  return Number(word);
}

/** Each language's title on one line. */
export const titlesLine = <L extends Lang>(texts: StoredTexts<L>, langs: readonly L[]) =>
  langs.map((l) => `${l}: ${texts[l]?.title ?? '(none)'}`).join('  ');

/** The texts, one block per language. */
export function printTexts<L extends Lang>(texts: StoredTexts<L>, langs: readonly L[], out: Out): void {
  for (const lang of langs) {
    const text = texts[lang];
    out('');
    if (!text) {
      out(`[${lang}] (no text)`);
      continue;
    }
    out(`[${lang}] ${text.title}`);
    for (const line of text.body.split('\n')) out(`  ${line}`);
  }
}

/** Runs a command: a refusal prints its reason (in English) and exits 1, a usage mistake prints `usage` and exits 2. */
export async function runTextCommand(run: () => Promise<number>, usage: string, out: Out): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof UsageError) {
      out(err.message);
      out(usage);
      return 2;
    }
    if (err instanceof BusinessError) {
      out(`refused: ${translate('en', err.key)}${err.field ? ` (${err.field})` : ''}`);
      return 1;
    }
    throw err;
  }
}
