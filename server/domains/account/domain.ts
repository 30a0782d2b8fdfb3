import { accountCalls } from '../../../protocol/account';
import { antiPhishingCalls } from '../../../protocol/anti-phishing';
import { deviceCalls } from '../../../protocol/devices';
import { defineDomain } from '../contract';
import { accountHandlers } from './calls';
import { accountErrors } from './errors';
import { migration0001 } from './migrations/0001_accounts';
import { migration0030 } from './migrations/0030_session_devices';
import { migration0031 } from './migrations/0031_account_mail';
import { accountOps } from './ops';
import { withAccount } from './tables';

/** Registration, login, codes, passwords and profile; its services (ctx.account) are built by the app. */
export const accountDomain = defineDomain({
  name: 'account',
  // The security centre's calls have tables of their own, so the shell's account calls do not carry their schemas.
  calls: { ...accountCalls, ...deviceCalls, ...antiPhishingCalls },
  errors: accountErrors,
  migrations: [migration0001, migration0030, migration0031],
  tables: withAccount,
  ops: accountOps,
  start: (ctx) => ({ handlers: accountHandlers(ctx.account) }),
});
