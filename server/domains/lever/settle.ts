import type { Kysely } from 'kysely';
import { LEVER_POSITION_EVENT, type LeverCancelReason, type LeverCloseReason } from '../../../protocol/lever';
import {
  type CloseAmounts,
  closeAmounts,
  crossMarginBacked,
  initialMargin,
  isolatedLiquidationPrice,
  partialClose,
  splitPosition,
  tradeFee,
} from '../../../protocol/rules/lever';
import { fromUnits } from '../../../protocol/rules/spot';
import type { Ledger, Leg } from '../../ledger';
import { pinTick } from '../../market';
import type { DialectKind } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { recordUserEvent } from '../../platform/realtime/user-events';
import type { EngineTick } from '../../trading';
import { type CrossBacking, lockCrossBacking, type MarkOf } from './cross-backing';
import { earlierParts, type LeverPositionRow, termsOf, toWire, unitsOf } from './positions';
import { leverLedgerIds } from './submit';
import { withLever } from './tables';
import { LEVER_QUOTE } from './terms';

/**
 * How a lever row moves, each step inside the caller's transaction: a conditional update from the phase (and the
 * version) it must be in, so that a step run twice, or by two processes, changes nothing the second time; its
 * ledger postings (`ledger.within`); the pin of the tick it used; the owner's event. Money is computed only by the
 * rule functions of protocol/rules/lever.ts.
 */

const OPENING = ['waiting', 'pending'] as const;

/** The free part of the user's contract account in the row's book (what a cross position can also lose). */
async function freeBalance(trx: Kysely<Database>, ledger: Ledger, row: LeverPositionRow): Promise<bigint> {
  const account = (await ledger.within(trx).balances(row.user_id, row.book)).find(
    (b) => b.type === 'contract' && b.currency === LEVER_QUOTE,
  );
  return BigInt(account?.available ?? 0);
}

async function announce(trx: Kysely<Database>, row: LeverPositionRow, now: number): Promise<void> {
  await recordUserEvent(trx, { userId: row.user_id, kind: LEVER_POSITION_EVENT, data: toWire(row), at: now });
}

/**
 * The order opens at `tick` (its entry tick, or the first tick that crossed its limit): the reserve is released,
 * the open fee paid and the exact initial margin held. When the contract account cannot cover them at this price
 * the order is cancelled instead (`insufficient_margin`). Returns the row after the step, or undefined when it was
 * no longer waiting or pending at this version.
 */
