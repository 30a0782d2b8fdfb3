import { pollCalls } from '../../../protocol/polls';
import { defineDomain } from '../contract';
import { pollHandlers } from './calls';
import { migration0023 } from './migrations/0023_polls';
import { pollOps } from './ops';
import { withPolls } from './tables';

/** Listing polls: one vote per user and poll. */
export const pollsDomain = defineDomain({
  name: 'polls',
  calls: pollCalls,
  migrations: [migration0023],
  tables: withPolls,
  ops: pollOps,
  start: (ctx) => ({ handlers: pollHandlers({ database: ctx.database, now: ctx.now }) }),
});
