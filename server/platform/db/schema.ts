import type { Generated, Insertable, Selectable } from 'kysely';
import type { Lang } from '../../../protocol';
import type { LedgerAccountType, LedgerBook } from './ledger-kinds';

/**
 * Table types for Kysely. Shared by SQLite and PostgreSQL, so: times are integer milliseconds
 * (bigint in PostgreSQL, read back as numbers), booleans would be 0/1 integers, ids are auto-increment integers.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lowercased. */
  email: string | null;
  /** Calling code digits without '+', e.g. '49'. */
  area_code: string | null;
  /** National number digits without trunk zero, e.g. '15112345678'. */
  mobile: string | null;
  /** `+<area_code><mobile>`: the unique form of the phone number, also the code address. */
  phone: string | null;
  password_hash: string;
  fund_password_hash: string | null;
  invite_code: string;
  /** User whose invite code was used; null when the platform code was used. */
  referrer_id: number | null;
  lang: Lang;
  created_at: number;
  last_login_at: number | null;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** One row per counted event; a limit counts the rows of its bucket inside its window. */
export interface RateLimitHitsTable {
  id: Generated<number>;
  bucket: string;
  at: number;
}

export interface PlatformSettingsTable {
  key: string;
  value: string;
}

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

/**
 * One ledger account: a user's (user_id set) or the platform's (user_id null), per book, type and currency.
 * balance and held are integer minor units (see server/ledger/amounts.ts), kept equal to the sums of the
 * account's postings and open holds; `balance - held` is what the user can spend.
 */
export interface LedgerAccountsTable {
  id: Generated<number>;
  user_id: number | null;
  book: LedgerBook;
  type: LedgerAccountType;
  currency: string;
  balance: number;
  held: number;
  created_at: number;
}

/** One applied request: the unit of idempotency (user_id + request_id) and the parent of its postings. Append-only. */
/** A currency the ledger keeps besides the static coins: a coin listed at run time (migration 0026). */
export interface LedgerCurrenciesTable {
  symbol: string;
  /** Its decimals: amounts of it are integers of 10^-scale. */
  scale: number;
  created_at: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  /** The client's id for the request, unique per user. */
  request_id: string;
  /** sha256 of the request's body, so a reused id with another body is told apart from a retry. */
  request_digest: string;
  memo: string | null;
  created_at: number;
}

/** A signed change of one account's balance; an entry's postings sum to zero per book and currency. Append-only. */
export interface LedgerPostingsTable {
  id: Generated<number>;
  entry_id: number;
  account_id: number;
  amount: number;
}

export type LedgerHoldState = 'open' | 'posted' | 'voided';
/** `principal`: a finance order's principal, held in the trust account while it runs. */
export type LedgerHoldKind =
  | 'withdrawal'
  | 'c2c_escrow'
  | 'ieo_payment'
  /** IEO coins credited at listing, locked until the project's unlock time. */
  | 'ieo_lock'
  | 'order'
  | 'margin'
  | 'principal';

/** Frozen funds of one account. Leaves `open` exactly once, to `posted` or `voided`. */
export interface LedgerHoldsTable {
  id: Generated<number>;
  account_id: number;
  kind: LedgerHoldKind;
  /** What the hold is for, in the caller's terms (a withdrawal id, an order number). */
  ref: string | null;
  amount: number;
  state: LedgerHoldState;
  /** The entry that placed it. */
  entry_id: number;
  resolved_entry_id: number | null;
  created_at: number;
  resolved_at: number | null;
}

/** One operator action (`npm run ops`); append-only. `detail` is JSON. */
export interface OpsAuditTable {
  id: Generated<number>;
  at: number;
  /** OPS_OPERATOR, else the OS user who ran the command. */
  operator: string;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: string;
}

/** A private event for one user, relayed to the sockets of that user. `payload` is JSON. */
export interface UserEventsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  payload: string;
  created_at: number;
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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  rate_limit_hits: RateLimitHitsTable;
  platform_settings: PlatformSettingsTable;
  price_ticks: PriceTicksTable;
  price_batches: PriceBatchesTable;
  price_pins: PricePinsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_currencies: LedgerCurrenciesTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
  ledger_holds: LedgerHoldsTable;
  ops_audit: OpsAuditTable;
  user_events: UserEventsTable;
  listed_coins: ListedCoinsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewPriceTick = Insertable<PriceTicksTable>;
