import type { financeCalls } from '../../../protocol/finance';
import { DEFAULT_PENALTY } from '../../../protocol/rules/finance';
import { formatAmount } from '../../ledger';
import { BusinessError } from '../../platform/errors';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { buyFinance, type FinanceServices } from './buy';
import { financeReport, listOrders } from './orders';
import { freeReserve, listProducts, productById, productWire } from './products';
import { redeemEarly } from './redeem';

/**
 * Finance calls: lh/deposit/* for trust products, lh/send/* for hosting products, one rule for both. Every call that
 * reads or changes an order acts for the session user only. No call (and no operator command) pays anything but
 * what the rule says is due.
 */
export function financeHandlers(s: FinanceServices): CallHandlers<typeof financeCalls> {
  const db = s.database.db;
  const config = async (family: 'trust' | 'hosting') => ({
    products: await listProducts(db, family),
    default_penalty: DEFAULT_PENALTY,
  });
  const productInfo = async (family: 'trust' | 'hosting', userId: number, id: number) => {
    const row = await productById(db, family, id);
    if (!row) throw new BusinessError('financeProductNotFound', { field: 'id' });
    const account = (await s.ledger.balances(userId, 'real')).find(
      (b) => b.type === 'trust' && b.currency === row.currency,
    );
    return {
      product: productWire(row, await freeReserve(db, row.currency)),
      available: formatAmount(row.currency, account?.available ?? 0),
    };
  };
  return {
    'lh/deposit/config': () => config('trust'),
    'lh/send/config': () => config('hosting'),
    'lh/deposit/product_info': (input, ctx) => productInfo('trust', requireSession(ctx).userId, input.id),
    'lh/send/product_info': (input, ctx) => productInfo('hosting', requireSession(ctx).userId, input.id),
    'lh/deposit/report': (_input, ctx) => financeReport(db, requireSession(ctx).userId, s.now()),
    'lh/deposit/order': (input, ctx) => listOrders(db, requireSession(ctx).userId, 'trust', input, s.now()),
    'lh/send/order_list': (input, ctx) => listOrders(db, requireSession(ctx).userId, 'hosting', input, s.now()),
    'lh/send/get_recommend': async () => ({ products: await listProducts(db, 'hosting', { recommendedOnly: true }) }),
    'lh/deposit': (input, ctx) => buyFinance(s, requireSession(ctx).userId, 'trust', input),
    'lh/send/order': (input, ctx) => buyFinance(s, requireSession(ctx).userId, 'hosting', input),
    'lh/deposit/order/cancel': (input, ctx) => redeemEarly(s, requireSession(ctx).userId, input.id),
  };
}
