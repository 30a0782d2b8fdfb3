import type { Generated, Insertable, Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';

/** Every published price, so a settlement can be checked against the feed later (DESIGN "Fair outcomes"). */
export interface PriceTicksTable {
  id: Generated<number>;
  instrument_id: number;
  symbol: string;
  /** Server ms of the price. */
  ts: number;
  /** Exact decimal string, as published. */
  price: string;
  /** The feed's per-instrument sequence number. */
  seq: number;
  /** The price_batches row that seals it; null until sealed (a tick pinned before the recorder flushed it). */
  batch_id: number | null;
}

/** One link of the price record's hash chain (protocol/rules/price-record.ts): the ticks of one recorder flush. */
export interface PriceBatchesTable {
  /** The batch number: 1, 2, 3 ... without gaps. */
  id: number;
  from_ts: number;
  to_ts: number;
  tick_count: number;
  /** Hex sha256 of the batch's ticks; hash = sha256(prev_hash + '\n' + digest). */
  digest: string;
  prev_hash: string;
  hash: string;
  created_at: number;
}

/** A tick that an order or settlement uses (`owner`, e.g. 'spot:123'): its batch outlives the retention. */
export interface PricePinsTable {
  symbol: string;
  seq: number;
  owner: string;
}

/** A coin listed while the market runs (server/market/listing): its instrument, as every process serves it. */
export interface ListedCoinsTable {
  /** The instrument id (1000 and up), chosen by listCoin. */
  id: number;
  symbol: string;
  name: string;
  price_scale: number;
  qty_scale: number;
  /** Decimal text on the tick (price_scale decimals). */
  start_price: string;
  /** The walk's parameters as decimal text (server/market/listing/coins.ts). */
  sigma_per_minute: string;
  trade_size: string;
  listed_at: number;
  created_at: number;
}

export type NewPriceTick = Insertable<PriceTicksTable>;

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type PriceRecordTables = {
  price_ticks: PriceTicksTable;
  price_batches: PriceBatchesTable;
  price_pins: PricePinsTable;
  listed_coins: ListedCoinsTable;
};

export type PriceRecordDb = Kysely<Database & PriceRecordTables>;

/** The app's database (or a transaction) seen with these tables, typed here beside the code that owns them. */
export const withPriceRecord = (db: Kysely<Database>): PriceRecordDb => db.withTables<PriceRecordTables>();
