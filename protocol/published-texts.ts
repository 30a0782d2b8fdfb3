import { z } from 'zod/mini';
import { ALL_LANGS, type Lang } from './lang';

/**
 * Texts that operators publish in several languages (help articles, news and announcements): a title and a plain-text
 * body per language, paragraphs separated by blank lines, never HTML. German and English are needed to publish; a
 * reader gets their own language, else English, else German. Shared by the server (which stores and picks the texts)
 * and the client (which renders them and edits them in the console).
 */

export const TEXT_TITLE_MAX = 120;
export const TEXT_BODY_MAX = 20_000;
/** Longest excerpt of a body in a list. */
export const TEXT_EXCERPT_MAX = 160;
/** The languages every published text has. */
export const REQUIRED_TEXT_LANGS = ['de', 'en'] as const satisfies readonly Lang[];

/** The languages to try for a reader in `lang`, best first: their own, then English, then German. */
export const textFallback = (lang: Lang): Lang[] => [...new Set<Lang>([lang, 'en', 'de'])];

/** The language of the text a reader in `lang` gets, of the languages `available`; undefined when none fits. */
export function pickTextLang<L extends Lang>(lang: Lang, available: readonly L[]): L | undefined {
  return textFallback(lang).find((l): l is L => (available as readonly Lang[]).includes(l));
}

/** A body's paragraphs: split at blank lines (lines holding only spaces count as blank); line breaks inside stay. */
export function textParagraphs(body: string): string[] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** A list's preview of a body: its first paragraph on one line, cut at a word before `max` with "…". */
export function textExcerpt(body: string, max = TEXT_EXCERPT_MAX): string {
  const first = (textParagraphs(body)[0] ?? '').replace(/\s+/g, ' ').trim();
  if (first.length <= max) return first;
  const cut = first.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?–-]+$/, '')}…`;
}

/** One language's text as operators see it. */
export const opsText = z.object({ title: z.string(), body: z.string(), updated_at: z.number().check(z.int()) });

/** Operators' view of the texts in `langs`: each may be missing in a draft. */
export const opsTexts = <L extends Lang>(langs: readonly L[]) =>
  z.object(
    Object.fromEntries(langs.map((l) => [l, z.optional(opsText)])) as Record<L, z.ZodMiniOptional<typeof opsText>>,
  );

/** The form field of one language's title or body (`de.title`, `en.body`, ...). */
export type TextField<L extends Lang = Lang> = `${L}.${'title' | 'body'}`;

const optionalText = (max: number) => z.optional(z.string().check(z.maxLength(max, { error: 'tooLong' })));

/**
 * The form fields of the texts in `langs` as a console saves them: `de.title`, `de.body`, ... each optional (the
 * server checks what a save needs).
 */
export const textFormFields = <L extends Lang>(langs: readonly L[]) =>
  Object.fromEntries(
    langs.flatMap((l) => [
      [`${l}.title`, optionalText(TEXT_TITLE_MAX)],
      [`${l}.body`, optionalText(TEXT_BODY_MAX)],
    ]),
  ) as Record<TextField<L>, ReturnType<typeof optionalText>>;

/** Every interface language may carry a text of its own (news); the help centre keeps German and English. */
export const ANY_TEXT_LANGS = ALL_LANGS;
