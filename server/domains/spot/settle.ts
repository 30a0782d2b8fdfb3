import type { Kysely } from 'kysely';
import { fromUnits, spotFillOf, toUnits } from '../../../protocol/rules/spot';
import { type CancelReason, SPOT_ORDER_EVENT } from '../../../protocol/spot';
import { currencyScale, type Ledger, type Leg } from '../../ledger';
import { type Instrument, pinTick } from '../../market';
import type { Database } from '../../platform/db/schema';
import { recordUserEvent } from '../../platform/realtime/user-events';
import type { EngineTick } from '../../trading';
import { OPEN_STATES, type SpotOrderRow, toWire } from './orders';
import { ledgerIds } from './place';
import { SPOT_QUOTE_CURRENCY, type Terms } from './terms';

/**
 * The two ways an open order ends, each one transaction: the order's state change (a conditional update from an open
 * state: whichever of a fill and a cancel commits first wins, the other changes nothing), its ledger postings
 * (`ledger.within`) and the user event that announces it. Run twice, the second run finds the order closed and does
 * nothing; the ledger's request ids are a second guard.
 */

export type SettleOutcome = 'filled' | 'cancelled' | 'closed';

const desk = { platform: 'spot_desk' } as const;
const fees = { platform: 'fees' } as const;

/** The order's own terms (RULES: an order keeps the terms it was placed under). */
const termsOf = (row: SpotOrderRow, quoteScale: number): Terms => ({
  feeRate: row.fee_rate,
  minValue: '0',
  priceBand: row.price_band,
  quoteScale,
});

/** Fills `row` at `tick`: the price of the tick, quantity and money by protocol/rules/spot.ts. */
export async function fillOrder(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: SpotOrderRow,
  instrument: Instrument,
  tick: EngineTick,
  now: number,
): Promise<SettleOutcome> {
  const quoteScale = currencyScale(SPOT_QUOTE_CURRENCY);
  const pair = { priceScale: instrument.priceScale, qtyScale: instrument.qtyScale };
  const qty = row.qty === null ? null : toUnits(row.qty, instrument.qtyScale);
  const amount = row.amount === null ? null : toUnits(row.amount, quoteScale);
  const fill = spotFillOf({ side: row.side, mode: row.mode, qty, amount }, tick.units, pair, termsOf(row, quoteScale));
  // A buy never takes more than it holds: a market buy by quantity whose entry tick is above its protection band
  // (or an amount too small for one quantity step at that price) is cancelled instead, its funds released.
  if (fill === null || (row.side === 'buy' && fill.total > BigInt(row.held))) {
    return cancelOrder(trx, ledger, row, 'price_band', now);
  }
  const updated = await trx
    .updateTable('spot_orders')
    .set({
      state: 'completed',
      fill_seq: tick.seq,
      fill_ts: tick.ts,
      fill_price: tick.price,
      fill_qty: fromUnits(fill.qty, instrument.qtyScale),
      fill_value: fromUnits(fill.value, quoteScale),
      fill_fee: fromUnits(fill.fee, quoteScale),
      fill_total: fromUnits(fill.total, quoteScale),
      filled_at: now,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('state', 'in', OPEN_STATES)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return 'closed';

  const book = ledger.within(trx);
  const coinUnits = Number(fill.qty * 10n ** BigInt(currencyScale(instrument.symbol) - instrument.qtyScale));
  const value = Number(fill.value);
  const fee = Number(fill.fee);
  const total = Number(fill.total);
  const userId = row.user_id;
  const nonZero = <T extends { amount: number }>(list: T[]) => list.filter((d) => d.amount !== 0);
  if (row.side === 'buy') {
    // USDT: the held cost goes to the desk (value) and the fee account; the unused rest of the hold is released.
    await book.postHold({
      userId,
      requestId: ledgerIds.fillHold(row.id),
      holdId: row.hold_id,
      to: nonZero([
        { owner: desk, amount: value },
        { owner: fees, amount: fee },
      ]),
    });
    await postLegs(book, userId, row.id, [
      { owner: desk, currency: instrument.symbol, amount: -coinUnits },
      { owner: { userId, type: 'coin' }, currency: instrument.symbol, amount: coinUnits },
    ]);
  } else {
    // The held coin goes to the desk; the desk pays the value, of which the fee goes to the fee account.
    await book.postHold({
      userId,
      requestId: ledgerIds.fillHold(row.id),
      holdId: row.hold_id,
      to: [{ owner: desk, amount: coinUnits }],
    });
    await postLegs(book, userId, row.id, [
      { owner: desk, currency: SPOT_QUOTE_CURRENCY, amount: -value },
      { owner: { userId, type: 'coin' }, currency: SPOT_QUOTE_CURRENCY, amount: total },
      { owner: fees, currency: SPOT_QUOTE_CURRENCY, amount: fee },
    ]);
  }
  // The tick this fill used stays in the price record as long as the order exists (RULES "The price record").
  await pinTick(trx, { symbol: tick.symbol, seq: tick.seq, ts: tick.ts, price: tick.price }, `spot:${row.id}`);
  await recordUserEvent(trx, { userId, kind: SPOT_ORDER_EVENT, data: toWire(updated), at: now });
  return 'filled';
}

async function postLegs(book: Ledger, userId: number, orderId: number, legs: Leg[]): Promise<void> {
  const moving = legs.filter((l) => l.amount !== 0);
  if (moving.length < 2) return;
  await book.post({ userId, requestId: ledgerIds.fillLegs(orderId), kind: 'trade', legs: moving });
}

/** Cancels an open order (its owner, no entry tick, the price band) and releases its hold. */
export async function cancelOrder(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: SpotOrderRow,
  reason: CancelReason,
  now: number,
): Promise<SettleOutcome> {
  const updated = await trx
    .updateTable('spot_orders')
    .set({ state: 'cancelled', cancel_reason: reason, updated_at: now })
    .where('id', '=', row.id)
    .where('state', 'in', OPEN_STATES)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return 'closed';
  await ledger.within(trx).voidHold({ userId: row.user_id, requestId: ledgerIds.release(row.id), holdId: row.hold_id });
  await recordUserEvent(trx, { userId: row.user_id, kind: SPOT_ORDER_EVENT, data: toWire(updated), at: now });
  return 'cancelled';
}

/** A waiting limit order whose entry tick did not cross: it rests (pending) from now on. */
export async function restOrder(trx: Kysely<Database>, row: SpotOrderRow, now: number): Promise<boolean> {
  const updated = await trx
    .updateTable('spot_orders')
    .set({ state: 'pending', updated_at: now })
    .where('id', '=', row.id)
    .where('state', '=', 'waiting')
    .returningAll()
    .executeTakeFirst();
  if (!updated) return false;
  await recordUserEvent(trx, { userId: row.user_id, kind: SPOT_ORDER_EVENT, data: toWire(updated), at: now });
  return true;
}
