import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

/** A C2C merchant (server/domains/c2c): a user the operator marked as one; `active` 0 after removal. */
export interface C2cMerchantsTable {
  user_id: number;
  nickname: string;
  active: number;
  created_at: number;
  updated_at: number;
}

/** A merchant's C2C ad: price in 10^-6 fiat units, amounts in the coin's minor units, limits in cents. */
export interface C2cAdsTable {
  id: Generated<number>;
  merchant_id: number;
  coin: string;
  fiat: string;
  price: number;
  amount: number;
  /** Quantities of its orders in status 1 to 4; available = amount − taken. */
  taken: number;
  /** Quantities of its completed orders (deal volume). */
  sold: number;
  min_fiat: number;
  max_fiat: number;
  /** Comma-separated pay types (plain: the lists show them). */
  pay_types: string;
  /** The payment methods with their details, sealed under the data key (JSON). */
  pay_methods_enc: string;
  note: string;
  state: 'open' | 'closed';
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

/** A C2C order: the ad's terms it was placed under; its quantity held in escrow from the merchant (hold_id). */
export interface C2cOrdersTable {
  id: Generated<number>;
  ad_id: number;
  merchant_id: number;
  buyer_id: number;
  coin: string;
  fiat: string;
  price: number;
  quantity: number;
  amount: number;
  min_fiat: number;
  max_fiat: number;
  pay_type: string;
  /** The chosen payment method's details, sealed under the data key (JSON). */
  pay_info_enc: string;
  merchant_nickname: string;
  buyer_nickname: string;
  /** 1 paying, 2 paid, 3 completed, 4 appeal, 5 cancelled. */
  status: 1 | 2 | 3 | 4 | 5;
  hold_id: number | null;
  conversation_id: number | null;
  request_id: string;
  request_digest: string;
  created_at: number;
  pay_until: number;
  paid_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
  cancel_reason: 'buyer' | 'expired' | 'appeal' | null;
  appeal_by: 'buyer' | 'merchant' | null;
  appeal_reason: string | null;
  appeal_opened_at: number | null;
  appeal_decision: 'release' | 'cancel' | null;
  appeal_decision_reason: string | null;
  appeal_decided_at: number | null;
  updated_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type C2cTables = {
  c2c_merchants: C2cMerchantsTable;
  c2c_ads: C2cAdsTable;
  c2c_orders: C2cOrdersTable;
};

export type C2cDb = Kysely<Database & C2cTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withC2c = (db: Kysely<Database>): C2cDb => db.withTables<C2cTables>();
