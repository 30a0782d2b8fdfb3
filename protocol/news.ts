import { z } from 'zod/mini';
import { call } from './call-spec';
import { RECORD_ID_MAX, recordIdField } from './fields';
import { ALL_LANGS } from './lang';

/**
 * News and announcements (SPEC 2 notice/index and index/notice/notice, SPEC 7 news/list, news/announcement,
 * news/detail). Operators write them (support console, ops CLI) in any of the seven languages, German and English
 * needed to publish (protocol/published-texts.ts); everyone may read the published ones, without a session, in their
 * language, else English, else German. A logged-in reader's opened articles are marked read on the server, per user.
 */

export const NEWS_KINDS = ['news', 'announcement'] as const;
export type NewsKind = (typeof NEWS_KINDS)[number];
export const isNewsKind = (v: unknown): v is NewsKind =>
  typeof v === 'string' && (NEWS_KINDS as readonly string[]).includes(v);

/** News may be written in every interface language. */
export const NEWS_TEXT_LANGS = ALL_LANGS;

/** One page of news/list at most (and by default). */
export const NEWS_PAGE_MAX = 50;
export const NEWS_PAGE_DEFAULT = 20;
/** How many announcements news/announcement gives (the home page's strip). */
export const NEWS_ANNOUNCEMENTS = 5;

/**
 * Where a page of news/list continues: the last article's publication time and id (newest first, so an article
 * published while a reader pages is never shown twice).
 */
export const newsCursor = (a: { published_at: number; id: number }): string => `${a.published_at}.${a.id}`;
const CURSOR_RE = /^(\d{1,15})\.([1-9]\d{0,9})$/;
export function parseNewsCursor(raw: string): { publishedAt: number; id: number } | null {
  const m = CURSOR_RE.exec(raw);
  if (!m?.[1] || !m[2]) return null;
  const id = Number(m[2]);
  return id <= RECORD_ID_MAX ? { publishedAt: Number(m[1]), id } : null;
}

/** Optional form text: left out or empty reads as not given. */
const kindField = z.optional(
  z.pipe(
    z.string({ error: 'newsKindInvalid' }).check(
      z.trim(),
      z.refine((v) => v === '' || isNewsKind(v), { error: 'newsKindInvalid' }),
    ),
    z.transform((v) => (v === '' ? undefined : (v as NewsKind))),
  ),
);
const cursorField = z.optional(
  z.pipe(
    z.string({ error: 'invalidInput' }).check(
      z.trim(),
      z.refine((v) => v === '' || parseNewsCursor(v) !== null, { error: 'invalidInput' }),
    ),
    z.transform((v) => (v === '' ? undefined : v)),
  ),
);
const limitField = (max: number) =>
  z.optional(
    z.pipe(
      z.pipe(
        z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,3}$/, { error: 'invalidInput' })),
        z.transform(Number),
      ),
      z.number().check(z.int(), z.gte(1, { error: 'invalidInput' }), z.lte(max, { error: 'invalidInput' })),
    ),
  );

/** news/list: published articles newest first, optionally of one kind, a page at a time from `cursor`. */
export const newsListRequest = z.object({ kind: kindField, cursor: cursorField, limit: limitField(NEWS_PAGE_MAX) });
export type NewsListRequest = z.input<typeof newsListRequest>;

/** One article in a list: its title and the start of its body, in `lang`. */
export const newsSummary = z.object({
  id: z.number().check(z.int()),
  kind: z.enum(NEWS_KINDS),
  title: z.string(),
  excerpt: z.string(),
  /** The language of the title and the excerpt (a reader in Thai may read English ones). */
  lang: z.enum(NEWS_TEXT_LANGS),
  published_at: z.number().check(z.int()),
  /** Whether the logged-in reader opened it; null without a session. */
  read: z.nullable(z.boolean()),
});
export type NewsSummary = z.infer<typeof newsSummary>;
export const newsListResponse = z.object({
  items: z.array(newsSummary),
  /** The next page's cursor; null on the last page. */
  next_cursor: z.nullable(z.string()),
});
export type NewsList = z.infer<typeof newsListResponse>;

/** news/announcement: the latest published announcements (at most NEWS_ANNOUNCEMENTS), with read flags. */
export const newsAnnouncementResponse = z.object({
  items: z.array(newsSummary),
  /** How many of them the logged-in reader has not opened; null without a session. */
  unread: z.nullable(z.number().check(z.int())),
});
export type NewsAnnouncements = z.infer<typeof newsAnnouncementResponse>;

export const newsDetailRequest = z.object({ id: recordIdField });

/** news/detail: one published article (plain text, paragraphs separated by blank lines); opening it marks it read. */
export const newsArticle = z.object({
  id: z.number().check(z.int()),
  kind: z.enum(NEWS_KINDS),
  title: z.string(),
  body: z.string(),
  lang: z.enum(NEWS_TEXT_LANGS),
  published_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
  read: z.nullable(z.boolean()),
});
export type NewsArticle = z.infer<typeof newsArticle>;

export const newsCalls = {
  'news/list': call('POST', false, newsListRequest, newsListResponse),
  'news/announcement': call('POST', false, z.object({}), newsAnnouncementResponse),
  'news/detail': call('POST', false, newsDetailRequest, newsArticle),
} as const;
