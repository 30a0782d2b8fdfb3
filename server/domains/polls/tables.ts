import type { Generated, Kysely } from 'kysely';
import type { PollKind } from '../../../protocol/polls';
import type { Database } from '../../platform/db/schema';

/** A listing poll (migration 0023). Times are the server's milliseconds. */
export interface PollsTable {
  id: Generated<number>;
  kind: PollKind;
  opens_at: number;
  closes_at: number;
  /** Set when an operator closed the poll before `closes_at`. */
  closed_at: number | null;
  created_at: number;
}

/** One coin a poll offers. */
export interface PollOptionsTable {
  id: Generated<number>;
  poll_id: number;
  symbol: string;
  name: string;
  sort_order: number;
}

/** One user's vote in one poll (unique per poll and user; the database refuses edits and deletes). */
export interface PollVotesTable {
  id: Generated<number>;
  poll_id: number;
  option_id: number;
  user_id: number;
  voted_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type PollTables = {
  polls: PollsTable;
  poll_options: PollOptionsTable;
  poll_votes: PollVotesTable;
};

/**
 * The app's database seen with this module's tables. They are typed here, beside the module that owns them, rather
 * than in the shared schema file; the instance (and a transaction's connection) is the same one.
 */
export const withPolls = (db: Kysely<Database>) => db.withTables<PollTables>();

/** The largest id an `integer` column holds: a larger one names no row. */
export { RECORD_ID_MAX as ID_MAX } from '../../../protocol/fields';
