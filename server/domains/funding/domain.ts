import { fundingCalls } from '../../../protocol/funding';
import { defineDomain } from '../contract';
import { fundingHandlers } from './calls';
import { fundingErrors } from './errors';
import { migration0007 } from './migrations/0007_deposits_withdrawals';
import { fundingOps } from './ops';
import { withFunding } from './tables';

/** Deposits and withdrawals, reviewed by operators. */
export const fundingDomain = defineDomain({
  name: 'funding',
  calls: fundingCalls,
  errors: fundingErrors,
  migrations: [migration0007],
  tables: withFunding,
  ops: fundingOps,
  start: (ctx) => ({
    handlers: fundingHandlers({ account: ctx.account, database: ctx.database, ledger: ctx.ledger, now: ctx.now }),
  }),
});
