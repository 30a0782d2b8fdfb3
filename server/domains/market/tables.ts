import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

/** A user's favourite instruments (currency/user_currency_list). */
export interface FavouritesTable {
  user_id: number;
  symbol: string;
  created_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type MarketTables = {
  favourites: FavouritesTable;
};

export type MarketDb = Kysely<Database & MarketTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withMarket = (db: Kysely<Database>): MarketDb => db.withTables<MarketTables>();
