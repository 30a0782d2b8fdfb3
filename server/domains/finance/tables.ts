import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

/** A finance product (server/domains/finance); amounts are minor units of its currency. */
export interface FinanceProductsTable {
  id: Generated<number>;
  family: 'trust' | 'hosting';
  name: string;
  currency: string;
  cycle_days: number;
  daily_rate: string;
  min_amount: number;
  max_amount: number;
  penalty_kind: 'ratio' | 'interest_multiple';
  penalty_value: string;
  /** 1 while it sells, 0 when the operator stopped it. */
  on_sale: number;
  /** 1 when lh/send/get_recommend lists it. */
  recommended: number;
  created_at: number;
  updated_at: number;
}

/** A finance order: the principal is a ledger hold in the trust account; the terms are copied from the product. */
export interface FinanceOrdersTable {
  id: Generated<number>;
  user_id: number;
  product_id: number;
  family: 'trust' | 'hosting';
  name: string;
  currency: string;
  amount: number;
  daily_rate: string;
  cycle_days: number;
  penalty_kind: 'ratio' | 'interest_multiple';
  penalty_value: string;
  daily_interest: number;
  /** UTC day number of the first interest day. */
  start_day: number;
  days_paid: number;
  income: number;
  state: 'hosting' | 'completed' | 'redeemed';
  next_due_at: number | null;
  principal_hold_id: number;
  penalty: number | null;
  request_id: string;
  request_digest: string;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type FinanceTables = {
  finance_products: FinanceProductsTable;
  finance_orders: FinanceOrdersTable;
};

export type FinanceDb = Kysely<Database & FinanceTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withFinance = (db: Kysely<Database>): FinanceDb => db.withTables<FinanceTables>();
