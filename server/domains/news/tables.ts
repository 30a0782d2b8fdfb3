import type { Generated, Kysely } from 'kysely';
import type { Lang } from '../../../protocol/lang';
import type { NewsKind } from '../../../protocol/news';
import type { Database } from '../../platform/db/schema';

/** A news item or announcement (migration 0021); its title and body per language are rows of news_article_texts. */
export interface NewsArticlesTable {
  id: Generated<number>;
  kind: NewsKind;
  /** 1 when readers see it (it then has a German and an English text), else 0. */
  published: number;
  published_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One language's text of an article: plain text, paragraphs separated by blank lines. */
export interface NewsArticleTextsTable {
  article_id: number;
  lang: Lang;
  title: string;
  body: string;
  updated_at: number;
}

/** A user opened an article (news/detail). */
export interface NewsReadsTable {
  user_id: number;
  article_id: number;
  read_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type NewsTables = {
  news_articles: NewsArticlesTable;
  news_article_texts: NewsArticleTextsTable;
  news_reads: NewsReadsTable;
};

export type NewsDb = Kysely<Database & NewsTables>;

/** The app's database seen with this module's tables (typed here, beside the module that owns them). */
export const withNews = (db: Kysely<Database>): NewsDb => db.withTables<NewsTables>();
