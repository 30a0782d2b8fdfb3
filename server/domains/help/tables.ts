import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

/** A help centre article (server/domains/help); its title and body per language are rows of help_article_texts. */
export interface HelpArticlesTable {
  id: Generated<number>;
  topic: 'account' | 'deposit' | 'withdrawal' | 'trading' | 'c2c' | 'security' | 'other';
  sort_order: number;
  /** 1 when readers see it (it then has a German and an English text), else 0. */
  published: number;
  published_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One language's text of a help article: plain text, paragraphs separated by blank lines. */
export interface HelpArticleTextsTable {
  article_id: number;
  lang: 'de' | 'en';
  title: string;
  body: string;
  /** Title and body lowercased with whitespace collapsed: what a search matches, the same on both databases. */
  search: string;
  updated_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type HelpTables = {
  help_articles: HelpArticlesTable;
  help_article_texts: HelpArticleTextsTable;
};

export type HelpDb = Kysely<Database & HelpTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withHelp = (db: Kysely<Database>): HelpDb => db.withTables<HelpTables>();
