import { type Kysely, sql } from 'kysely';
import { fromUnits, spotFillOf, toUnits } from '../../../protocol/rules/spot';
import { type CancelReason, SPOT_ORDER_EVENT } from '../../../protocol/spot';
import { type BatchRequest, currencyScale, type Ledger, type Leg } from '../../ledger';
import { type Instrument, pinTick, pinTicks } from '../../market';
import type { Database } from '../../platform/db/schema';
import { recordUserEvent, recordUserEvents } from '../../platform/realtime/user-events';
import type { EngineTick } from '../../trading';
import { OPEN_STATES, type SpotOrderRow, toWire } from './orders';
import { ledgerIds } from './place';
import { withSpot } from './tables';
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

/** What a fill of `row` at `tick` moves, by protocol/rules/spot.ts; null when the order is to be cancelled instead. */
function fillOf(row: SpotOrderRow, instrument: Instrument, tick: EngineTick) {
  const quoteScale = currencyScale(SPOT_QUOTE_CURRENCY);
  const pair = { priceScale: instrument.priceScale, qtyScale: instrument.qtyScale };
  const qty = row.qty === null ? null : toUnits(row.qty, instrument.qtyScale);
  const amount = row.amount === null ? null : toUnits(row.amount, quoteScale);
  const fill = spotFillOf({ side: row.side, mode: row.mode, qty, amount }, tick.units, pair, termsOf(row, quoteScale));
  // A buy never takes more than it holds: a market buy by quantity whose entry tick is above its protection band
  // (or an amount too small for one quantity step at that price) is cancelled instead, its funds released.
  if (fill === null || (row.side === 'buy' && fill.total > BigInt(row.held))) return null;
  return {
    fill,
    columns: {
      fill_qty: fromUnits(fill.qty, instrument.qtyScale),
      fill_value: fromUnits(fill.value, quoteScale),
      fill_fee: fromUnits(fill.fee, quoteScale),
      fill_total: fromUnits(fill.total, quoteScale),
    },
  };
}

type Fill = NonNullable<ReturnType<typeof fillOf>>['fill'];

/**
 * The ledger requests of a fill, the same for one order alone and for a batch (the request ids make either a
 * replay of the other): the hold paid out, then the trade's other legs.
 */
function fillRequests(row: SpotOrderRow, instrument: Instrument, fill: Fill): BatchRequest[] {
  const coinUnits = Number(fill.qty * 10n ** BigInt(currencyScale(instrument.symbol) - instrument.qtyScale));
  const value = Number(fill.value);
  const fee = Number(fill.fee);
  const total = Number(fill.total);
  const userId = row.user_id;
  const nonZero = <T extends { amount: number }>(list: T[]) => list.filter((d) => d.amount !== 0);
  const requests: BatchRequest[] = [];
  const legs = (list: Leg[]) => {
    const moving = nonZero(list);
    if (moving.length < 2) return;
    requests.push({ op: 'post', userId, requestId: ledgerIds.fillLegs(row.id), kind: 'trade', legs: moving });
  };
  if (row.side === 'buy') {
    // USDT: the held cost goes to the desk (value) and the fee account; the unused rest of the hold is released.
    requests.push({
      op: 'postHold',
      userId,
      requestId: ledgerIds.fillHold(row.id),
      holdId: row.hold_id,
      to: nonZero([
        { owner: desk, amount: value },
        { owner: fees, amount: fee },
      ]),
    });
    legs([
      { owner: desk, currency: instrument.symbol, amount: -coinUnits },
      { owner: { userId, type: 'coin' }, currency: instrument.symbol, amount: coinUnits },
    ]);
  } else {
    // The held coin goes to the desk; the desk pays the value, of which the fee goes to the fee account.
    requests.push({
      op: 'postHold',
      userId,
      requestId: ledgerIds.fillHold(row.id),
      holdId: row.hold_id,
      to: [{ owner: desk, amount: coinUnits }],
    });
    legs([
      { owner: desk, currency: SPOT_QUOTE_CURRENCY, amount: -value },
      { owner: { userId, type: 'coin' }, currency: SPOT_QUOTE_CURRENCY, amount: total },
      { owner: fees, currency: SPOT_QUOTE_CURRENCY, amount: fee },
    ]);
  }
  return requests;
}

