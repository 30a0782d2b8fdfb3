import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** The help centre's articles and their texts per language. Shipped: never edit, add a new migration. */
export const migration0018: DomainMigration = {
  name: '0018_help',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    // An article as the operators keep it (every change audited). `published` is 0 or 1; a published article has a
    // German and an English text (the service checks this in the transaction that publishes or edits it).
    await db.schema
      .createTable('help_articles')
      .$call(withId(kind))
      .addColumn('topic', 'varchar(16)', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull())
      .addColumn('published', 'integer', (c) => c.notNull())
      .addColumn('published_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint(
        'help_articles_topic',
        sql`topic in ('account', 'deposit', 'withdrawal', 'trading', 'c2c', 'security', 'other')`,
      )
      .addCheckConstraint('help_articles_published', sql`published in (0, 1)`)
      .addCheckConstraint('help_articles_sort_order', sql`sort_order >= 0 and sort_order <= 9999`)
      .execute();
    await db.schema
      .createIndex('help_articles_shown')
      .on('help_articles')
      .columns(['published', 'topic', 'sort_order'])
      .execute();
    // One text per article and language. `search` is title and body lowercased in code (SQLite's lower() and LIKE
    // fold ASCII only, PostgreSQL's LIKE folds nothing), so a search matches the same rows on both databases.
    await db.schema
      .createTable('help_article_texts')
      .addColumn('article_id', 'integer', (c) => c.notNull().references('help_articles.id'))
      .addColumn('lang', 'varchar(2)', (c) => c.notNull())
      .addColumn('title', 'varchar(120)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('search', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('help_article_texts_pk', ['article_id', 'lang'])
      .addCheckConstraint('help_article_texts_lang', sql`lang in ('de', 'en')`)
      .execute();
  },
};
