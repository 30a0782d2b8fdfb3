import { walletLoginCalls } from '../../../protocol/wallet-login';
import { defineDomain } from '../contract';
import { walletLoginHandlers } from './calls';
import { walletLoginErrors } from './errors';
import { migration0022 } from './migrations/0022_wallet_login';
import { walletTables } from './tables';

/** Login with a wallet signature. */
export const walletLoginDomain = defineDomain({
  name: 'wallet-login',
  calls: walletLoginCalls,
  errors: walletLoginErrors,
  migrations: [migration0022],
  tables: walletTables,
  start: (ctx) => ({
    handlers: walletLoginHandlers({ account: ctx.account, publicOrigins: ctx.settings.publicOrigins ?? [] }),
  }),
});
