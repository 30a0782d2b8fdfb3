import { sql } from 'kysely';
import { HELP_TOPICS } from '../../../protocol/help';

export { likeLiteral, searchText } from '../../platform/published-texts';

/** The topic's place in HELP_TOPICS, for ordering in SQL (constants, written as literals). */
export const topicRank = (column: string) =>
  sql<number>`case ${sql.ref(column)} ${sql.join(
    HELP_TOPICS.map((t, i) => sql`when ${sql.lit(t)} then ${sql.lit(i)}`),
    sql` `,
  )} else ${sql.lit(HELP_TOPICS.length)} end`;
