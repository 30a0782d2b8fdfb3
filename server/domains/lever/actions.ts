import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import type {
  leverAddMarginRequest,
  leverCloseRequest,
  leverReverseRequest,
  leverSetStopRequest,
} from '../../../protocol/lever';
import { LEVER_POSITION_EVENT } from '../../../protocol/lever';
import { isolatedLiquidationPrice, stopProblem } from '../../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';
import { ledgerEdge, parseAmount, withLedger } from '../../ledger';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { confirmClaimedRequest } from '../../platform/request-ids';
import { refuseBackedCrossMargin } from './cross-backing';
import { type LeverPositionRow, positionOf, priceUnits, toWire, unitsOf } from './positions';
import { cancelOrder } from './settle';
import { type LeverServices, leverLedgerIds } from './submit';
import { withLever } from './tables';
import { LEVER_QUOTE } from './terms';

/**
 * The owner's changes to an order or position: close, cancel, TP/SL and added margin. Each is one transaction with
 * a conditional update at the version the caller read (a change that lost a race to the engine reads again and
 * answers from the new state), and each tells the engine (`onChanged`) so that it acts on the change at once.
 */

async function owned(s: LeverServices, userId: number, id: number): Promise<LeverPositionRow> {
  const row = await positionOf(s.database.db, userId, id);
  if (!row) throw new BusinessError('orderNotFound', { field: 'id' });
  return row;
}

function changed(s: LeverServices, row: LeverPositionRow) {
  s.onChanged?.(row);
  return toWire(row);
}

type CloseInput = z.output<typeof leverCloseRequest>;

/** Whether `requestId` already closed a part off position `id` (a retry of a partial close that has settled). */
async function partClosedBy(s: LeverServices, userId: number, id: number, requestId: string): Promise<boolean> {
  const part = await withLever(s.database.db)
    .selectFrom('lever_positions')
    .select('id')
    .where('user_id', '=', userId)
    .where('request_id', '=', requestId)
    .where('part_of', '=', id)
    .executeTakeFirst();
  return part !== undefined;
}

/**
 * Puts a holding row into closing at `now` for `lots` of it (null: all), in the caller's transaction; `reverse`: the
 * whole close of lever/reverse, after which the engine opens the other side at the same tick.
 */
async function markClosing(
  trx: Kysely<Database>,
  row: LeverPositionRow,
  now: number,
  close: { lots: number | null; requestId: string | null; reverse?: boolean },
): Promise<LeverPositionRow | undefined> {
  const updated = await withLever(trx)
    .updateTable('lever_positions')
    .set({
      phase: 'closing',
      version: row.version + 1,
      close_lots: close.lots,
      close_request_id: close.requestId,
      reverse_request_id: close.reverse ? close.requestId : null,
      close_requested_at: now,
      terms_since: now,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('phase', '=', 'holding')
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  if (updated)
    await recordUserEvent(trx, { userId: row.user_id, kind: LEVER_POSITION_EVENT, data: toWire(updated), at: now });
  return updated;
}

/**
 * lever/close: a holding position closes at the first tick after now (status 2 closing until then), all of it or
 * `lots` of it (RULES "Partial close": the engine splits the part off at that tick, settle.ts closePart). A partial
 * close moves money each time it applies, so its request id decides: a retry (same id: still closing, or its part
 * already closed off) answers the position as it now is. While a close waits for its tick no other close is taken
 * (`leverAlreadyClosing`): the same full close again answers as before, anything else is refused, so a part cannot
 * be closed twice and a full close cannot silently leave a part's rest holding. More lots than held changes nothing
 * (`leverCloseTooManyLots`). The close's own race with a trigger is settled by the engine as for a whole close: a
 * tick at or before the request that crossed a trigger closes the whole position by that trigger.
 */
export async function requestClose(s: LeverServices, userId: number, input: CloseInput) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await owned(s, userId, input.id);
    if (row.close_request_id === input.request_id) return toWire(row);
    if (await partClosedBy(s, userId, row.id, input.request_id)) return toWire(row);
    if (row.phase !== 'holding' && row.phase !== 'closing' && row.phase !== 'closed') {
      throw new BusinessError('leverNotOpen');
    }
    if (input.lots !== undefined && input.lots > row.lots)
      throw new BusinessError('leverCloseTooManyLots', { field: 'lots' });
    const whole = input.lots === undefined || input.lots === row.lots;
    if (row.phase === 'closing') {
      // A waiting reverse is more than a close: a plain close cannot answer for it (the other side would still open).
      if (whole && row.close_lots === null && row.reverse_request_id === null) return toWire(row);
      throw new BusinessError('leverAlreadyClosing');
    }
    if (row.phase === 'closed') {
      if (whole) return toWire(row);
      throw new BusinessError('leverNotOpen');
    }
    const now = s.now();
    const closing = await writeTransaction(s.database, async (trx) => {
      const updated = await markClosing(trx, row, now, {
        lots: whole ? null : (input.lots ?? null),
        requestId: input.request_id,
      });
      // With the effect, not before it: a lost version race commits nothing, not even the confirmation.
      if (updated) await confirmClaimedRequest(trx, userId);
      return updated;
    });
    if (closing) return changed(s, closing);
  }
  return toWire(await owned(s, userId, input.id));
}

