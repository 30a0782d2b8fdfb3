import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

export type LeverPhaseRow = 'waiting' | 'pending' | 'holding' | 'closing' | 'closed' | 'cancelled';

/** One lever order and the position it opens (server/domains/lever). Money is minor units of USDT. */
export interface LeverPositionsTable {
  id: Generated<number>;
  user_id: number;
  book: 'real' | 'simulator';
  symbol: string;
  side: 'long' | 'short';
  margin_mode: 'isolated' | 'cross';
  order_type: 'market' | 'limit';
  lots: number;
  contract_size: string;
  leverage: number;
  mmr: string;
  fee_rate: string;
  price_scale: number;
  limit_price: string | null;
  tp_price: string | null;
  sl_price: string | null;
  phase: LeverPhaseRow;
  version: number;
  reserve: number;
  reserve_hold_id: number | null;
  margin: number | null;
  added_margin: number;
  margin_hold_id: number | null;
  open_fee: number | null;
  close_fee: number | null;
  realized_pnl: number | null;
  insurance: number | null;
  liq_price: string | null;
  entry_seq: number | null;
  entry_ts: number | null;
  entry_price: string | null;
  exit_seq: number | null;
  exit_ts: number | null;
  exit_price: string | null;
  close_reason: 'user' | 'take_profit' | 'stop_loss' | 'liquidation' | null;
  cancel_reason: 'user' | 'no_tick' | 'insufficient_margin' | null;
  request_id: string;
  request_digest: string;
  /** Ticks after this time are judged by the row's current terms (its version). */
  terms_since: number;
  accepted_at: number;
  opened_at: number | null;
  close_requested_at: number | null;
  closed_at: number | null;
  created_at: number;
  updated_at: number;
  /** Partial closes (migration 0027_lever_parts): see there. All null on rows written before them. */
  close_lots: number | null;
  close_request_id: string | null;
  part_of: number | null;
  opened_lots: number | null;
  earlier_parts: string | null;
  basis_lots: number | null;
  basis_margin: number | null;
  basis_added_margin: number | null;
  basis_open_fee: number | null;
  /** Reverses (migration 0029_lever_reverse): see there. Null on rows written before them. */
  reverse_request_id: string | null;
  reversed_from: number | null;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type LeverTables = {
  lever_positions: LeverPositionsTable;
};

export type LeverDb = Kysely<Database & LeverTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withLever = (db: Kysely<Database>): LeverDb => db.withTables<LeverTables>();
