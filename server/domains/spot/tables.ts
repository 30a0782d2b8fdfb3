import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

export type SpotOrderRowState = 'waiting' | 'pending' | 'completed' | 'cancelled';

/** A spot order (server/domains/spot): amounts as exact decimal strings, money in the ledger. */
export interface SpotOrdersTable {
  id: Generated<number>;
  user_id: number;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  mode: 'quantity' | 'amount';
  qty: string | null;
  amount: string | null;
  price: string | null;
  fee_rate: string;
  price_band: string;
  hold_id: number;
  /** Minor units held: USDT for a buy, the coin for a sell. */
  held: number;
  state: SpotOrderRowState;
  cancel_reason: 'user' | 'no_tick' | 'price_band' | null;
  request_id: string;
  request_digest: string;
  accepted_at: number;
  fill_seq: number | null;
  fill_ts: number | null;
  fill_price: string | null;
  fill_qty: string | null;
  fill_value: string | null;
  fill_fee: string | null;
  fill_total: string | null;
  filled_at: number | null;
  created_at: number;
  updated_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type SpotTables = {
  spot_orders: SpotOrdersTable;
};

export type SpotDb = Kysely<Database & SpotTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withSpot = (db: Kysely<Database>): SpotDb => db.withTables<SpotTables>();
