import type { Generated, Kysely } from 'kysely';
import type { Chain, ChainCoin } from '../../../protocol/chains';
import type { Database } from '../../platform/db/schema';

/** A saved withdrawal address (SPEC 3). `address` is canonical for its chain (protocol/chains.ts). */
export interface WithdrawAddressesTable {
  id: Generated<number>;
  user_id: number;
  coin: ChainCoin;
  chain: Chain;
  address: string;
  label: string | null;
  created_at: number;
  /** Set when the owner deleted it; deleted rows are never shown or used again. */
  deleted_at: number | null;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type WalletAddressesTables = {
  withdraw_addresses: WithdrawAddressesTable;
};

export type WalletAddressesDb = Kysely<Database & WalletAddressesTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withWalletAddresses = (db: Kysely<Database>): WalletAddressesDb => db.withTables<WalletAddressesTables>();
