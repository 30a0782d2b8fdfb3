import type { OptionContract } from '../../../protocol/options';

/**
 * The option chart's line: recorded ticks of one instrument, then each live price after them, one point per tick by
 * its sequence number (a tick chart: equal steps per tick, named by the tick's time), and the running contracts'
 * entry lines with their time left. Pure: the chart component draws what these return.
 */

/** One point: a recorded tick, or a live quote (the same numbering: the feed's per-instrument sequence). */
export interface TickPoint {
  seq: number;
  ts: number;
  /** Exact decimal text. */
  price: string;
}

/** Points a live chart keeps: ten minutes at one tick a second (the longest usual period twice over). */
export const MAX_TICK_POINTS = 600;

/**
 * `held` and `incoming` merged by sequence number, oldest first, the newest `max` kept. A number held already keeps
 * its held point: a recorded tick never changes, and a quote repeats the tick it carries.
 */
export function mergeTicks(
  held: readonly TickPoint[],
  incoming: readonly TickPoint[],
  max = MAX_TICK_POINTS,
): TickPoint[] {
  const bySeq = new Map<number, TickPoint>();
  for (const p of incoming) bySeq.set(p.seq, p);
  for (const p of held) bySeq.set(p.seq, p);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-max);
}

/** Whether `tick` goes after every held point, so the chart only adds it (no redraw of what it shows). */
export const extendsLine = (held: readonly TickPoint[], tick: TickPoint): boolean =>
  tick.seq > (held[held.length - 1]?.seq ?? Number.NEGATIVE_INFINITY);

/** Whole seconds left until `expiryTs` at server time `now`, never below zero (the countdown's own rounding: up). */
export const secondsLeft = (expiryTs: number, now: number): number => Math.max(0, Math.ceil((expiryTs - now) / 1000));

/** A running contract's entry line: where it entered, which way it bets, how long it has left. */
export interface EntryLine {
  id: number;
  direction: OptionContract['direction'];
  price: string;
  left: number;
}

/** The entry lines of `symbol`'s running contracts in `open` (a book's open list), oldest first. */
export function entryLines(open: readonly OptionContract[] | null, symbol: string, now: number): EntryLine[] {
  const lines: EntryLine[] = [];
  for (const c of open ?? []) {
    if (c.symbol !== symbol || c.state !== 'running' || !c.entry || c.expiry_ts === null) continue;
    // Never more than its period: this device's idea of server time may lag it by up to a second (an HTTP date).
    const left = Math.min(c.seconds, secondsLeft(c.expiry_ts, now));
    lines.push({ id: c.id, direction: c.direction, price: c.entry.price, left });
  }
  return lines.sort((a, b) => a.id - b.id);
}

/** A settled contract's entry and exit as the record's ticks hold them, and whether they are the contract's own. */
export interface MarkedTicks {
  entry: TickPoint | null;
  exit: TickPoint | null;
  /** Both found, each the same tick (time and exact price) as the contract names. */
  matches: boolean;
}

const sameTick = (a: TickPoint | null, b: TickPoint | null): boolean =>
  a !== null && b !== null && a.seq === b.seq && a.ts === b.ts && a.price === b.price;

/** The ticks of `recorded` that the contract's entry and exit name, by sequence number. */
export function markedTicks(
  recorded: readonly TickPoint[],
  contract: Pick<OptionContract, 'entry' | 'exit'>,
): MarkedTicks {
  const at = (seq: number | undefined) => (seq === undefined ? null : (recorded.find((p) => p.seq === seq) ?? null));
  const entry = at(contract.entry?.seq);
  const exit = at(contract.exit?.seq);
  return { entry, exit, matches: sameTick(entry, contract.entry) && sameTick(exit, contract.exit) };
}
