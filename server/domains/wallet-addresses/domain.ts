import { defineDomain } from '../contract';
import { walletAddressHandlers } from './calls';

/** The user's withdrawal addresses (their table is created by bank-cards' migration 0005). */
export const walletAddressesDomain = defineDomain({
  name: 'wallet-addresses',
  start: (ctx) => ({ handlers: walletAddressHandlers({ account: ctx.account, database: ctx.database }) }),
});