export async function openPosition(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: LeverPositionRow,
  tick: EngineTick,
  now: number,
  guard: { kind: DialectKind; markOf: MarkOf },
): Promise<LeverPositionRow | undefined> {
  const terms = termsOf(row);
  const lots = BigInt(row.lots);
  const margin = initialMargin(lots, tick.units, row.leverage, terms);
  const fee = tradeFee(lots, tick.units, terms);
  // The position's row first (every step of a position locks it first), then the contract account's ledger row,
  // which a transfer out of the account locks too: this open and the transfer each judge what the other left.
  await withLever(trx)
    .selectFrom('lever_positions')
    .select('id')
    .where('id', '=', row.id)
    .$if(guard.kind === 'postgres', (qb) => qb.forUpdate())
    .execute();
  const backing = await lockCrossBacking(trx, guard.kind, row.user_id, row.book, guard.markOf);
  if (
    backing.available + BigInt(row.reserve) < margin + fee ||
    opensIntoBackedMargin(row, tick, margin, fee, backing)
  ) {
    return cancelOrder(trx, ledger, row, 'insufficient_margin', now);
  }
  const liq =
    row.margin_mode === 'isolated'
      ? isolatedLiquidationPrice({ side: row.side, lots, entry: tick.units, margin, terms })
      : null;
  const opened = await withLever(trx)
    .updateTable('lever_positions')
    .set({
      phase: 'holding',
      version: row.version + 1,
      margin: Number(margin),
      open_fee: Number(fee),
      liq_price: liq === null ? null : fromUnits(liq, row.price_scale),
      entry_seq: tick.seq,
      entry_ts: tick.ts,
      entry_price: tick.price,
      terms_since: tick.ts,
      opened_at: now,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('phase', 'in', OPENING)
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  if (!opened) return undefined;
  const book = ledger.within(trx);
  const user = row.user_id;
  if (row.reserve_hold_id !== null) {
    await book.voidHold({ userId: user, requestId: leverLedgerIds.release(row.id), holdId: row.reserve_hold_id });
  }
  if (fee > 0n) {
    await book.debit({
      userId: user,
      requestId: leverLedgerIds.fee(row.id),
      kind: 'fee',
      book: row.book,
      currency: LEVER_QUOTE,
      amount: Number(fee),
      from: 'contract',
      to: 'fees',
    });
  }
  const hold = await book.placeHold({
    userId: user,
    requestId: leverLedgerIds.margin(row.id, opened.version),
    kind: 'margin',
    book: row.book,
    type: 'contract',
    currency: LEVER_QUOTE,
    amount: Number(margin),
    ref: `lever ${row.id}`,
  });
  const held = await withLever(trx)
    .updateTable('lever_positions')
    .set({ margin_hold_id: hold.holdId })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await pinTick(trx, { symbol: tick.symbol, seq: tick.seq, ts: tick.ts, price: tick.price }, `lever:${row.id}`);
  await announce(trx, held, now);
  return held;
}

/**
 * Whether opening would leave the account's cross positions less equity than their initial margin (RULES "Cross
 * margin": money that backs cross positions stays). The open's reserve comes back, its fee leaves, and its margin
 * either stays in the cross wallet behind a new cross position (opened at this tick: no P&L yet) or leaves it for an
 * isolated one. An account with an open cross position that has no mark yet cannot be judged and does not open.
 */
function opensIntoBackedMargin(
  row: LeverPositionRow,
  tick: EngineTick,
  margin: bigint,
  fee: bigint,
  backing: CrossBacking,
): boolean {
  if (backing.unpriced) return true;
  const cross = row.margin_mode === 'cross';
  const positions = [...backing.positions];
  if (cross) {
    const opened = { side: row.side, lots: BigInt(row.lots), entry: tick.units, terms: termsOf(row) };
    positions.push({ ...opened, leverage: row.leverage, mark: tick.units });
  }
  const leaving = fee + (cross ? 0n : margin);
  return crossMarginBacked(backing.wallet + BigInt(row.reserve), leaving, termsOf(row).quoteScale, positions);
}

/** A limit open whose entry tick did not cross: it rests (status 0, pending) until a tick does. */
export async function restPending(
  trx: Kysely<Database>,
  row: LeverPositionRow,
  tick: EngineTick,
  now: number,
): Promise<LeverPositionRow | undefined> {
  const pending = await withLever(trx)
    .updateTable('lever_positions')
    .set({ phase: 'pending', version: row.version + 1, terms_since: tick.ts, updated_at: now })
    .where('id', '=', row.id)
    .where('phase', '=', 'waiting')
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  if (pending) await announce(trx, pending, now);
  return pending;
}

/** The order leaves before opening: by its owner, no tick within the wait, or too little margin at its tick. */
export async function cancelOrder(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: LeverPositionRow,
  reason: LeverCancelReason,
  now: number,
): Promise<LeverPositionRow | undefined> {
  const cancelled = await withLever(trx)
    .updateTable('lever_positions')
    .set({ phase: 'cancelled', version: row.version + 1, cancel_reason: reason, closed_at: now, updated_at: now })
    .where('id', '=', row.id)
    .where('phase', 'in', OPENING)
    .where('version', '=', row.version)
    .returningAll()
    .executeTakeFirst();
  if (!cancelled) return undefined;
  if (row.reserve_hold_id !== null) {
    await ledger
      .within(trx)
      .voidHold({ userId: row.user_id, requestId: leverLedgerIds.release(row.id), holdId: row.reserve_hold_id });
  }
  await announce(trx, cancelled, now);
  return cancelled;
}

/** The ledger legs of a close: the user's contract account, the lever desk, the fee account, the insurance fund. */
function closeLegs(row: LeverPositionRow, amounts: CloseAmounts): Leg[] {
  const legs: Leg[] = [
    { owner: { userId: row.user_id, type: 'contract' }, currency: LEVER_QUOTE, amount: Number(amounts.userDelta) },
    { owner: { platform: 'lever_desk' }, currency: LEVER_QUOTE, amount: Number(amounts.desk) },
    { owner: { platform: 'fees' }, currency: LEVER_QUOTE, amount: Number(amounts.feePaid) },
    { owner: { platform: 'insurance_fund' }, currency: LEVER_QUOTE, amount: Number(amounts.insurance) },
  ];
  // A posting of 0 moves nothing (and the ledger refuses it).
  return legs.filter((leg) => leg.amount !== 0);
}

/**
 * The position closes at `tick` for `reason` (RULES "Lever"): the margin hold is released and the close's money
 * (closeAmounts) posted in one entry. An isolated position can lose at most its margin; a cross one also the free
 * contract balance; what lies beyond is the insurance fund's. Only from holding or closing, at the version the
 * caller saw: a trigger the user has changed since does not fire on its old price.
 */
export async function closePosition(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: LeverPositionRow,
  tick: EngineTick,
  reason: LeverCloseReason,
  now: number,
): Promise<LeverPositionRow | undefined> {
  const units = unitsOf(row);
  // The row as the engine saw it at the tick (version v), or one change later when that change came at or after the
  // tick: a tick at time T is judged by the terms in force at T, so an owner's close, new stops or added margin
  // accepted after T cannot undo what T decided (the engine may learn of the change before it reaches T).
  const claimed = await withLever(trx)
    .updateTable('lever_positions')
    .set((eb) => ({ phase: 'closed', version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', row.id)
    .where('phase', 'in', ['holding', 'closing'])
    .where((eb) =>
      eb.or([
        eb('version', '=', row.version),
        eb.and([eb('version', '=', row.version + 1), eb('terms_since', '>=', tick.ts)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return undefined;
  const book = ledger.within(trx);
  // The hold as it now is (added margin after the tick replaced it): all of it is released, and the close charges
  // only what the rules ask at the tick, so margin added after the tick comes back.
  if (claimed.margin_hold_id !== null) {
    await book.voidHold({
      userId: row.user_id,
      requestId: leverLedgerIds.releaseMargin(row.id),
      holdId: claimed.margin_hold_id,
    });
  }
  const canLose = row.margin_mode === 'isolated' ? units.margin : await freeBalance(trx, ledger, row);
  const amounts = closeAmounts(units, tick.units, reason, canLose);
  const legs = closeLegs(row, amounts);
  if (legs.length > 0) {
    await book.post({
      userId: row.user_id,
      requestId: leverLedgerIds.close(row.id),
      kind: 'trade',
      book: row.book,
      legs,
      memo: `lever ${row.id} ${reason}`,
    });
  }
  const closed = await withLever(trx)
    .updateTable('lever_positions')
    .set({
      exit_seq: tick.seq,
      exit_ts: tick.ts,
      exit_price: tick.price,
      close_fee: Number(amounts.feePaid),
      realized_pnl: Number(amounts.pnl),
      insurance: Number(amounts.insurance),
      close_reason: reason,
      closed_at: now,
      // The terms in force at the tick, so the row shows (and the re-check recomputes) what decided the close.
      added_margin: row.added_margin,
      liq_price: row.liq_price,
      tp_price: row.tp_price,
      sl_price: row.sl_price,
      // A cross position's LP is only known against the account; at a liquidation the crossing tick is its LP.
      ...(reason === 'liquidation' && row.margin_mode === 'cross' ? { liq_price: tick.price } : {}),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await pinTick(trx, { symbol: tick.symbol, seq: tick.seq, ts: tick.ts, price: tick.price }, `lever:${row.id}`);
  await announce(trx, closed, now);
  return closed;
}

/** A partial close's two rows after its tick: the position holding the rest, and the part closed off it. */
export interface ClosedPart {
  position: LeverPositionRow;
  part: LeverPositionRow;
}

/**
 * k of a closing position's n lots close at `tick` (RULES "Partial close"; k = the row's close_lots, 1 ≤ k < n), in
 * the caller's transaction. The position keeps its id and goes back to holding with n − k lots, the margin left,
 * its share of the open fee and an LP recomputed from them; its margin hold is replaced by one of the margin left.
 * The part becomes a row of its own, closed by its owner at `tick`: it names the position's entry tick and this exit
 * tick, holds its shares (rules splitPosition: margin × k / n rounded down to the user, the open fee likewise) and the
 * close money of rules partialClose (its own P&L and the close fee on its own notional), posted in one entry. So a
 * part settles, shows and re-checks exactly like a whole close of k lots, and a position's parts and what it holds
 * always add up to what it opened with. The part keeps the position's acceptance time (its entry was decided by it),
 * the close's request id (a retry finds it) and the basis it was split from.
 *
 * Only from closing at the version the engine saw: nothing but the engine changes a closing row, so any other
 * version means this close already happened (another process) or a liquidation took the whole position first.
 */
export async function closePart(
  trx: Kysely<Database>,
  ledger: Ledger,
  row: LeverPositionRow,
  tick: EngineTick,
  now: number,
): Promise<ClosedPart | undefined> {
  if (row.close_lots === null || row.margin === null) return undefined;
  const units = unitsOf(row);
  const k = BigInt(row.close_lots);
  const whole = {
    lots: units.lots,
    initialMargin: BigInt(row.margin),
    addedMargin: BigInt(row.added_margin),
    openFee: BigInt(row.open_fee ?? 0),
  };
  const { part, rest } = splitPosition(whole, k);
  const restMargin = rest.initialMargin + rest.addedMargin;
  const restLp =
    row.margin_mode === 'isolated'
      ? isolatedLiquidationPrice({
          side: row.side,
          lots: rest.lots,
          entry: units.entry,
          margin: restMargin,
          terms: units.terms,
        })
      : null;
  const version = row.version + 1;
  const position = await withLever(trx)
    .updateTable('lever_positions')
    .set({
      phase: 'holding',
      version,
      lots: Number(rest.lots),
      margin: Number(rest.initialMargin),
      added_margin: Number(rest.addedMargin),
      open_fee: Number(rest.openFee),
      liq_price: restLp === null ? null : fromUnits(restLp, row.price_scale),
      close_lots: null,
      close_request_id: null,
      close_requested_at: null,
      opened_lots: row.opened_lots ?? row.lots,
      earlier_parts: [...earlierParts(row), Number(k)].join(','),
      // The rest's new terms judge the ticks after this one; this tick itself the engine checks at once (engine.ts).
      terms_since: tick.ts,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .where('phase', '=', 'closing')
    .where('version', '=', row.version)
    .where('close_lots', '=', row.close_lots)
    .returningAll()
    .executeTakeFirst();
  if (!position) return undefined;
  const closed = await withLever(trx)
    .insertInto('lever_positions')
    .values({
      user_id: row.user_id,
      book: row.book,
      symbol: row.symbol,
      side: row.side,
      margin_mode: row.margin_mode,
      order_type: row.order_type,
      lots: Number(k),
      contract_size: row.contract_size,
      leverage: row.leverage,
      mmr: row.mmr,
      fee_rate: row.fee_rate,
      price_scale: row.price_scale,
      limit_price: row.limit_price,
      // The terms in force at the tick, as a whole close keeps them.
      tp_price: row.tp_price,
      sl_price: row.sl_price,
      liq_price: row.liq_price,
      phase: 'closed',
      version: 1,
      reserve: 0,
      margin: Number(part.initialMargin),
      added_margin: Number(part.addedMargin),
      open_fee: Number(part.openFee),
      entry_seq: row.entry_seq,
      entry_ts: row.entry_ts,
      entry_price: row.entry_price,
      exit_seq: tick.seq,
      exit_ts: tick.ts,
      exit_price: tick.price,
      close_reason: 'user',
      // Client ids are claimed per user across every call, so the close's id cannot be another row's. The digest is
      // the submit's kind and this row was no submit: none matches it.
      request_id: row.close_request_id ?? `part:${row.id}:${version}`,
      request_digest: '',
      terms_since: tick.ts,
      accepted_at: row.accepted_at,
      opened_at: row.opened_at,
      close_requested_at: row.close_requested_at,
      closed_at: now,
      created_at: row.created_at,
      updated_at: now,
      close_request_id: row.close_request_id,
      part_of: row.id,
      opened_lots: row.opened_lots ?? row.lots,
      earlier_parts: row.earlier_parts,
      basis_lots: row.lots,
      basis_margin: row.margin,
      basis_added_margin: row.added_margin,
      basis_open_fee: row.open_fee,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const book = ledger.within(trx);
  const user = row.user_id;
  // The margin hold is replaced by one of the margin left before the part's money moves, so that the part's margin
  // share is free to settle its loss and fee, exactly as a whole close releases its hold first.
  if (row.margin_hold_id !== null) {
    await book.voidHold({ userId: user, requestId: leverLedgerIds.swap(row.id, version), holdId: row.margin_hold_id });
  }
  let holdId: number | null = null;
  if (restMargin > 0n) {
    const hold = await book.placeHold({
      userId: user,
      requestId: leverLedgerIds.margin(row.id, version),
      kind: 'margin',
      book: row.book,
      type: 'contract',
      currency: LEVER_QUOTE,
      amount: Number(restMargin),
      ref: `lever ${row.id}`,
    });
    holdId = hold.holdId;
  }
  // An isolated part loses at most its margin share; a cross one also the free contract balance (as a whole close).
  const canLose = row.margin_mode === 'isolated' ? undefined : await freeBalance(trx, ledger, row);
  const { amounts } = partialClose(
    { ...whole, side: row.side, entry: units.entry, terms: units.terms },
    k,
    tick.units,
    canLose,
  );
  const legs = closeLegs(row, amounts);
  if (legs.length > 0) {
    await book.post({
      userId: user,
      requestId: leverLedgerIds.close(closed.id),
      kind: 'trade',
      book: row.book,
      legs,
      memo: `lever ${row.id} part ${closed.id} user`,
    });
  }
  const settledPart = await withLever(trx)
    .updateTable('lever_positions')
    .set({
      close_fee: Number(amounts.feePaid),
      realized_pnl: Number(amounts.pnl),
      insurance: Number(amounts.insurance),
    })
    .where('id', '=', closed.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const held = await withLever(trx)
    .updateTable('lever_positions')
    .set({ margin_hold_id: holdId })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // The part used both ticks: they are kept as long as it exists.
  if (row.entry_seq !== null && row.entry_ts !== null && row.entry_price !== null) {
    await pinTick(
      trx,
      { symbol: row.symbol, seq: row.entry_seq, ts: row.entry_ts, price: row.entry_price },
      `lever:${closed.id}`,
    );
  }
  await pinTick(trx, { symbol: tick.symbol, seq: tick.seq, ts: tick.ts, price: tick.price }, `lever:${closed.id}`);
  await announce(trx, settledPart, now);
  await announce(trx, held, now);
  return { position: held, part: settledPart };
}

/**
 * The open half of a reverse (RULES "Reverse"), in the transaction that has just closed `closed` in full at `tick`:
 * a market order of the same lots, leverage and margin mode on the other side, without TP/SL, opened at that same
 * tick by openPosition, so its margin and fee are the rules' at the tick and come out of what the close freed. When
 * they are not there the order is cancelled `insufficient_margin` (openPosition) and the close stands: the refused
 * row stays in the history with its reason. The order keeps the instrument terms of the position it reverses, so
 * the same lots are the same quantity. It was accepted with the reverse (its `created_at`, the request's time), so
 * its entry is the first recorded tick after the request, as for any market order, and that is the close's tick.
 * Its request id is the reverse's (client ids are claimed per user across every call: no other row has it).
 */
export async function reversePosition(
  trx: Kysely<Database>,
  ledger: Ledger,
  closed: LeverPositionRow,
  tick: EngineTick,
  now: number,
  guard: { kind: DialectKind; markOf: MarkOf },
): Promise<LeverPositionRow | undefined> {
  const requestId = closed.reverse_request_id;
  if (requestId === null) return undefined;
  const accepted = closed.close_requested_at ?? now;
  const order = await withLever(trx)
    .insertInto('lever_positions')
    .values({
      user_id: closed.user_id,
      book: closed.book,
      symbol: closed.symbol,
      side: closed.side === 'long' ? 'short' : 'long',
      margin_mode: closed.margin_mode,
      order_type: 'market',
      lots: closed.lots,
      contract_size: closed.contract_size,
      leverage: closed.leverage,
      mmr: closed.mmr,
      fee_rate: closed.fee_rate,
      price_scale: closed.price_scale,
      limit_price: null,
      tp_price: null,
      sl_price: null,
      phase: 'waiting',
      version: 1,
      // Nothing reserved: the open draws on the contract account right after the close, in this transaction.
      reserve: 0,
      reserve_hold_id: null,
      added_margin: 0,
      request_id: requestId,
      request_digest: '',
      terms_since: accepted,
      accepted_at: accepted,
      created_at: accepted,
      updated_at: now,
      reversed_from: closed.id,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return openPosition(trx, ledger, order, tick, now, guard);
}
