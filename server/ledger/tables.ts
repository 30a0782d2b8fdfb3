import type { Generated, Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import type { LedgerAccountType, LedgerBook } from './kinds';

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

/** A currency the ledger keeps besides the static coins: a coin listed at run time (migration 0026). */
export interface LedgerCurrenciesTable {
  symbol: string;
  /** Its decimals: amounts of it are integers of 10^-scale. */
  scale: number;
  created_at: number;
}

/** One applied request: the unit of idempotency (user_id + request_id) and the parent of its postings. Append-only. */
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

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type LedgerTables = {
  ledger_accounts: LedgerAccountsTable;
  ledger_currencies: LedgerCurrenciesTable;
  ledger_entries: LedgerEntriesTable;
  ledger_postings: LedgerPostingsTable;
  ledger_holds: LedgerHoldsTable;
};

export type LedgerDb = Kysely<Database & LedgerTables>;

/** The app's database (or a transaction) seen with these tables, typed here beside the code that owns them. */
export const withLedger = (db: Kysely<Database>): LedgerDb => db.withTables<LedgerTables>();
