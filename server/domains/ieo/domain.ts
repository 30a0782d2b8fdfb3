import { ieoCalls } from '../../../protocol/ieo';
import { defineDomain, ownedRow } from '../contract';
import { ieoHandlers } from './calls';
import { ieoErrors } from './errors';
import { migration0015 } from './migrations/0015_ieo';
import { ieoOps } from './ops';
import { ieoStepsJob } from './steps';
import { withIeo } from './tables';
import { ieoTopic } from './topic';

/** IEO steps (allotment, lapse, listing, unlock) run at each project's times; a listing adds its coin to the market. */
export const ieoDomain = defineDomain({
  name: 'ieo',
  calls: ieoCalls,
  errors: ieoErrors,
  migrations: [migration0015],
  tables: withIeo,
  // QA traces of its orders: recorded only for the order's owner.
  tracedOrders: { 'ieo-subscription': ownedRow(withIeo, 'ieo_subscriptions', 'user_id') },
  ops: ieoOps,
  start: (ctx) => {
    const ieo = { database: ctx.database, ledger: ctx.ledger, now: ctx.now };
    return {
      handlers: ieoHandlers(ieo),
      jobs: [ieoStepsJob(ieo, ctx.settings.ieoStepsMs)],
      topics: [ieoTopic(ctx.db)],
    };
  },
});
