import type { spotCalls } from '../../../protocol/spot';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { listOrders, orderOf, toWire } from './orders';
import { placeOrder, type SpotServices } from './place';
import { cancelOrder } from './settle';
import { spotConfig } from './terms';

const DEFAULT_LIMIT = 20;

/** A user cancels one of their open orders; a filled or cancelled order (or another user's) cannot be. */
async function cancelByOwner(s: SpotServices, userId: number, id: number) {
  return writeTransaction(s.database, async (trx) => {
    const row = await orderOf(trx, userId, id);
    if (!row) throw new BusinessError('orderNotFound', { field: 'id' });
    const outcome = await cancelOrder(trx, s.ledger, row, 'user', s.now());
    if (outcome !== 'cancelled') throw new BusinessError('orderNotCancellable', { field: 'id' });
    const updated = await orderOf(trx, userId, id);
    if (!updated) throw new Error(`spot order ${id} vanished`);
    return toWire(updated);
  });
}

/**
 * Spot trading calls. Every call acts for the session user only: order ids are looked up among the user's own
 * orders, so another user's order does not exist for them.
 */
export function spotHandlers(s: SpotServices): CallHandlers<typeof spotCalls> {
  return {
    'coin/trade/config': () => spotConfig(s.database.db),
    'coin/trade': (input, ctx) => placeOrder(s, requireSession(ctx).userId, input),
    'coin/trade/cancel': (input, ctx) => cancelByOwner(s, requireSession(ctx).userId, input.id),
    'coin/trade/list': (input, ctx) =>
      listOrders(s.database.db, requireSession(ctx).userId, {
        list: input.list,
        symbol: input.symbol,
        limit: input.limit ?? DEFAULT_LIMIT,
        beforeId: input.before_id,
      }),
  };
}
