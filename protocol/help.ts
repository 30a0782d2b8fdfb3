import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { recordIdField } from './fields';
import { type Lang, OFFERED_LANGS } from './lang';
import {
  pickTextLang,
  TEXT_BODY_MAX,
  TEXT_EXCERPT_MAX,
  TEXT_TITLE_MAX,
  textExcerpt,
  textParagraphs,
} from './published-texts';

/**
 * The help centre's articles (SPEC 1 "help centre", 2 help/center/center and detail). Operators write them (the ops
 * CLI, later a console); everyone may read the published ones, without a session. Every article has a title and a
 * body in each offered language (SPEC 9: German and English); a reader in another language reads the English text.
 * Bodies are plain text whose paragraphs are separated by blank lines: never HTML, and the client renders them as
 * text.
 */

/** The topics an article belongs to, in the order the help centre shows them. */
export const HELP_TOPICS = ['account', 'deposit', 'withdrawal', 'trading', 'c2c', 'security', 'other'] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];
export const isHelpTopic = (v: unknown): v is HelpTopic =>
  typeof v === 'string' && (HELP_TOPICS as readonly string[]).includes(v);

/** The languages an article is written in: the offered ones. A published article has both. */
export const HELP_TEXT_LANGS = OFFERED_LANGS;
export type HelpTextLang = (typeof HELP_TEXT_LANGS)[number];
export const isHelpTextLang = (v: unknown): v is HelpTextLang =>
  typeof v === 'string' && (HELP_TEXT_LANGS as readonly string[]).includes(v);

/**
 * The text a reader in `lang` gets (published-texts' fallback over German and English): German for German (and for a
 * request without a known language, which the server already reads as German), English for everyone else.
 */
export const helpTextLang = (lang: Lang): HelpTextLang => pickTextLang(lang, HELP_TEXT_LANGS) ?? 'en';

/** Longest search text (after trimming). */
export const HELP_QUERY_MAX = 100;
export const HELP_TITLE_MAX = TEXT_TITLE_MAX;
export const HELP_BODY_MAX = TEXT_BODY_MAX;
/** Sort order within a topic: 0 to this, smaller first. */
export const HELP_ORDER_MAX = 9_999;
/** Most articles one list answer holds (a help centre has dozens, not thousands). */
export const HELP_LIST_MAX = 200;
/** Longest excerpt of a body in the list. */
export const HELP_EXCERPT_MAX = TEXT_EXCERPT_MAX;

/** A body's paragraphs (published-texts: split at blank lines). */
export const helpParagraphs = textParagraphs;

/** The list's preview of a body: its first paragraph on one line, cut at a word with "…". */
export const helpExcerpt = textExcerpt;

/** Optional form text: left out or empty reads as not given. */
const topicField = z.optional(
  z.pipe(
    z.string({ error: 'helpTopicInvalid' }).check(
      z.trim(),
      z.refine((v) => v === '' || isHelpTopic(v), { error: 'helpTopicInvalid' }),
    ),
    z.transform((v) => (v === '' ? undefined : (v as HelpTopic))),
  ),
);
const queryField = z.optional(
  z.pipe(
    z.string({ error: 'invalidInput' }).check(z.trim(), z.maxLength(HELP_QUERY_MAX, { error: 'helpQueryTooLong' })),
    z.transform((v) => (v === '' ? undefined : v)),
  ),
);

export const helpTopicCount = z.object({ topic: z.enum(HELP_TOPICS), count: z.number().check(z.int(), z.gte(1)) });
export type HelpTopicCount = z.infer<typeof helpTopicCount>;
/** help/topics: the topics that have published articles, in HELP_TOPICS order, with how many each has. */
export const helpTopicsResponse = z.object({ topics: z.array(helpTopicCount) });
export type HelpTopics = z.infer<typeof helpTopicsResponse>;

/**
 * help/list: the published articles, optionally of one topic, optionally only those whose title or body (in the
 * reader's language) contains `q`, case-insensitively and literally (`%` and `_` are plain characters). Ordered by
 * topic, then sort order.
 */
export const helpListRequest = z.object({ topic: topicField, q: queryField });
export type HelpListRequest = z.input<typeof helpListRequest>;

/** One article in the list: its title and the start of its body, in `lang`. */
export const helpArticleSummary = z.object({
  id: z.number().check(z.int()),
  topic: z.enum(HELP_TOPICS),
  title: z.string(),
  excerpt: z.string(),
  /** The language of the title and the excerpt (a reader in Japanese reads English ones). */
  lang: z.enum(HELP_TEXT_LANGS),
  updated_at: z.number().check(z.int()),
});
export type HelpArticleSummary = z.infer<typeof helpArticleSummary>;
export const helpListResponse = z.object({ articles: z.array(helpArticleSummary) });
export type HelpList = z.infer<typeof helpListResponse>;

export const helpDetailRequest = z.object({ id: recordIdField });

/** help/detail: one published article; its body is plain text, paragraphs separated by blank lines. */
export const helpArticle = z.object({
  id: z.number().check(z.int()),
  topic: z.enum(HELP_TOPICS),
  title: z.string(),
  body: z.string(),
  lang: z.enum(HELP_TEXT_LANGS),
  updated_at: z.number().check(z.int()),
});
export type HelpArticle = z.infer<typeof helpArticle>;

export const helpCalls = {
  'help/topics': call('GET', false, none, helpTopicsResponse),
  'help/list': call('GET', false, helpListRequest, helpListResponse),
  'help/detail': call('GET', false, helpDetailRequest, helpArticle),
} as const;