type ReverseInput = z.output<typeof leverReverseRequest>;

/**
 * lever/reverse (RULES "Reverse"): a holding position closes in full at the first tick after now, and the engine
 * opens the same lots on the other side at that tick in the same transaction (engine.ts, settle.ts reversePosition).
 * Only from holding: a position already closing (a close, a partial close or another reverse waiting) takes no
 * reverse (`leverAlreadyClosing`), so one tick never closes a position twice or opens two reverses. A retry (same
 * request id) answers the position as it now is, closing or closed; the opened side names it in `reversed_from`.
 */
export async function requestReverse(s: LeverServices, userId: number, input: ReverseInput) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await owned(s, userId, input.id);
    if (row.reverse_request_id === input.request_id) return toWire(row);
    if (row.phase === 'closing') throw new BusinessError('leverAlreadyClosing');
    if (row.phase !== 'holding') throw new BusinessError('leverNotOpen');
    const now = s.now();
    const closing = await writeTransaction(s.database, async (trx) => {
      const updated = await markClosing(trx, row, now, { lots: null, requestId: input.request_id, reverse: true });
      // With the effect, not before it: a lost version race commits nothing, not even the confirmation.
      if (updated) await confirmClaimedRequest(trx, userId);
      return updated;
    });
    if (closing) return changed(s, closing);
  }
  return toWire(await owned(s, userId, input.id));
}

/**
 * lever/close_all: every holding position of the user's book is asked to close in full, each at the first tick of
 * its instrument after now (RULES "Partial close": close-all). Each position is its own conditional update, in its
 * own transaction, as a close of it alone would be (one row locked at a time, like the engine's steps): a position
 * the engine closed meanwhile (a trigger at an earlier tick) is left to that close. Orders not yet open (status 0)
 * and positions already closing are not touched. Answers the positions it put into closing. Unlike a partial close it
 * needs no request id: a retry asks for the same end state (nothing holding), and only what holds then is closed.
 */
