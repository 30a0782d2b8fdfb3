import { c2cCalls } from '../../../protocol/c2c';
import { defineDomain, ownedRow } from '../contract';
import { c2cHandlers, c2cServices } from './calls';
import { appealsConsoleSection } from './console';
import { c2cErrors } from './errors';
import { c2cExpiryJob } from './expiry';
import { migration0017 } from './migrations/0017_c2c';
import { c2cOps } from './ops';
import { c2cSealedData } from './sealed';
import { withC2c } from './tables';
import { c2cTopic } from './topic';

/** C2C: escrow per order; unpaid orders expire by the job (payment details sealed with the data key). */
export const c2cDomain = defineDomain({
  name: 'c2c',
  calls: c2cCalls,
  errors: c2cErrors,
  migrations: [migration0017],
  tables: withC2c,
  // QA traces of its orders: recorded only for the order's buyer or merchant.
  tracedOrders: { 'c2c-order': ownedRow(withC2c, 'c2c_orders', 'buyer_id', 'merchant_id') },
  ops: c2cOps,
  sealed: [c2cSealedData],
  start: (ctx) => {
    const c2c = c2cServices({
      database: ctx.database,
      ledger: ctx.ledger,
      now: ctx.now,
      dataKey: ctx.settings.dataKey,
    });
    return {
      handlers: c2cHandlers(c2c),
      jobs: [c2cExpiryJob(c2c, ctx.settings.c2cExpiryMs)],
      topics: [c2cTopic(c2c)],
      console: [appealsConsoleSection(c2c)],
    };
  },
});