/** Fills `row` at `tick`: the price of the tick, quantity and money by protocol/rules/spot.ts. */
export async function fillOrder(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: SpotOrderRow,
  instrument: Instrument,
  tick: EngineTick,
  now: number,
): Promise<SettleOutcome> {
  const computed = fillOf(row, instrument, tick);
  if (computed === null) return cancelOrder(trx, ledger, row, 'price_band', now);
  const updated = await withSpot(trx)
    .updateTable('spot_orders')
    .set({
      state: 'completed',
      fill_seq: tick.seq,
      fill_ts: tick.ts,
      fill_price: tick.price,
      ...computed.columns,
      filled_at: now,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('state', 'in', OPEN_STATES)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return 'closed';

  const book = ledger.within(trx);
  for (const request of fillRequests(row, instrument, computed.fill)) {
    if (request.op === 'postHold') await book.postHold(request);
    else if (request.op === 'post') await book.post(request);
  }
  // The tick this fill used stays in the price record as long as the order exists (RULES "The price record").
  await pinTick(trx, pinned(tick), `spot:${row.id}`);
  await recordUserEvent(trx, { userId: row.user_id, kind: SPOT_ORDER_EVENT, data: toWire(updated), at: now });
  return 'filled';
}

/** Orders per conditional update of `fillMany` (5 parameters per order). */
const UPDATE_ROWS = 500;

/**
 * `fillOrder` for many orders at the same tick, in the caller's transaction, with a few statements whatever their
 * number: one conditional update moves the orders still open (the RETURNING rows are the fills that really happen:
 * an order closed meanwhile is left out, as `fillOrder` would return 'closed'), then one ledger batch, the tick's
 * pins and the events in bulk. The rows, postings and events are those of `fillOrder` per order, so the two paths
 * may alternate (the engine falls back to one by one when a batch fails). Orders to be cancelled instead (price
 * band) take the single path: they are rare.
 */
export async function fillMany(
  trx: Kysely<Database>,
  ledger: Ledger,
  rows: readonly SpotOrderRow[],
  instrument: Instrument,
  tick: EngineTick,
  now: number,
): Promise<Map<number, SettleOutcome>> {
  const outcomes = new Map<number, SettleOutcome>();
  const fills: Array<{ row: SpotOrderRow } & NonNullable<ReturnType<typeof fillOf>>> = [];
  const cancels: SpotOrderRow[] = [];
  const seen = new Set<number>();
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const computed = fillOf(row, instrument, tick);
    if (computed === null) cancels.push(row);
    else fills.push({ row, ...computed });
  }
  const updated = new Map<number, SpotOrderRow>();
  for (let k = 0; k < fills.length; k += UPDATE_ROWS) {
    const chunk = fills.slice(k, k + UPDATE_ROWS);
    const column = (name: keyof (typeof chunk)[number]['columns']) =>
      caseById(chunk.map((f) => [f.row.id, f.columns[name]]));
    const moved = await withSpot(trx)
      .updateTable('spot_orders')
      .set({
        state: 'completed',
        fill_seq: tick.seq,
        fill_ts: tick.ts,
        fill_price: tick.price,
        fill_qty: column('fill_qty'),
        fill_value: column('fill_value'),
        fill_fee: column('fill_fee'),
        fill_total: column('fill_total'),
        filled_at: now,
        updated_at: now,
      })
      .where(
        'id',
        'in',
        chunk.map((f) => f.row.id),
      )
      .where('state', 'in', OPEN_STATES)
      .returningAll()
      .execute();
    for (const row of moved) updated.set(row.id, row);
  }
  // RETURNING has no defined order: the input order decides (entries and events then follow it, as one by one).
  const done = fills.filter((f) => updated.has(f.row.id));
  for (const f of fills) outcomes.set(f.row.id, updated.has(f.row.id) ? 'filled' : 'closed');
  if (done.length > 0) {
    await ledger.within(trx).settleBatch(done.flatMap((f) => fillRequests(f.row, instrument, f.fill)));
    await pinTicks(
      trx,
      pinned(tick),
      done.map((f) => `spot:${f.row.id}`),
    );
    await recordUserEvents(
      trx,
      done.map((f) => ({
        userId: f.row.user_id,
        kind: SPOT_ORDER_EVENT,
        data: toWire(updated.get(f.row.id) ?? f.row),
        at: now,
      })),
    );
  }
  for (const row of cancels) outcomes.set(row.id, await cancelOrder(trx, ledger, row, 'price_band', now));
  return outcomes;
}

const pinned = (tick: EngineTick) => ({ symbol: tick.symbol, seq: tick.seq, ts: tick.ts, price: tick.price });

/** A text value per order id in one expression, so one UPDATE writes each order's own figures. */
const caseById = (pairs: ReadonlyArray<readonly [number, string]>) =>
  sql<string>`case id ${sql.join(
    pairs.map(([id, value]) => sql`when ${id} then ${value}`),
    sql` `,
  )} end`;

/** Cancels an open order (its owner, no entry tick, the price band) and releases its hold. */
export async function cancelOrder(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: SpotOrderRow,
  reason: CancelReason,
  now: number,
): Promise<SettleOutcome> {
  const updated = await withSpot(trx)
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
  const updated = await withSpot(trx)
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
