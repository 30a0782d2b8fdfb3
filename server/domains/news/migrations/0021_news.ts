import { type Kysely, sql } from 'kysely';
import type { DialectKind } from '../../../platform/db/connect';
import { type DomainMigration, withId } from '../../../platform/db/migration-kit';

/** News and announcements, their texts per language, and which user opened which. Shipped: never edit, add a new one. */
export const migration0021: DomainMigration = {
  name: '0021_news',
  async up(db: Kysely<unknown>, kind: DialectKind) {
    // An article as the operators keep it (every change audited). `published` is 0 or 1; a published article has a
    // German and an English text (the service checks this in the transaction that publishes it).
    await db.schema
      .createTable('news_articles')
      .$call(withId(kind))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('published', 'integer', (c) => c.notNull())
      .addColumn('published_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('news_articles_kind', sql`kind in ('news', 'announcement')`)
      .addCheckConstraint('news_articles_published', sql`published in (0, 1)`)
      .execute();
    // Readers page newest first, optionally by kind.
    await db.schema
      .createIndex('news_articles_shown')
      .on('news_articles')
      .columns(['published', 'kind', 'published_at', 'id'])
      .execute();
    await db.schema
      .createTable('news_article_texts')
      .addColumn('article_id', 'integer', (c) => c.notNull().references('news_articles.id'))
      .addColumn('lang', 'varchar(2)', (c) => c.notNull())
      .addColumn('title', 'varchar(120)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('news_article_texts_pk', ['article_id', 'lang'])
      .addCheckConstraint('news_article_texts_lang', sql`lang in ('de', 'en', 'ja', 'ko', 'es', 'th', 'zh')`)
      .execute();
    // One row per user and article they opened; removed with the article.
    await db.schema
      .createTable('news_reads')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('article_id', 'integer', (c) => c.notNull().references('news_articles.id'))
      .addColumn('read_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('news_reads_pk', ['user_id', 'article_id'])
      .execute();
  },
};
