import { spotCalls } from '../../../protocol/spot';
import { startProductEngine } from '../../trading/product-engine';
import { defineDomain, ownedRow } from '../contract';
import { spotHandlers } from './calls';
import { SpotEngine } from './engine';
import { spotErrors } from './errors';
import { migration0010 } from './migrations/0010_spot';
import { spotFeesOps } from './ops';
import { withSpot } from './tables';
import { ordersTopic } from './topic';

/** Spot orders: accepted by every process, filled by the engine where the job runner gives it its lease. */
export const spotDomain = defineDomain({
  name: 'spot',
  calls: spotCalls,
  errors: spotErrors,
  migrations: [migration0010],
  tables: withSpot,
  // QA traces of its orders: recorded only for the order's owner.
  tracedOrders: { 'spot-order': ownedRow(withSpot, 'spot_orders', 'user_id') },
  ops: [{ under: 'fees', word: 'spot', command: spotFeesOps }],
  start: (ctx) => {
    const started = startProductEngine(ctx, 'spot engine', (options) => new SpotEngine(options));
    const engine = started?.engine;
    return {
      handlers: spotHandlers({
        database: ctx.database,
        ledger: ctx.ledger,
        feed: ctx.feed,
        now: ctx.now,
        ...(engine ? { onAccepted: (row) => engine.accepted(row) } : {}),
      }),
      jobs: started?.jobs ?? [],
      topics: [ordersTopic(ctx.db)],
      ...(started ? { close: started.close } : {}),
    };
  },
});
