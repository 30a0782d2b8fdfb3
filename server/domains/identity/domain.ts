import { identityCalls } from '../../../protocol/identity';
import { defineDomain } from '../contract';
import { identityHandlers } from './calls';
import { identityErrors } from './errors';
import { migration0004 } from './migrations/0004_uploads_identity';
import { identityOps } from './ops';
import { withIdentity } from './tables';

/** Identity verification (basic and advanced), reviewed by operators. */
export const identityDomain = defineDomain({
  name: 'identity',
  calls: identityCalls,
  errors: identityErrors,
  migrations: [migration0004],
  tables: withIdentity,
  ops: identityOps,
  start: (ctx) => ({ handlers: identityHandlers({ database: ctx.database, now: ctx.now }) }),
});
