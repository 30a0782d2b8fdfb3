import { leverCalls } from '../../../protocol/lever';
import { startProductEngine } from '../../trading/product-engine';
import { defineDomain, ownedRow } from '../contract';
import { leverHandlers } from './calls';
import { contractTransferable, refuseBackedCrossMargin } from './cross-backing';
import { LeverEngine } from './engine';
import { leverErrors } from './errors';
import { migration0012 } from './migrations/0012_lever';
import { migration0027 } from './migrations/0027_lever_parts';
import { migration0029 } from './migrations/0029_lever_reverse';
import { leverOps } from './ops';
import { withLever } from './tables';
import { LEVER_QUOTE } from './terms';
import { positionsTopic } from './topic';

/** Lever positions: opens, triggers and liquidations by the engine, which also reads the feed's last price. */
export const leverDomain = defineDomain({
  name: 'lever',
  calls: leverCalls,
  errors: leverErrors,
  migrations: [migration0012, migration0027, migration0029],
  tables: withLever,
  // QA traces of its orders: recorded only for the order's owner.
  tracedOrders: { 'lever-order': ownedRow(withLever, 'lever_positions', 'user_id') },
  ops: leverOps,
  // The contract account's quote money that backs cross positions stays (RULES "Cross margin").
  accountGuards: [
    {
      type: 'contract',
      currency: LEVER_QUOTE,
      transferable: contractTransferable,
      refuseTransfer: refuseBackedCrossMargin,
    },
  ],
  start: (ctx) => {
    const started = startProductEngine(
      ctx,
      'lever engine',
      (options) => new LeverEngine({ ...options, lastPrice: (symbol) => options.feed.quote(symbol)?.last }),
    );
    const engine = started?.engine;
    return {
      handlers: leverHandlers({
        database: ctx.database,
        ledger: ctx.ledger,
        feed: ctx.feed,
        now: ctx.now,
        ...(engine ? { onChanged: (row) => engine.changed(row) } : {}),
      }),
      jobs: started?.jobs ?? [],
      topics: [positionsTopic(ctx.db)],
      ...(started ? { close: started.close } : {}),
    };
  },
});
