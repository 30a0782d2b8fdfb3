import { referralCalls } from '../../../protocol/referral';
import { defineDomain } from '../contract';
import { referralHandlers } from './calls';
import { migration0020 } from './migrations/0020_referral';
import { referralOps } from './ops';
import { referralRebatesJob } from './rebates';
import { withReferral } from './tables';

/** Referral rebates: a share of each referred user's trading fees, paid from the fee account by a cluster job. */
export const referralDomain = defineDomain({
  name: 'referral',
  calls: referralCalls,
  migrations: [migration0020],
  tables: withReferral,
  ops: referralOps,
  start: (ctx) => {
    const referral = { database: ctx.database, ledger: ctx.ledger, now: ctx.now };
    return {
      handlers: referralHandlers(referral),
      jobs: [referralRebatesJob(referral, ctx.settings.referralRebatesMs)],
    };
  },
});
