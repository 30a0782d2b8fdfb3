import {
  type LeverAccount,
  type LeverDeal,
  type LeverList,
  type LeverPosition,
  type LeverPositionPage,
  leverCalls,
  type SubmitLeverRequest,
} from '../../protocol/lever';
import type { SimulatorBalance } from '../../protocol/simulator';
import { newRequestId } from '../ids';
import { areaApi, type CallOptions, type Refusal, refusal } from './client';

const { callApi, callApiResult } = areaApi(leverCalls);

/**
 * Lever: perpetual contracts (lever/*). Reads show no global loading bar (the pages show their own); the open
 * positions poll runs beside the socket, so it is quiet: a failed poll is simply retried on schedule. Every action on
 * a position answers the position in its new state, so one result type serves them all.
 */
const read = { loading: false } as const;
const background = { quiet: true, loading: false } as const;

/**
 * What an action answered. `answered` is false when no answer came at all (offline, timeout, a body that is not an
 * envelope): the server may still have acted, so a retry of a submission or a margin top-up must carry the same
 * request id.
 */
export type LeverResult = { ok: true; position: LeverPosition } | Refusal;

async function positionResult(call: ReturnType<typeof callApiResult<'lever/submit'>>): Promise<LeverResult> {
  const r = await call;
  if (r.ok) return { ok: true, position: r.data };
  return refusal(r);
}

/** The instruments with their terms, and the contract account of the chosen book (available, cross wallet). */
export function fetchLeverDeal(account: LeverAccount, opts: CallOptions = read): Promise<LeverDeal | false> {
  return callApi('lever/deal', { account }, opts);
}

/**
 * Opens a position (market or limit); send the same `request_id` again to retry the same order (the server applies
 * one id once). Quiet, like every action here: the ticket or the row shows the refusal beside its button.
 */
export function submitLeverOrder(body: SubmitLeverRequest): Promise<LeverResult> {
  return positionResult(callApiResult('lever/submit', body, { quiet: true }));
}

/**
 * What to close of a position: `lots` of it (a whole number from 1 to the lots held; left out: all of it) under
 * `request_id`. A partial close moves money each time it applies, so a retry of one (no answer came) must send the
 * same `request_id` again; left out, a fresh id is made, which suits a full close (closing twice closes once).
 */
export interface LeverClose {
  lots?: number | undefined;
  request_id?: string | undefined;
}

/** Closes a holding position, or `lots` of it, at its next tick (the answer is usually the position `closing`). */
export function closeLeverPosition(id: number, close: LeverClose = {}): Promise<LeverResult> {
  const form = {
    id: String(id),
    request_id: close.request_id ?? newRequestId(),
    ...(close.lots === undefined ? {} : { lots: String(close.lots) }),
  };
  return positionResult(callApiResult('lever/close', form, { quiet: true }));
}

/**
 * Reverses a holding position (RULES "Reverse"): all of it closes at its next tick and the same lots open on the
 * other side at that tick. The answer is the position, closing; the opened side arrives as a position of its own.
 * A retry after no answer must send the same `request_id` (the machine keeps it).
 */
export function reverseLeverPosition(id: number, requestId: string): Promise<LeverResult> {
  return positionResult(callApiResult('lever/reverse', { id: String(id), request_id: requestId }, { quiet: true }));
}

/** What lever/close_all answered: the positions it put into closing (none: an empty list), or the refusal. */
export type LeverCloseAllResult = { ok: true; positions: LeverPosition[] } | Refusal;

/**
 * Closes every holding position of one book, each at its instrument's next tick (orders not yet open and positions
 * already closing are left). A retry is harmless: it closes only what still holds, so it takes no request id.
 * `signal` aborts the wait (the close-all machine stopped); the server may still have done it.
 */
export async function closeAllLeverPositions(
  account: LeverAccount,
  signal?: AbortSignal,
): Promise<LeverCloseAllResult> {
  const r = await callApiResult('lever/close_all', { account }, { quiet: true, ...(signal ? { signal } : {}) });
  if (r.ok) return { ok: true, positions: r.data.positions };
  return refusal(r);
}

/** Cancels an order that has not opened yet (status 0). */
export function cancelLeverOrder(id: number): Promise<LeverResult> {
  return positionResult(callApiResult('lever/cancel', { id: String(id) }, { quiet: true }));
}

/** The new take-profit and stop-loss of a position: an empty or missing one clears it. */
export interface LeverStops {
  id: number;
  take_profit?: string | undefined;
  stop_loss?: string | undefined;
}

export function setLeverStops(stops: LeverStops): Promise<LeverResult> {
  const { id, take_profit, stop_loss } = stops;
  return positionResult(callApiResult('lever/setstop', { id: String(id), take_profit, stop_loss }, { quiet: true }));
}

/** More margin for an isolated holding position; the same `request_id` again applies it once. */
export interface LeverMarginTopUp {
  id: number;
  amount: string;
  request_id: string;
}

export function addLeverMargin(topUp: LeverMarginTopUp): Promise<LeverResult> {
  return positionResult(
    callApiResult(
      'lever/add_margin',
      { id: String(topUp.id), amount: topUp.amount, request_id: topUp.request_id },
      { quiet: true },
    ),
  );
}

export interface LeverPageQuery {
  list: LeverList;
  account: LeverAccount;
  beforeId?: number | null | undefined;
  limit?: number | undefined;
}

/** One page of the user's orders (0), positions (1, 2) or history (3, 4) of one book, newest first. */
export function fetchLeverPositions(
  query: LeverPageQuery,
  opts: CallOptions = read,
): Promise<LeverPositionPage | false> {
  return callApi(
    'lever/my_trade',
    {
      list: query.list,
      account: query.account,
      limit: String(query.limit ?? 20),
      ...(query.beforeId ? { before_id: String(query.beforeId) } : {}),
    },
    opts,
  );
}

/** One position or order of the user's (lever/info). */
export function fetchLeverPosition(id: number, opts: CallOptions = read): Promise<LeverPosition | false> {
  return callApi('lever/info', { id: String(id) }, opts);
}

/** One position's latest state, asked for in the background (one that left the open list unseen: how it ended). */
export const pollLeverPosition = (id: number): Promise<LeverPosition | false> => fetchLeverPosition(id, background);

/**
 * The open orders and positions (status 0, 1, 2) of both books, polled beside the private `positions` topic
 * (streams/lever/positions.ts), whose snapshot carries the same set. False when any of the four lists failed: a
 * partial list would look like positions that closed.
 */
export async function pollOpenPositions(): Promise<LeverPosition[] | false> {
  const lists = await Promise.all(
    (['real', 'simulator'] as const).flatMap((account) =>
      (['orders', 'positions'] as const).map((list) => fetchLeverPositions({ list, account, limit: 100 }, background)),
    ),
  );
  if (lists.some((page) => page === false)) return false;
  return lists.flatMap((page) => (page === false ? [] : page.positions));
}

/** The practice funds of the lever simulator book (granted on first use). */
export function fetchLeverPracticeBalance(opts: CallOptions = read): Promise<SimulatorBalance | false> {
  return callApi('lever/simulator', {}, opts);
}

/** Puts the lever practice funds back to their start (a ledger entry on the simulator book; real money never moves). */
export function resetLeverPracticeFunds(): Promise<SimulatorBalance | false> {
  return callApi('lever/simulator/reset', {});
}
