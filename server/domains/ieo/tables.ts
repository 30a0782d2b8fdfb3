import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

/** An IEO project (server/domains/ieo); supply and cap are minor units of the coin (8 decimals). */
export interface IeoProjectsTable {
  id: Generated<number>;
  coin: string;
  name: string;
  description: string;
  ieo_price: string;
  listing_price: string;
  total_supply: string;
  circulating_supply: string;
  supply: number;
  user_cap: number;
  starts_at: number;
  ends_at: number;
  allot_at: number;
  pay_until: number;
  list_at: number;
  unlock_at: number;
  /** Everything subscribed (each ask capped), fixed by the allotment. */
  demand: number | null;
  allotted_at: number | null;
  lapsed_at: number | null;
  listed_at: number | null;
  unlocked_at: number | null;
  created_at: number;
}

export type IeoPhaseColumn = 'subscribed' | 'failed' | 'allotted' | 'lapsed' | 'paid' | 'locked' | 'unlocked';

/** One user's subscription to a project; its payment and its locked coins are ledger holds. */
export interface IeoSubscriptionsTable {
  id: Generated<number>;
  project_id: number;
  user_id: number;
  asked: number;
  allotted: number | null;
  payment: number | null;
  phase: IeoPhaseColumn;
  pay_hold_id: number | null;
  lock_hold_id: number | null;
  request_id: string;
  request_digest: string;
  paid_at: number | null;
  created_at: number;
  updated_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type IeoTables = {
  ieo_projects: IeoProjectsTable;
  ieo_subscriptions: IeoSubscriptionsTable;
};

export type IeoDb = Kysely<Database & IeoTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withIeo = (db: Kysely<Database>): IeoDb => db.withTables<IeoTables>();
