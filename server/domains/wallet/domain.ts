import { walletCalls } from '../../../protocol/wallet';
import { defineDomain } from '../contract';
import { walletHandlers } from './calls';

/** The assets pages: balances of every account type, valued at the feed's last prices. */
export const walletDomain = defineDomain({
  name: 'wallet',
  calls: walletCalls,
  start: (ctx) => ({
    handlers: walletHandlers({ ledger: ctx.ledger, feed: ctx.feed, database: ctx.database, guards: ctx.accountGuards }),
  }),
});
