import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

export type OptionContractRowState = 'waiting' | 'running' | 'won' | 'lost' | 'flat' | 'refunded' | 'cancelled';

/** An option contract (server/domains/options): the stake is a ledger hold, amounts are minor units. */
export interface OptionContractsTable {
  id: Generated<number>;
  user_id: number;
  book: 'real' | 'simulator';
  symbol: string;
  direction: 'up' | 'down';
  seconds: number;
  ratio: string;
  currency: string;
  stake: number;
  hold_id: number;
  state: OptionContractRowState;
  entry_seq: number | null;
  entry_ts: number | null;
  entry_price: string | null;
  expiry_ts: number | null;
  exit_seq: number | null;
  exit_ts: number | null;
  exit_price: string | null;
  payout: number | null;
  request_id: string;
  request_digest: string;
  accepted_at: number;
  settled_at: number | null;
  created_at: number;
  updated_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type OptionsTables = {
  option_contracts: OptionContractsTable;
};

export type OptionsDb = Kysely<Database & OptionsTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withOptions = (db: Kysely<Database>): OptionsDb => db.withTables<OptionsTables>();
