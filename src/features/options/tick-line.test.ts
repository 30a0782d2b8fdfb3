import { describe, expect, it } from 'vitest';
import type { OptionContract } from '../../../protocol/options';
import { entryLines, extendsLine, markedTicks, mergeTicks, secondsLeft, type TickPoint } from './tick-line';

const tick = (seq: number, price = `100.${seq}`): TickPoint => ({ seq, ts: 1_000 * seq, price });

/** A contract as the open list holds it; only what the chart reads is set. */
const contract = (id: number, over: Partial<OptionContract>): OptionContract => ({
  id,
  symbol: 'BTC',
  direction: 'up',
  seconds: 30,
  ratio: '0.80',
  currency: 'USDT',
  stake: '10',
  account: 'simulator',
  state: 'running',
  entry: { symbol: 'BTC', seq: 5, ts: 5_000, price: '100.5' },
  expiry_ts: 35_000,
  exit: null,
  payout: null,
  request_id: `r${id}`,
  created_at: 4_000,
  updated_at: 5_000,
  settled_at: null,
  ...over,
});

describe('the option tick line', () => {
  it('merges recorded ticks and live prices by sequence number, oldest first, the newest kept', () => {
    const live = [tick(9), tick(10)];
    const recorded = [tick(6), tick(7), tick(8), tick(9, '999')];
    // A number held already keeps its point: the live 9 stays, the record's copy of it adds nothing.
    expect(mergeTicks(live, recorded)).toEqual([tick(6), tick(7), tick(8), tick(9), tick(10)]);
    expect(mergeTicks(live, recorded, 3)).toEqual([tick(8), tick(9), tick(10)]);
    expect(mergeTicks([], [])).toEqual([]);
  });

  it('adds a live price only after the newest point', () => {
    expect(extendsLine([tick(1), tick(2)], tick(3))).toBe(true);
    expect(extendsLine([tick(1), tick(2)], tick(2))).toBe(false);
    expect(extendsLine([tick(1), tick(2)], tick(1))).toBe(false);
    expect(extendsLine([], tick(1))).toBe(true);
  });

  it('counts whole seconds left up, never below zero', () => {
    expect(secondsLeft(35_000, 5_000)).toBe(30);
    expect(secondsLeft(35_000, 5_001)).toBe(30);
    expect(secondsLeft(35_000, 34_001)).toBe(1);
    expect(secondsLeft(35_000, 35_000)).toBe(0);
    expect(secondsLeft(35_000, 40_000)).toBe(0);
  });

  it("draws the instrument's running contracts' entry lines only", () => {
    const open = [
      contract(3, {
        direction: 'down',
        seconds: 60,
        entry: { symbol: 'BTC', seq: 7, ts: 7_000, price: '101' },
        expiry_ts: 67_000,
      }),
      contract(1, {}),
      contract(2, { state: 'waiting', entry: null, expiry_ts: null }),
      contract(4, { symbol: 'ETH' }),
    ];
    expect(entryLines(open, 'BTC', 20_000)).toEqual([
      { id: 1, direction: 'up', price: '100.5', left: 15 },
      { id: 3, direction: 'down', price: '101', left: 47 },
    ]);
    expect(entryLines(null, 'BTC', 0)).toEqual([]);
  });

  it("never shows more time left than the period, when this clock lags the server's", () => {
    const open = [
      contract(5, { seconds: 30, entry: { symbol: 'BTC', seq: 9, ts: 10_000, price: '100' }, expiry_ts: 40_000 }),
    ];
    // 600 ms before the entry tick by this device's reckoning: ceil(30.6) would say 31 s of a 30 s contract.
    expect(entryLines(open, 'BTC', 9_400)[0]?.left).toBe(30);
    expect(entryLines(open, 'BTC', 10_400)[0]?.left).toBe(30);
    expect(entryLines(open, 'BTC', 11_000)[0]?.left).toBe(29);
  });

  it("finds a settled contract's entry and exit among the recorded ticks and says whether they are its own", () => {
    const recorded = [tick(5), tick(6), tick(7)];
    const settled = { entry: { symbol: 'BTC', ...tick(5) }, exit: { symbol: 'BTC', ...tick(7) } };
    expect(markedTicks(recorded, settled)).toEqual({ entry: tick(5), exit: tick(7), matches: true });
    // The record holds another price under the exit's number: found, and said not to match.
    const rewritten = [tick(5), tick(6), tick(7, '99')];
    expect(markedTicks(rewritten, settled)).toEqual({ entry: tick(5), exit: tick(7, '99'), matches: false });
    // The exit tick is not among them (not recorded yet, or out of a thinned range's points).
    expect(markedTicks([tick(5)], settled)).toEqual({ entry: tick(5), exit: null, matches: false });
  });
});
