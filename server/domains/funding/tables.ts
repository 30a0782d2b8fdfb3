import type { Generated, Kysely } from 'kysely';
import type { Chain, ChainCoin } from '../../../protocol/chains';
import type { Database } from '../../platform/db/schema';
import type { BankCardsTables } from '../bank-cards';

/** Per-coin deposit and withdrawal limits (minor units); `ops fees set` changes them. */
export interface FundingCoinsTable {
  coin: ChainCoin;
  min_deposit: number;
  min_withdraw: number;
  withdraw_fee: number;
  updated_at: number;
}

/** The platform's receiving address per coin and chain; `ops deposit-address set` changes it. */
export interface DepositAddressesTable {
  coin: ChainCoin;
  chain: Chain;
  address: string;
  updated_at: number;
}

/** `approving` / `rejecting`: claimed by an operator, the ledger step not yet confirmed (shown as under review). */
export type FundingRowState = 'pending' | 'approving' | 'rejecting' | 'passed' | 'rejected';

/** A deposit under or after review (crypto: chain, platform address, hash; bank: the user's card). */
export interface DepositsTable {
  id: Generated<number>;
  user_id: number;
  method: 'crypto' | 'bank';
  coin: ChainCoin;
  chain: Chain | null;
  address: string | null;
  /** Lower case. */
  hash: string | null;
  bank_card_id: number | null;
  amount: number;
  proof_upload_id: number;
  request_id: string;
  request_digest: string;
  state: FundingRowState;
  reason: string | null;
  /** The ledger entry that credited it. */
  entry_id: number | null;
  created_at: number;
  reviewed_at: number | null;
}

/** A withdrawal request; `hold_id` freezes amount + fee until review. */
export interface WithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  coin: ChainCoin;
  chain: Chain;
  address_id: number;
  address: string;
  amount: number;
  fee: number;
  remark: string | null;
  request_id: string;
  request_digest: string;
  hold_id: number;
  state: FundingRowState;
  reason: string | null;
  created_at: number;
  reviewed_at: number | null;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type FundingTables = {
  funding_coins: FundingCoinsTable;
  deposit_addresses: DepositAddressesTable;
  deposits: DepositsTable;
  withdrawals: WithdrawalsTable;
};

export type FundingDb = Kysely<Database & FundingTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withFunding = (db: Kysely<Database>): FundingDb => db.withTables<FundingTables>();

/** Deposits by bank name the card they came from: that table is bank-cards', read here through its exported type. */
export const withFundingAndCards = (db: Kysely<Database>) => db.withTables<FundingTables & BankCardsTables>();
