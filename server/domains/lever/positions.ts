import type { Kysely, Selectable } from 'kysely';
import {
  type LeverList,
  type LeverPosition,
  type LeverPositionPage,
  OPEN_LEVER_PHASES,
  STATUS_OF_PHASE,
} from '../../../protocol/lever';
import type { RecordedTick } from '../../../protocol/price-record';
import {
  closedNet,
  isolatedLiquidationPrice,
  type LeverPositionUnits,
  type LeverTerms,
  notional,
  percentText,
  pnlUnits,
  quantity,
  roeText,
  unrealisedPnlExact,
} from '../../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';
import { currencyScale, formatAmount } from '../../ledger';
import { cursorPage } from '../../platform/db/paging';
import type { Database } from '../../platform/db/schema';
import type { LeverPositionsTable } from './tables';
import { withLever } from './tables';
import { LEVER_QUOTE } from './terms';

export type LeverPositionRow = Selectable<LeverPositionsTable>;

const QUOTE_SCALE = currencyScale(LEVER_QUOTE);

/** The rule terms a row was opened under. */
export const termsOf = (row: LeverPositionRow): LeverTerms => ({
  contractSize: row.contract_size,
  mmr: row.mmr,
  feeRate: row.fee_rate,
  priceScale: row.price_scale,
  quoteScale: QUOTE_SCALE,
});

/** A price of a row's instrument as units (its stored text is always on the step). */
export function priceUnits(row: LeverPositionRow, text: string): bigint {
  const units = toUnits(text, row.price_scale);
  if (units === null) throw new Error(`lever ${row.id}: price off the step: ${text}`);
  return units;
}

/** What the rules need of an open row: its entry and its margin (initial plus added). */
export function unitsOf(row: LeverPositionRow): LeverPositionUnits {
  if (row.entry_price === null || row.margin === null) throw new Error(`lever ${row.id} has no entry`);
  return {
    side: row.side,
    lots: BigInt(row.lots),
    entry: priceUnits(row, row.entry_price),
    margin: BigInt(row.margin) + BigInt(row.added_margin),
    terms: termsOf(row),
  };
}

/** The isolated liquidation price of an open row, as text of its price step ("--" = null). */
export function isolatedLp(row: LeverPositionRow): string | null {
  const lp = isolatedLiquidationPrice(unitsOf(row));
  return lp === null ? null : fromUnits(lp, row.price_scale);
}

const amount = (units: number | null) => (units === null ? null : formatAmount(LEVER_QUOTE, units));
const signed = (units: bigint) => fromUnits(units, QUOTE_SCALE);

/** Extra values a read may add: the latest mark (for floating P&L) and a cross position's current LP. */
export interface WireContext {
  mark?: RecordedTick | undefined;
  crossLp?: string | null;
}

