import type { Kysely, Selectable } from 'kysely';
import type { SpotOrder, SpotOrderPage } from '../../../protocol/spot';
import { currencyScale, formatAmount } from '../../ledger';
import { cursorPage } from '../../platform/db/paging';
import type { Database } from '../../platform/db/schema';
import type { SpotOrdersTable } from './tables';
import { withSpot } from './tables';
import { SPOT_QUOTE_CURRENCY } from './terms';

export type SpotOrderRow = Selectable<SpotOrdersTable>;

export const OPEN_STATES = ['waiting', 'pending'] as const;
const HISTORY_STATES = ['completed', 'cancelled'] as const;

/** The currency an order holds: USDT for a buy, the coin for a sell. */
export const heldCurrency = (row: Pick<SpotOrderRow, 'side' | 'symbol'>): string =>
  row.side === 'buy' ? SPOT_QUOTE_CURRENCY : row.symbol;

/** An order as its owner sees it (protocol/spot.ts `spotOrder`). */
export function toWire(row: SpotOrderRow): SpotOrder {
  const open = row.state === 'waiting' || row.state === 'pending';
  const fill =
    row.state === 'completed' && row.fill_seq !== null
      ? {
          tick: { symbol: row.symbol, seq: row.fill_seq, ts: row.fill_ts ?? 0, price: row.fill_price ?? '0' },
          qty: row.fill_qty ?? '0',
          price: row.fill_price ?? '0',
          value: row.fill_value ?? '0',
          fee: row.fill_fee ?? '0',
          total: row.fill_total ?? '0',
          at: row.filled_at ?? row.updated_at,
        }
      : null;
  return {
    id: row.id,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    mode: row.mode,
    qty: row.qty,
    amount: row.amount,
    price: row.price,
    fee_rate: row.fee_rate,
    held: formatAmount(heldCurrency(row), open ? row.held : 0),
    state: row.state,
    cancel_reason: row.cancel_reason,
    fill,
    request_id: row.request_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function orderOf(db: Kysely<Database>, userId: number, id: number): Promise<SpotOrderRow | undefined> {
  return withSpot(db)
    .selectFrom('spot_orders')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function openOrders(db: Kysely<Database>, userId: number): Promise<SpotOrder[]> {
  const rows = await withSpot(db)
    .selectFrom('spot_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', 'in', OPEN_STATES)
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
  return rows.map(toWire);
}

export async function listOrders(
  db: Kysely<Database>,
  userId: number,
  query: { list: 'open' | 'history'; symbol?: string | undefined; limit: number; beforeId?: number | undefined },
): Promise<SpotOrderPage> {
  let q = withSpot(db)
    .selectFrom('spot_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', 'in', query.list === 'open' ? OPEN_STATES : HISTORY_STATES);
  if (query.symbol) q = q.where('symbol', '=', query.symbol);
  if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const { page, next_before_id } = cursorPage(rows, query.limit);
  return { orders: page.map(toWire), next_before_id };
}

/** Ledger minor units of `currency` as the coin's decimal text (for an order's quantities in the ledger's scale). */
export const ledgerScaleOf = (currency: string): number => currencyScale(currency);
