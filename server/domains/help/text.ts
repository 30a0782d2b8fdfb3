import { type Kysely, sql } from 'kysely';
import { HELP_TOPICS } from '../../../protocol/help';
import type { Database } from '../../platform/db/schema';

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

/** The topic's place in HELP_TOPICS, for ordering in SQL (constants, written as literals). */
export const topicRank = (column: string) =>
  sql<number>`case ${sql.ref(column)} ${sql.join(
    HELP_TOPICS.map((t, i) => sql`when ${sql.lit(t)} then ${sql.lit(i)}`),
    sql` `,
  )} else ${sql.lit(HELP_TOPICS.length)} end`;

/** Every article's texts, by article id. */
export async function textsOf(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, Awaited<ReturnType<typeof selectTexts>>>();
  const rows = await selectTexts(db, ids);
  const byArticle = new Map<number, typeof rows>();
  for (const row of rows) byArticle.set(row.article_id, [...(byArticle.get(row.article_id) ?? []), row]);
  return byArticle;
}

const selectTexts = (db: Kysely<Database>, ids: readonly number[]) =>
  db
    .selectFrom('help_article_texts')
    .select(['article_id', 'lang', 'title', 'body', 'updated_at'])
    .where('article_id', 'in', ids)
    .orderBy('article_id')
    .orderBy('lang')
    .execute();