export async function closeAll(s: LeverServices, userId: number, book: 'real' | 'simulator') {
  const rows = await withLever(s.database.db)
    .selectFrom('lever_positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('book', '=', book)
    .where('phase', '=', 'holding')
    .orderBy('id')
    .execute();
  const now = s.now();
  const closing: LeverPositionRow[] = [];
  for (const first of rows) {
    // A row that changed between the read and the update (a new mark's stops, added margin) is read again and
    // tried again while it still holds, as a single close is.
    let row = first;
    for (let attempt = 0; attempt < 3 && row.phase === 'holding'; attempt++) {
      const current = row;
      const updated = await writeTransaction(s.database, (trx) =>
        markClosing(trx, current, now, { lots: null, requestId: null }),
      );
      if (updated) {
        closing.push(updated);
        break;
      }
      row = await owned(s, userId, row.id);
    }
  }
  for (const row of closing) s.onChanged?.(row);
  return { positions: closing.map((row) => toWire(row)) };
}

/** lever/cancel: an order that has not opened (status 0) is cancelled and its reserve released. */
export async function cancelByOwner(s: LeverServices, userId: number, id: number) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await owned(s, userId, id);
    if (row.phase === 'cancelled') return toWire(row);
    if (row.phase !== 'waiting' && row.phase !== 'pending') throw new BusinessError('leverNotOpen');
    const cancelled = await writeTransaction(s.database, (trx) => cancelOrder(trx, s.ledger, row, 'user', s.now()));
    if (cancelled) return changed(s, cancelled);
  }
  return toWire(await owned(s, userId, id));
}

type SetStopInput = z.output<typeof leverSetStopRequest>;

/**
 * lever/setstop: new TP and SL for an order or an open position, checked as at submit: against the entry (or the
 * limit, or the last price while waiting) and, isolated, the liquidation price.
 */
export async function setStops(s: LeverServices, userId: number, input: SetStopInput) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await owned(s, userId, input.id);
    if (!['waiting', 'pending', 'holding'].includes(row.phase)) throw new BusinessError('leverNotOpen');
    const stop = (text: string | undefined, field: string) => {
      if (!text) return null;
      const units = toUnits(text, row.price_scale);
      if (units === null || units <= 0n) throw new BusinessError('leverStopPriceInvalid', { field });
      return units;
    };
    const takeProfit = stop(input.take_profit, 'take_profit');
    const stopLoss = stop(input.stop_loss, 'stop_loss');
    const quote = s.feed?.quote(row.symbol);
    let reference: bigint | null = null;
    let lp: bigint | null = null;
    if (row.phase === 'holding') {
      reference = priceUnits(row, row.entry_price ?? '0');
      lp = row.margin_mode === 'isolated' ? isolatedLiquidationPrice(unitsOf(row)) : null;
    } else {
      reference = row.limit_price
        ? priceUnits(row, row.limit_price)
        : quote
          ? toUnits(quote.last, row.price_scale)
          : null;
    }
    if (reference === null) throw new BusinessError('spotNoPrice', { field: 'symbol' });
    const problem = stopProblem(row.side, reference, lp, takeProfit, stopLoss);
    if (problem)
      throw new BusinessError(problem, { field: problem === 'leverTakeProfitSide' ? 'take_profit' : 'stop_loss' });
    const now = s.now();
    const updated = await writeTransaction(s.database, async (trx) => {
      const next = await withLever(trx)
        .updateTable('lever_positions')
        .set({
          tp_price: takeProfit === null ? null : fromUnits(takeProfit, row.price_scale),
          sl_price: stopLoss === null ? null : fromUnits(stopLoss, row.price_scale),
          version: row.version + 1,
          terms_since: now,
          updated_at: now,
        })
        .where('id', '=', row.id)
        .where('phase', '=', row.phase)
        .where('version', '=', row.version)
        .returningAll()
        .executeTakeFirst();
      if (next) await recordUserEvent(trx, { userId, kind: LEVER_POSITION_EVENT, data: toWire(next), at: now });
      return next;
    });
    if (updated) return changed(s, updated);
  }
  throw new BusinessError('leverNotOpen');
}

type AddMarginInput = z.output<typeof leverAddMarginRequest>;

/** Locks a hold row (PostgreSQL; SQLite's write transaction holds its one lock already). */
async function lockHold(trx: Kysely<Database>, s: LeverServices, holdId: number): Promise<void> {
  await withLedger(trx)
    .selectFrom('ledger_holds')
    .select('id')
    .where('id', '=', holdId)
    .$if(s.database.kind === 'postgres', (qb) => qb.forUpdate())
    .execute();
}

