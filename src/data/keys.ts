import type { ChainCoin } from '../../protocol/chains';
import type { AccountType } from '../../protocol/wallet';
import { PUBLIC_KEY } from './query';

/**
 * Every query key of the app in one table, so socket events can invalidate by prefix (src/data/account-events.ts)
 * and a mutation can say what it changed. A key's first part is its area; `public` data belongs to no user.
 */
export const keys = {
  areaCodes: [PUBLIC_KEY, 'areaCodes'] as const,
  instruments: [PUBLIC_KEY, 'instruments'] as const,
  favourites: ['market', 'favourites'] as const,

  account: ['account', 'overview'] as const,
  fundPassword: ['account', 'fundPassword'] as const,
  /** The signed-in devices (the security centre's list), refreshed when a session of the user ends. */
  devices: ['account', 'devices'] as const,
  /** The anti-phishing code every e-mail to the user starts with. */
  antiPhishing: ['account', 'antiPhishing'] as const,

  verification: ['identity', 'realName'] as const,

  wallet: ['wallet'] as const,
  assets: (type?: AccountType) => ['wallet', 'list', type ?? 'all'] as const,
  /** Every account list (all types and each type). */
  assetLists: ['wallet', 'list'] as const,
  ledger: (type?: AccountType) => ['wallet', 'ledger', type ?? 'all'] as const,
  transfers: ['wallet', 'transfers'] as const,
  addresses: (coin?: ChainCoin) => ['wallet', 'addresses', coin ?? 'all'] as const,
  /** Every address list (all coins and each coin). */
  addressLists: ['wallet', 'addresses'] as const,
  bankCards: ['wallet', 'bankCards'] as const,

  depositCurrencies: ['funding', 'depositCurrencies'] as const,
  depositAddress: (coin: ChainCoin, chain: string) => ['funding', 'depositAddress', coin, chain] as const,
  withdrawalCurrencies: ['funding', 'withdrawalCurrencies'] as const,
  withdrawInfo: (coin?: ChainCoin) => (coin ? (['funding', 'withdrawInfo', coin] as const) : ['funding', 'withdrawInfo']),
  deposits: ['funding', 'deposits'] as const,
  withdrawals: ['funding', 'withdrawals', 'list'] as const,
  withdrawal: (id?: number) =>
    id === undefined ? (['funding', 'withdrawals', 'detail'] as const) : (['funding', 'withdrawals', 'detail', id] as const),
};
