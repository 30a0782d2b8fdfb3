import { defineDomain } from '../contract';
import { operatorsErrors } from './errors';
import { migration0019 } from './migrations/0019_operators';
import { operatorOps } from './ops';
import { registerOpsConsole } from './register';
import { operatorSealedData } from './secrets';
import { withOperators } from './tables';

/**
 * The support console's calls (/api/ops/...): their own scope, sessions and roles (a user's token opens nothing
 * there), serving every domain's console sections.
 */
export const operatorsDomain = defineDomain({
  name: 'operators',
  errors: operatorsErrors,
  migrations: [migration0019],
  tables: withOperators,
  ops: operatorOps,
  sealed: [operatorSealedData],
  start: (ctx) => ({
    routes: async (app, composed) => {
      await registerOpsConsole(app, {
        database: ctx.database,
        now: ctx.now,
        limiter: ctx.limiter,
        uploads: ctx.uploads,
        hashCost: ctx.settings.hashCost,
        dataKey: ctx.settings.dataKey,
        log: ctx.log,
        sections: composed.console,
      });
    },
  }),
});