/**
 * lever/add_margin: more margin for an isolated holding position (RULES "Adding margin"): the margin hold is
 * replaced by one of the new total and the liquidation price moves away. A retry with the same request id changes
 * nothing twice (the ledger's request id of the new hold). The ledger's entry cannot tell which position or amount
 * an id was for, so the request-id claim (platform/request-ids) is what refuses the same id with other arguments:
 * the router checks it before this runs, and the transaction confirms it with the effect.
 */
export async function addMargin(s: LeverServices, userId: number, input: AddMarginInput) {
  const parsed = parseAmount(LEVER_QUOTE, input.amount);
  if (!parsed.ok || parsed.units <= 0) throw new BusinessError('leverMarginInvalid', { field: 'amount' });
  const delta = parsed.units;
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await owned(s, userId, input.id);
    const replay = await withLedger(s.database.db)
      .selectFrom('ledger_entries')
      .select('id')
      .where('user_id', '=', userId)
      .where('request_id', '=', leverLedgerIds.add(input.request_id))
      .executeTakeFirst();
    if (replay) return toWire(row);
    if (row.phase !== 'holding') throw new BusinessError('leverNotOpen');
    if (row.margin_mode !== 'isolated') throw new BusinessError('leverAddMarginIsolatedOnly');
    const now = s.now();
    const updated = await ledgerEdge(
      () =>
        writeTransaction(s.database, async (trx) => {
          const added = row.added_margin + delta;
          const lp = isolatedLiquidationPrice({ ...unitsOf(row), margin: BigInt(row.margin ?? 0) + BigInt(added) });
          const next = await withLever(trx)
            .updateTable('lever_positions')
            .set({
              added_margin: added,
              liq_price: lp === null ? null : fromUnits(lp, row.price_scale),
              version: row.version + 1,
              terms_since: now,
              updated_at: now,
            })
            .where('id', '=', row.id)
            .where('phase', '=', 'holding')
            .where('version', '=', row.version)
            .returningAll()
            .executeTakeFirst();
          if (!next) return undefined;
          // With the effect, not before it: a lost version race commits nothing, not even the confirmation.
          await confirmClaimedRequest(trx, userId);
          // The margin comes out of the contract account's available money, which also backs its cross positions
          // (RULES "Cross margin"): judged like a transfer out, under the locks the ledger then takes, in its order
          // (the position's row above, the hold before any account, then the contract account that a transfer and a
          // cross open lock too), so add_margin, transfers and opens each see what the others left.
          if (row.margin_hold_id !== null) await lockHold(trx, s, row.margin_hold_id);
          const markOf = (symbol: string) => s.feed?.quote(symbol)?.last;
          await refuseBackedCrossMargin(trx, s.database.kind, userId, row.book, BigInt(delta), markOf);
          const book = s.ledger.within(trx);
          if (row.margin_hold_id !== null) {
            await book.voidHold({
              userId,
              requestId: leverLedgerIds.swap(row.id, next.version),
              holdId: row.margin_hold_id,
            });
          }
          const hold = await book.placeHold({
            userId,
            requestId: leverLedgerIds.add(input.request_id),
            kind: 'margin',
            book: row.book,
            type: 'contract',
            currency: LEVER_QUOTE,
            amount: (row.margin ?? 0) + added,
            ref: `lever ${row.id}`,
          });
          const held = await withLever(trx)
            .updateTable('lever_positions')
            .set({ margin_hold_id: hold.holdId })
            .where('id', '=', row.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          await recordUserEvent(trx, { userId, kind: LEVER_POSITION_EVENT, data: toWire(held), at: now });
          return held;
        }),
      { insufficientBalance: 'amount' },
    );
    if (updated) return changed(s, updated);
  }
  throw new BusinessError('leverNotOpen');
}