/** A row as its owner sees it (protocol/lever.ts `leverPosition`). */
export function toWire(row: LeverPositionRow, ctx: WireContext = {}): LeverPosition {
  const tick = (seq: number | null, ts: number | null, price: string | null) =>
    seq === null || ts === null || price === null ? null : { symbol: row.symbol, seq, ts, price };
  const terms = termsOf(row);
  const lots = BigInt(row.lots);
  const open = row.phase === 'holding' || row.phase === 'closing';
  const mark = open && ctx.mark && ctx.mark.symbol === row.symbol ? ctx.mark : null;
  let floating: string | null = null;
  let floatingPct: string | null = null;
  if (mark && row.entry_price !== null && row.margin !== null) {
    const p = unitsOf(row);
    const markUnits = priceUnits(row, mark.price);
    floating = signed(pnlUnits(p, markUnits));
    floatingPct = roeText(unrealisedPnlExact(p, markUnits), BigInt(row.margin), terms);
  }
  const fees = (row.open_fee ?? 0) + (row.close_fee ?? 0);
  const realized = row.realized_pnl === null ? null : BigInt(row.realized_pnl);
  const margin = row.margin === null ? null : BigInt(row.margin);
  let liquidation: string | null = row.liq_price;
  if (open && row.margin_mode === 'cross') liquidation = ctx.crossLp ?? null;
  return {
    id: row.id,
    order_no: `L${String(row.id).padStart(8, '0')}`,
    symbol: row.symbol,
    direction: row.side,
    type: row.order_type,
    margin_mode: row.margin_mode,
    account_type: row.book,
    status: STATUS_OF_PHASE[row.phase],
    phase: row.phase,
    lots: row.lots,
    quantity: formatExact(quantity(lots, terms)),
    contract_size: row.contract_size,
    leverage: row.leverage,
    mmr: row.mmr,
    fee_rate: row.fee_rate,
    limit_price: row.limit_price,
    entry_price: row.entry_price,
    close_offset_price: row.exit_price,
    profit_take_price: row.tp_price,
    stop_loss_price: row.sl_price,
    initial_margin: amount(row.margin),
    additional_margin: formatAmount(LEVER_QUOTE, row.added_margin),
    amount: row.entry_price === null ? null : formatExact(notional(lots, priceUnits(row, row.entry_price), terms)),
    commission: formatAmount(LEVER_QUOTE, fees),
    open_fee: amount(row.open_fee),
    close_fee: amount(row.close_fee),
    Liquidation_Price: liquidation,
    Liquidation_Time: row.close_reason === 'liquidation' ? row.closed_at : null,
    floating_profit_or_loss: floating,
    unrealized_pnl_percent: floatingPct,
    realized_pnl: realized === null ? null : signed(realized),
    realized_pnl_percent:
      realized === null || margin === null || margin === 0n
        ? null
        : percentText({ units: realized, scale: QUOTE_SCALE }, { units: margin, scale: QUOTE_SCALE }),
    total_profit_or_loss:
      realized === null
        ? null
        : signed(
            closedNet({
              pnl: realized,
              openFee: BigInt(row.open_fee ?? 0),
              closeFee: BigInt(row.close_fee ?? 0),
              insurance: BigInt(row.insurance ?? 0),
            }),
          ),
    insurance: row.insurance === null ? null : signed(BigInt(row.insurance)),
    close_reason: row.close_reason,
    cancel_reason: row.cancel_reason,
    entry: tick(row.entry_seq, row.entry_ts, row.entry_price),
    exit: tick(row.exit_seq, row.exit_ts, row.exit_price),
    mark,
    open_position_time: row.opened_at,
    time_to_close_position: row.closed_at,
    request_id: row.request_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    close_lots: row.phase === 'closing' ? row.close_lots : null,
    part_of: row.part_of,
    opened_lots: row.opened_lots ?? row.lots,
    earlier_parts: earlierParts(row),
    part_basis:
      row.basis_lots === null ||
      row.basis_margin === null ||
      row.basis_added_margin === null ||
      row.basis_open_fee === null
        ? null
        : {
            lots: row.basis_lots,
            initial_margin: formatAmount(LEVER_QUOTE, row.basis_margin),
            additional_margin: formatAmount(LEVER_QUOTE, row.basis_added_margin),
            open_fee: formatAmount(LEVER_QUOTE, row.basis_open_fee),
          },
    reverse: row.reverse_request_id !== null,
    reversed_from: row.reversed_from,
  };
}

/** The lots of the parts closed off a row's position before (stored comma-separated; null: none). */
export function earlierParts(row: Pick<LeverPositionRow, 'earlier_parts'>): number[] {
  return row.earlier_parts ? row.earlier_parts.split(',').map(Number) : [];
}

/** An exact value as plain decimal text without trailing zeros beyond what it needs. */
function formatExact(value: { units: bigint; scale: number }): string {
  const text = fromUnits(value.units, value.scale);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

export async function positionOf(
  db: Kysely<Database>,
  userId: number,
  id: number,
): Promise<LeverPositionRow | undefined> {
  return withLever(db)
    .selectFrom('lever_positions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function openPositions(db: Kysely<Database>, userId: number): Promise<LeverPositionRow[]> {
  return withLever(db)
    .selectFrom('lever_positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('phase', 'in', OPEN_LEVER_PHASES)
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
}

const PHASES_OF_LIST: Record<LeverList, readonly LeverPositionRow['phase'][]> = {
  orders: ['waiting', 'pending'],
  positions: ['holding', 'closing'],
  history: ['closed', 'cancelled'],
};

export async function listPositions(
  db: Kysely<Database>,
  userId: number,
  query: { list: LeverList; book: 'real' | 'simulator'; limit: number; beforeId?: number | undefined },
): Promise<{ rows: LeverPositionRow[]; next_before_id: LeverPositionPage['next_before_id'] }> {
  let q = withLever(db)
    .selectFrom('lever_positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('book', '=', query.book)
    .where('phase', 'in', PHASES_OF_LIST[query.list]);
  if (query.beforeId !== undefined) q = q.where('id', '<', query.beforeId);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const { page, next_before_id } = cursorPage(rows, query.limit);
  return { rows: page, next_before_id };
}
