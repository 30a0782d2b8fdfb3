import { sql } from 'kysely';
import type { Lang } from '../../../protocol/lang';
import { pickTextLang, REQUIRED_TEXT_LANGS, TEXT_BODY_MAX, TEXT_TITLE_MAX } from '../../../protocol/published-texts';
import { BusinessError } from '../errors';
import type { MessageKey } from '../i18n/messages';

/**
 * Texts that operators publish per language (help articles, news): the checks of a title and a body, which languages
 * a publication needs (German and English), what an edit changes, which text a reader gets (their language, else
 * English, else German) and the folding a search compares. Each module keeps its own tables and adds what is its own
 * (topics, kinds); refusals are BusinessErrors with keys of the `errors` table and the field (`de.title`, `en.body`),
 * so a console shows them in its user's language and the CLI in English.
 */

/** One language's text as an operator gives it. */
export interface TextInput {
  title: string;
  body: string;
}

/** One language's stored text. */
export interface StoredText extends TextInput {
  updated_at: number;
}

export type StoredTexts<L extends Lang = Lang> = Partial<Record<L, StoredText>>;

/** Which languages a module's texts may be written in, and its refusal of any other. */
export interface TextPolicy<L extends Lang> {
  langs: readonly L[];
  langNotOffered: MessageKey;
}

/** Who does it (recorded in the audit log) and when (milliseconds; defaults to now). */
export interface OperatorAction {
  operator: string;
  now?: number;
}

export const audited = (action: OperatorAction) => ({ operator: action.operator, at: action.now ?? Date.now() });

const fail = (key: MessageKey, field: string) => new BusinessError(key, { field });

/** A title on one line: whitespace (line breaks too) collapsed. */
const cleanTitle = (title: string): string => title.replace(/\s+/g, ' ').trim();

/**
 * A body as stored: Unix line ends, no control characters but line breaks and tabs, no trailing spaces on a line,
 * at most one blank line between paragraphs, nothing around.
 */
const cleanBody = (body: string): string =>
  body
    .replace(/\r\n?/g, '\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

function checkTitle(lang: Lang, raw: string | undefined): string {
  const title = cleanTitle(raw ?? '');
  if (title === '') throw fail('helpTitleRequired', `${lang}.title`);
  if (title.length > TEXT_TITLE_MAX) throw fail('helpTitleTooLong', `${lang}.title`);
  return title;
}

function checkBody(lang: Lang, raw: string | undefined): string {
  const body = cleanBody(raw ?? '');
  if (body === '') throw fail('helpBodyRequired', `${lang}.body`);
  if (body.length > TEXT_BODY_MAX) throw fail('helpBodyTooLong', `${lang}.body`);
  return body;
}

/** The languages given, each one the policy offers, in the policy's order. */
function langsOf<L extends Lang>(policy: TextPolicy<L>, texts: Readonly<Record<string, unknown>>): L[] {
  for (const lang of Object.keys(texts)) {
    if (!(policy.langs as readonly string[]).includes(lang)) throw fail(policy.langNotOffered, lang);
  }
  return policy.langs.filter((l) => texts[l] !== undefined);
}

/** The first required language (German, English) that `langs` lacks. */
const missingRequired = (langs: readonly Lang[]): Lang | undefined =>
  REQUIRED_TEXT_LANGS.find((l) => !langs.includes(l));

/** Refuses to publish texts without a German and an English one. */
export function checkPublishable(texts: StoredTexts | readonly Lang[]): void {
  const langs = Array.isArray(texts) ? (texts as readonly Lang[]) : (Object.keys(texts) as Lang[]);
  const missing = missingRequired(langs);
  if (missing) throw fail('helpTextsMissing', `${missing}.title`);
}

/** The checked texts of a new publication (at least one; both required ones when it is published at once). */
export function checkNewTexts<L extends Lang>(
  policy: TextPolicy<L>,
  input: Readonly<Record<string, TextInput>>,
  published: boolean,
): { lang: L; title: string; body: string }[] {
  const texts = langsOf(policy, input).map((lang) => {
    const given = input[lang];
    return { lang, title: checkTitle(lang, given?.title), body: checkBody(lang, given?.body) };
  });
  if (texts.length === 0) throw fail('helpTitleRequired', 'de.title');
  if (published) checkPublishable(texts.map((t) => t.lang));
  return texts;
}

/** The checked parts of an edit's texts: a language may change only its title or only its body. */
export function checkTextPatch<L extends Lang>(
  policy: TextPolicy<L>,
  patch: Readonly<Record<string, Partial<TextInput>>>,
): { lang: L; title: string | undefined; body: string | undefined }[] {
  return langsOf(policy, patch).map((lang) => {
    const t = patch[lang] ?? {};
    return {
      lang,
      title: t.title === undefined ? undefined : checkTitle(lang, t.title),
      body: t.body === undefined ? undefined : checkBody(lang, t.body),
    };
  });
}

export interface TextWrite<L extends Lang> extends TextInput {
  lang: L;
  isNew: boolean;
}

/**
 * What an edit writes: the languages whose title or body differs (a new language needs both), and the audit detail
 * of each (`<lang>.text`: before and after).
 */
export function textWrites<L extends Lang>(
  before: StoredTexts<L>,
  given: ReturnType<typeof checkTextPatch<L>>,
): { writes: TextWrite<L>[]; changes: Record<string, { before: unknown; after: unknown }> } {
  const writes: TextWrite<L>[] = [];
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const g of given) {
    const old = before[g.lang];
    const title = g.title ?? old?.title ?? checkTitle(g.lang, undefined);
    const body = g.body ?? old?.body ?? checkBody(g.lang, undefined);
    if (old && old.title === title && old.body === body) continue;
    writes.push({ lang: g.lang, title, body, isNew: !old });
    changes[`${g.lang}.text`] = { before: old ? { title: old.title, body: old.body } : null, after: { title, body } };
  }
  return { writes, changes };
}

