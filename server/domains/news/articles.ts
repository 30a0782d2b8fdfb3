import { type Kysely, sql } from 'kysely';
import type { Lang } from '../../../protocol/lang';
import { isNewsKind, NEWS_TEXT_LANGS, type NewsKind } from '../../../protocol/news';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import {
  createPublication,
  deletePublication,
  type OperatorAction,
  type Publication,
  publishPublication,
  type TextInput,
  tableStore,
  updatePublication,
} from '../../platform/published-texts';

/**
 * The operators' side of news and announcements: write, edit, publish, take back and delete them, and read them all
 * (drafts too). The writes are published-texts' (one transaction with the audit entry `news_article.*` under the
 * operator's name; German and English needed to publish, the other five languages optional); this module adds the
 * kind, and a deletion takes the readers' read marks with it.
 */

export interface NewsArticleInput {
  kind: string;
  /** Texts by language (any of the seven); a published article needs German and English. */
  texts: Readonly<Record<string, TextInput>>;
  /** Publish at once (default false: a draft). */
  published?: boolean;
}

/** What an edit changes; a text may change only its title or only its body. */
export interface NewsArticlePatch {
  kind?: string;
  texts?: Readonly<Record<string, Partial<TextInput>>>;
}

export type NewsArticleForOps = Publication<Lang, { kind: NewsKind }>;

function checkKind(kind: string): NewsKind {
  const k = kind.trim();
  if (!isNewsKind(k)) throw new BusinessError('newsKindInvalid', { field: 'kind' });
  return k;
}

/** News' tables for published-texts' writes; a deletion takes the readers' read marks with it. */
const STORE = tableStore<Lang, { kind: NewsKind }>({
  subject: 'news_article',
  policy: { langs: NEWS_TEXT_LANGS, langNotOffered: 'newsLangNotOffered' },
  notFound: 'newsNotFound',
  table: 'news_articles',
  textsTable: 'news_article_texts',
  fields: ['kind'],
  dependents: ['news_reads'],
});

/** Every given article's texts, by article id (only the languages in `langs` when given). */
export const newsTextsOf = (db: Kysely<Database>, ids: readonly number[], langs?: readonly Lang[]) =>
  STORE.textsOf(db, ids, langs);

/** Every article, drafts too, newest first (by when they were written). */
export const listNewsForOps = (db: Kysely<Database>): Promise<NewsArticleForOps[]> =>
  STORE.all(db, sql`created_at desc, id desc`);

/** One article, draft or published; undefined when there is none. */
export const getNewsForOps = (db: Kysely<Database>, id: number): Promise<NewsArticleForOps | undefined> =>
  STORE.find(db, id, false);

/** A new article with its texts; a draft unless `published` (which needs German and English). */
export async function createNews(
  db: Kysely<Database>,
  input: NewsArticleInput,
  action: OperatorAction,
): Promise<NewsArticleForOps> {
  const fields = { kind: checkKind(input.kind) };
  return createPublication(db, STORE, { fields, texts: input.texts, published: input.published === true }, action);
}

/** Changes an article's kind or texts; only what differs is written and audited (`changed: false`: nothing did). */
export async function updateNews(
  db: Kysely<Database>,
  id: number,
  patch: NewsArticlePatch,
  action: OperatorAction,
): Promise<{ article: NewsArticleForOps; changed: boolean }> {
  const fields = { kind: patch.kind === undefined ? undefined : checkKind(patch.kind) };
  const { item, changed } = await updatePublication(db, STORE, id, { fields, texts: patch.texts ?? {} }, action);
  return { article: item, changed };
}

/** Publishes an article (it needs German and English) or takes it back to a draft (readers then cannot find it). */
export async function setNewsPublished(
  db: Kysely<Database>,
  id: number,
  published: boolean,
  action: OperatorAction,
): Promise<{ article: NewsArticleForOps; changed: boolean }> {
  const { item, changed } = await publishPublication(db, STORE, id, published, action);
  return { article: item, changed };
}

/** Removes an article, its texts and its read marks; the audit entry keeps what it said. */
export const deleteNews = (db: Kysely<Database>, id: number, action: OperatorAction): Promise<void> =>
  deletePublication(db, STORE, id, action);
