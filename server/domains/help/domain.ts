import { helpCalls } from '../../../protocol/help';
import { defineDomain } from '../contract';
import { helpHandlers } from './calls';
import { helpConsoleSection } from './console';
import { helpErrors } from './errors';
import { migration0018 } from './migrations/0018_help';
import { helpOps } from './ops';
import { withHelp } from './tables';

/** The help centre: published articles for readers, drafts and edits in the console. */
export const helpDomain = defineDomain({
  name: 'help',
  calls: helpCalls,
  errors: helpErrors,
  migrations: [migration0018],
  tables: withHelp,
  ops: helpOps,
  start: (ctx) => ({
    handlers: helpHandlers({ database: ctx.database }),
    console: [helpConsoleSection({ database: ctx.database, now: ctx.now })],
  }),
});
