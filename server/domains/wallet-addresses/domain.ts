import { addressCalls } from '../../../protocol/wallet-addresses';
import { defineDomain } from '../contract';
import { walletAddressHandlers } from './calls';
import { walletAddressesErrors } from './errors';
import { withWalletAddresses } from './tables';

/** The user's withdrawal addresses (their table is created by bank-cards' migration 0005). */
export const walletAddressesDomain = defineDomain({
  name: 'wallet-addresses',
  calls: addressCalls,
  errors: walletAddressesErrors,
  tables: withWalletAddresses,
  start: (ctx) => ({ handlers: walletAddressHandlers({ account: ctx.account, database: ctx.database }) }),
});
