import { describe, expect, it } from 'vitest';
import { EntryWaits } from './entry-waits';
import { type EngineTick, TickWindow } from './tick-window';

const tick = (symbol: string, seq: number, ts: number, units = 100n): EngineTick => ({
  symbol,
  seq,
  ts,
  price: String(units),
  units,
});

describe('entry-tick waits (RULES "Which tick counts")', () => {
  it('an order takes the first tick of its instrument strictly after acceptance', () => {
    const window = new TickWindow();
    const waits = new EntryWaits<string>(window);
    expect(waits.add('a', 'BTC', 1_000, 'a')).toBeUndefined();
    expect(waits.add('b', 'BTC', 2_000, 'b')).toBeUndefined();
    // A tick at the acceptance time itself is not after it.
    expect(waits.onTick(tick('BTC', 1, 1_000))).toEqual([]);
    expect(waits.onTick(tick('ETH', 1, 1_500))).toEqual([]);
    expect(waits.onTick(tick('BTC', 2, 1_500)).map((e) => e.item)).toEqual(['a']);
    const later = waits.onTick(tick('BTC', 3, 2_001));
    expect(later.map((e) => [e.item, e.tick.seq])).toEqual([['b', 3]]);
    expect(waits.size).toBe(0);
  });

  it('an order learned late finds its entry tick in the window instead of the next one', () => {
    const window = new TickWindow();
    const waits = new EntryWaits<string>(window);
    window.push(tick('BTC', 7, 1_000));
    window.push(tick('BTC', 8, 2_000));
    window.push(tick('BTC', 9, 3_000));
    expect(waits.add('late', 'BTC', 1_500, 'late')).toMatchObject({ item: 'late', tick: { seq: 8 } });
    expect(waits.add('now', 'BTC', 3_000, 'now')).toBeUndefined();
    expect(waits.has('now')).toBe(true);
  });

  it('expires orders whose wait ran out and keeps the rest; removal forgets an order', () => {
    const waits = new EntryWaits<string>(new TickWindow());
    waits.add('a', 'BTC', 1_000, 'a');
    waits.add('b', 'ETH', 5_000, 'b');
    waits.add('c', 'ETH', 9_000, 'c');
    waits.remove('c');
    expect(waits.expire(5_000).sort()).toEqual(['a', 'b']);
    expect(waits.size).toBe(0);
    expect(waits.onTick(tick('ETH', 1, 10_000))).toEqual([]);
  });

  it('keeps acceptance order when an order is learned out of order', () => {
    const waits = new EntryWaits<string>(new TickWindow());
    waits.add('second', 'BTC', 2_000, 'second');
    waits.add('first', 'BTC', 1_000, 'first');
    expect(waits.onTick(tick('BTC', 1, 1_500)).map((e) => e.item)).toEqual(['first']);
  });
});

describe('tick window', () => {
  it('forgets ticks older than it keeps, but always the newest, and ignores repeats', () => {
    const window = new TickWindow(10_000);
    window.push(tick('BTC', 1, 0));
    window.push(tick('BTC', 2, 5_000));
    window.push(tick('BTC', 2, 5_000));
    window.push(tick('BTC', 3, 20_000));
    expect(window.covers('BTC', 5_000)).toBe(false);
    expect(window.firstAfter('BTC', 0)?.seq).toBe(3);
    expect(window.firstAfter('BTC', 20_000)).toBeUndefined();
  });

  it('shows a span as tick-free only once it reaches back to its start and has seen past its end', () => {
    const window = new TickWindow(15_000);
    // A restarted leader sends again the steps before an acceptance at 1 000; the tick at 4 000 is still to come.
    window.push(tick('BTC', 1, 500));
    expect(window.holdsSpan('BTC', 1_000, 11_000)).toBe(false);
    window.push(tick('BTC', 2, 4_000));
    expect(window.holdsSpan('BTC', 1_000, 11_000)).toBe(false);
    window.push(tick('BTC', 3, 12_000));
    expect(window.holdsSpan('BTC', 1_000, 11_000)).toBe(true);
    // A window that starts after the span's start cannot show it.
    expect(window.holdsSpan('BTC', 100, 11_000)).toBe(false);
    expect(window.holdsSpan('ETH', 1_000, 11_000)).toBe(false);
  });
});
