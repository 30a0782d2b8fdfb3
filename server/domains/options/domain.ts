import { optionCalls } from '../../../protocol/options';
import { startProductEngine } from '../../trading/product-engine';
import { defineDomain, ownedRow } from '../contract';
import { optionHandlers } from './calls';
import { OptionsEngine } from './engine';
import { optionsErrors } from './errors';
import { migration0011 } from './migrations/0011_options';
import { optionOps } from './ops';
import { withOptions } from './tables';
import { optionsTopic } from './topic';

/** Options contracts: entry tick and settlement by the engine where the job runner gives it its lease. */
export const optionsDomain = defineDomain({
  name: 'options',
  calls: optionCalls,
  errors: optionsErrors,
  migrations: [migration0011],
  tables: withOptions,
  // QA traces of its orders: recorded only for the order's owner.
  tracedOrders: { 'option-contract': ownedRow(withOptions, 'option_contracts', 'user_id') },
  ops: optionOps,
  start: (ctx) => {
    const started = startProductEngine(ctx, 'options engine', (options) => new OptionsEngine(options));
    const engine = started?.engine;
    return {
      handlers: optionHandlers({
        database: ctx.database,
        ledger: ctx.ledger,
        feed: ctx.feed,
        now: ctx.now,
        ...(engine ? { onAccepted: (row) => engine.accepted(row) } : {}),
      }),
      jobs: started?.jobs ?? [],
      topics: [optionsTopic(ctx.db)],
      ...(started ? { close: started.close } : {}),
    };
  },
});
