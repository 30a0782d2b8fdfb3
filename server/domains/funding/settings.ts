import type { Kysely } from 'kysely';
import { CHAIN_COINS, CHAINS_BY_COIN, type Chain, type ChainCoin, COIN_IDS } from '../../../protocol/chains';
import { currencyScale } from '../../ledger';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { withFunding } from './tables';

/**
 * The platform's funding settings: per-coin minimums and withdrawal fee (`funding_coins`, defaults from migration
 * 0007), the receiving address per coin and chain (`deposit_addresses`) and the bank details for bank transfers
 * (`platform_settings` key below). Operators change them with `npm run ops -- fees set | deposit-address set |
 * deposit-bank set`.
 */

export const BANK_DETAILS_KEY = 'deposit_bank_details';
export const BANK_DETAILS_MAX = 300;

export interface CoinLimits {
  coin: ChainCoin;
  /** Minor units. */
  minDeposit: number;
  minWithdraw: number;
  withdrawFee: number;
}

export async function coinLimits(db: Kysely<Database>, coin: ChainCoin): Promise<CoinLimits> {
  const row = await withFunding(db).selectFrom('funding_coins').selectAll().where('coin', '=', coin).executeTakeFirst();
  // Every coin of CHAIN_COINS has a row since migration 0007; a missing one is an operator's mistake, not the user's.
  if (!row) throw new BusinessError('coinInvalid', { field: 'coin' });
  return { coin, minDeposit: row.min_deposit, minWithdraw: row.min_withdraw, withdrawFee: row.withdraw_fee };
}

export async function allCoinLimits(db: Kysely<Database>): Promise<CoinLimits[]> {
  const rows = await withFunding(db).selectFrom('funding_coins').selectAll().execute();
  const byCoin = new Map(rows.map((r) => [r.coin, r]));
  return CHAIN_COINS.flatMap((coin) => {
    const r = byCoin.get(coin);
    return r ? [{ coin, minDeposit: r.min_deposit, minWithdraw: r.min_withdraw, withdrawFee: r.withdraw_fee }] : [];
  });
}

/** The coin's public description: SPEC 3 id, SPEC 9 chains, ledger decimals. */
export const coinInfo = (coin: ChainCoin) => ({
  coin,
  id: COIN_IDS[coin],
  chains: [...CHAINS_BY_COIN[coin]],
  scale: currencyScale(coin),
});

/** The platform address for a coin and chain, or null when none is configured. */
export async function platformAddress(db: Kysely<Database>, coin: ChainCoin, chain: Chain): Promise<string | null> {
  const row = await withFunding(db)
    .selectFrom('deposit_addresses')
    .select('address')
    .where('coin', '=', coin)
    .where('chain', '=', chain)
    .executeTakeFirst();
  return row?.address ?? null;
}

export async function bankDetails(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('platform_settings')
    .select('value')
    .where('key', '=', BANK_DETAILS_KEY)
    .executeTakeFirst();
  return row?.value ?? null;
}