/** Each language's title (null when missing), for an audit entry. */
export const titlesOf = <L extends Lang>(texts: StoredTexts<L>, langs: readonly L[]) =>
  Object.fromEntries(langs.map((l) => [l, texts[l]?.title ?? null]));

/** Text rows grouped by their publication: id → texts by language. */
export function groupTexts<L extends Lang>(
  rows: readonly ({ owner: number; lang: L } & StoredText)[],
): Map<number, StoredTexts<L>> {
  const byOwner = new Map<number, StoredTexts<L>>();
  for (const { owner, lang, title, body, updated_at } of rows) {
    const texts: StoredTexts<L> = byOwner.get(owner) ?? {};
    texts[lang] = { title, body, updated_at };
    byOwner.set(owner, texts);
  }
  return byOwner;
}

/** The text a reader in `lang` gets: theirs, else English, else German; undefined when there is none of them. */
export function pickText<L extends Lang>(texts: StoredTexts<L>, lang: Lang): (StoredText & { lang: L }) | undefined {
  const chosen = pickTextLang(lang, Object.keys(texts) as L[]);
  const text = chosen === undefined ? undefined : texts[chosen];
  return chosen === undefined || !text ? undefined : { ...text, lang: chosen };
}

/**
 * What a search compares: the text in Unicode compatibility form, lowercased, whitespace collapsed. Done here, not in
 * SQL, because SQLite's lower() and LIKE fold ASCII only and PostgreSQL's LIKE folds nothing: "Überweisung" must be
 * found by "überweisung" on both.
 */
export const searchFold = (text: string): string => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** The stored search text of one language's title and body (a newline never occurs in a folded query). */
export const searchText = (title: string, body: string): string => `${searchFold(title)}\n${searchFold(body)}`;

/** A LIKE pattern that finds `query` literally anywhere: `\`, `%` and `_` escaped with `\` (use with ESCAPE '\'). */
export const containsPattern = (query: string): string => `%${searchFold(query).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `column LIKE pattern ESCAPE '\'`: the same meaning on SQLite and PostgreSQL. */
export const likeLiteral = (column: string, query: string) =>
  sql<boolean>`${sql.ref(column)} like ${containsPattern(query)} escape '\\'`;
