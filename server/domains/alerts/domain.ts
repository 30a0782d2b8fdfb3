import { alertCalls } from '../../../protocol/alerts';
import { defineDomain } from '../contract';
import type { AlertServices } from './alerts';
import { alertHandlers } from './calls';
import { alertsJob } from './check';
import { alertsErrors } from './errors';
import { migration0028 } from './migrations/0028_alerts';
import { withAlerts } from './tables';
import { alertsTopic } from './topic';

/**
 * Price alerts (RULES "Price alerts"): the user's alerts on any instrument the market serves, checked against the
 * price record by one cluster job; a fired alert is a user event (the `me:alerts` topic, and `me:account` with every
 * event). Alerts never touch the ledger.
 */
export const alertsDomain = defineDomain({
  name: 'alerts',
  calls: alertCalls,
  migrations: [migration0028],
  tables: withAlerts,
  errors: alertsErrors,
  start: (ctx) => {
    const { feed } = ctx;
    const s: AlertServices = {
      database: ctx.database,
      now: ctx.now,
      instrument: (symbol) => feed?.instrument(symbol),
    };
    return {
      handlers: alertHandlers(s),
      topics: [alertsTopic(s)],
      // Without a market there are no ticks to check (tests of other domains).
      jobs: feed ? [alertsJob(s)] : [],
    };
  },
});
