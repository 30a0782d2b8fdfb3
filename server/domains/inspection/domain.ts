import { inspectionCalls } from '../../../protocol/inspection';
import { defineDomain } from '../contract';
import { inspectionHandlers } from './calls';
import { inspectionConsoleSection } from './console';
import { migration0024 } from './migrations/0024_inspection';
import { withInspection } from './tables';
import { pruneTracesJob } from './traces';

/** QA's order traces: recorded per order, shown in the console, pruned by a job. */
export const inspectionDomain = defineDomain({
  name: 'inspection',
  calls: inspectionCalls,
  migrations: [migration0024],
  tables: withInspection,
  start: (ctx) => {
    const inspection = { database: ctx.database, now: ctx.now, owners: ctx.tracedOrders };
    return {
      handlers: inspectionHandlers(inspection),
      jobs: [pruneTracesJob(inspection)],
      console: [inspectionConsoleSection(inspection)],
    };
  },
});
