import type { Generated, Kysely } from 'kysely';
import type { WalletChain, WalletPurpose } from '../../../protocol/wallet-login';
import type { Database } from '../../platform/db/schema';

/** A wallet message handed out (migration 0022): single use, until `expires_at`. */
export interface WalletNoncesTable {
  id: Generated<number>;
  nonce: string;
  chain: WalletChain;
  /** Canonical address: EIP-55 for erc, the T-address for trc. */
  address: string;
  purpose: WalletPurpose;
  domain: string;
  uri: string;
  /** The exact text to be signed. */
  message: string;
  /** For a linking message: the logged-in user who asked for it. */
  user_id: number | null;
  issued_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A wallet linked to an account; one account per wallet. */
export interface WalletLinksTable {
  id: Generated<number>;
  user_id: number;
  chain: WalletChain;
  address: string;
  created_at: number;
}

export type WalletLoginTables = {
  wallet_nonces: WalletNoncesTable;
  wallet_links: WalletLinksTable;
};

/** The database (or a transaction) with this module's tables known to the query builder. */
export const walletTables = (db: Kysely<Database>): Kysely<Database & WalletLoginTables> =>
  db.withTables<WalletLoginTables>();
