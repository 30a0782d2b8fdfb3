import { describe, expect, it } from 'vitest';
import { createServerClock, estimateOffset } from './clock';

/** Every test drives an injected local clock: no wall-clock timing. */
function setup(windowMs = 60_000) {
  let now = 1_000_000;
  const clock = createServerClock({ now: () => now, windowMs });
  const offsets: number[] = [];
  clock.subscribe((o) => offsets.push(o));
  return {
    clock,
    offsets,
    at: (t: number) => {
      now = t;
    },
  };
}

describe('server clock', () => {
  it('is the local clock until the first sample', () => {
    const { clock, offsets, at } = setup();
    expect(clock.synced()).toBe(false);
    expect(clock.offset()).toBe(0);
    at(1_000_500);
    expect(clock.serverNow()).toBe(1_000_500);
    expect(offsets).toEqual([0]);
  });

  it('takes the round-trip midpoint of an answer stamped by the server', () => {
    const { clock, at } = setup();
    // Sent at 1_000_000, answered at 1_000_200, stamped 5_000_150 by the server.
    at(1_000_200);
    clock.observeRoundTrip(5_000_150, 1_000_000);
    expect(clock.offset()).toBe(5_000_150 - 1_000_100);
    at(1_001_000);
    expect(clock.serverNow()).toBe(1_001_000 + 4_000_050);
  });

  it('treats a pushed message as a lower bound and keeps the tightest one in the window', () => {
    const { clock, offsets, at } = setup();
    at(1_000_100);
    clock.observePush(2_000_000); // arrived 100 ms late at most: offset >= 999_900
    expect(clock.offset()).toBe(999_900);
    at(1_000_300);
    clock.observePush(2_000_150); // a slow one: offset >= 999_850, the earlier bound stays
    expect(clock.offset()).toBe(999_900);
    at(1_000_400);
    clock.observePush(2_000_380); // a fast one tightens it
    expect(clock.offset()).toBe(999_980);
    expect(offsets).toEqual([0, 999_900, 999_980]);
  });

  it('combines lower and upper bounds: a Date header (whole seconds) narrowed by pushed messages', () => {
    const { clock, at } = setup();
    at(1_000_200);
    // Date 5_000_000 means server time in [5_000_000, 5_000_999] while the call ran from 1_000_000 to 1_000_200.
    clock.observeHttpDate(new Date(5_000_000).toUTCString(), 1_000_000);
    expect(clock.offset()).toBe(4_000_399);
    at(1_000_300);
    clock.observePush(5_000_250); // offset >= 3_999_950
    expect(clock.offset()).toBe(4_000_474);
    clock.observeHttpDate('not a date', 1_000_000);
    expect(clock.offset()).toBe(4_000_474);
  });

  it('forgets samples older than its window, so a changed offset is followed', () => {
    const { clock, at } = setup(10_000);
    at(1_000_100);
    clock.observePush(2_000_100); // offset >= 1_000_000
    at(1_005_000);
    clock.observePush(1_505_000); // the server clock was stepped back by 500 s
    expect(clock.offset()).toBe(1_000_000);
    at(1_011_000);
    clock.observePush(1_511_000);
    expect(clock.offset()).toBe(500_000);
  });

  it('lets the newest sample decide when the bounds contradict each other', () => {
    expect(
      estimateOffset([
        { lo: 100, hi: 200, at: 1 },
        { lo: 300, hi: 320, at: 2 },
      ]),
    ).toBe(310);
    expect(estimateOffset([])).toBeNull();
  });

  it('starts over after reset', () => {
    const { clock, at } = setup();
    at(1_000_100);
    clock.observePush(2_000_000);
    clock.reset();
    expect(clock.synced()).toBe(false);
    expect(clock.offset()).toBe(0);
  });
});
