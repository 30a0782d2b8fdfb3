import { describe, expect, it } from 'vitest';
import {
  houseEdge,
  OPTION_DEFAULTS,
  type OptionDirection,
  type OptionResult,
  type OptionTick,
  optionExpiryTs,
  optionPayout,
  optionPeriodOf,
  optionProfit,
  optionResult,
  stakeAtLeastMin,
  stakeUnits,
} from './options';

/** xorshift32 with integer operations only, so that a failing case replays from the seed in its message. */
function prng(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  const int = (n: number) => next() % n;
  const big = (digits: number) => {
    const length = 1 + int(digits);
    let text = '';
    for (let i = 0; i < length; i++) text += String(int(10));
    return BigInt(text);
  };
  return { int, big, pick: <T>(items: readonly T[]) => items[int(items.length)] as T };
}

const p10 = (n: number) => 10n ** BigInt(n);
const USDT = 6;

/**
 * The oracle, written straight from RULES "Options" without the module: sort the ticks in time and sequence, keep
 * those after the entry tick and at or before E, take the last, compare.
 */
function oracle(direction: OptionDirection, entry: OptionTick, seconds: number, ticks: OptionTick[]) {
  const expiry = entry.ts + seconds * 1000;
  const window = [...ticks]
    .sort((a, b) => a.ts - b.ts || a.seq - b.seq)
    .filter((t) => t.seq > entry.seq && t.ts > entry.ts && t.ts <= expiry);
  const exit = window.length ? window[window.length - 1] : undefined;
  let result: OptionResult;
  if (!exit) result = 'refunded';
  else if (exit.price === entry.price) result = 'flat';
  else if (exit.price > entry.price === (direction === 'up')) result = 'won';
  else result = 'lost';
  return { result, exit: exit ?? null, expiryTs: expiry };
}

/**
 * A random tick path around an entry tick: a few ticks before it, then ticks with rising sequence numbers and
 * non-decreasing times (gaps of 0 ms included, so that ticks share the entry's time or E), prices in a narrow band
 * so that ties with the entry are common; sometimes no tick at all after the entry, sometimes one exactly at E.
 */
function randomPath(r: ReturnType<typeof prng>) {
  const seconds = r.pick([30, 60, 120, 300, 1]);
  const entry: OptionTick = {
    seq: 1000 + r.int(1000),
    ts: 1_700_000_000_000 + r.int(1_000_000),
    price: 500n + r.big(2),
  };
  const span = seconds * 1000;
  const ticks: OptionTick[] = [];
  for (let i = 1; i <= r.int(3); i++) ticks.push({ seq: entry.seq - i, ts: entry.ts - r.int(2000), price: r.big(3) });
  const count = r.int(6) === 0 ? 0 : r.int(12);
  let seq = entry.seq;
  let ts = entry.ts;
  const step = r.pick([0, 1, span / 4, span / 2, span, span + 1]);
  for (let i = 0; i < count; i++) {
    seq += 1 + r.int(2);
    ts += r.int(3) === 0 ? 0 : r.int(Math.max(1, step)) + (r.int(4) === 0 ? span / 3 : 0);
    ticks.push({ seq, ts: Math.floor(ts), price: entry.price - 3n + BigInt(r.int(7)) });
  }
  if (r.int(4) === 0) ticks.push({ seq: seq + 1, ts: entry.ts + span, price: entry.price - 1n + BigInt(r.int(3)) });
  if (r.int(4) === 0) ticks.push({ seq: seq + 2, ts: entry.ts + span + 1, price: r.big(3) });
  // The module must not rely on the order the caller fetched the ticks in.
  for (let i = ticks.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [ticks[i], ticks[j]] = [ticks[j] as OptionTick, ticks[i] as OptionTick];
  }
  return { seconds, entry, ticks, direction: r.pick(['up', 'down'] as const) };
}

describe('OPTION_DEFAULTS', () => {
  it('are the RULES defaults', () => {
    expect(OPTION_DEFAULTS.periods).toEqual([
      { seconds: 30, ratio: '0.80' },
      { seconds: 60, ratio: '0.82' },
      { seconds: 120, ratio: '0.85' },
      { seconds: 300, ratio: '0.88' },
    ]);
    expect(OPTION_DEFAULTS.minStake).toBe('10');
    expect(OPTION_DEFAULTS.payableCurrencies).toEqual(['USDT']);
    expect(Object.isFrozen(OPTION_DEFAULTS.periods)).toBe(true);
  });

  it('finds an offered period and nothing else', () => {
    expect(optionPeriodOf(OPTION_DEFAULTS, 120)).toEqual({ seconds: 120, ratio: '0.85' });
    expect(optionPeriodOf(OPTION_DEFAULTS, 90)).toBeNull();
  });
});

describe('optionResult, worked by hand', () => {
  const entry: OptionTick = { seq: 10, ts: 100_000, price: 6425037n };
  const at = (seq: number, ts: number, price: bigint): OptionTick => ({ seq, ts, price });

  it('uses the last tick at or before E = entry time + period', () => {
    const ticks = [at(11, 110_000, 6425100n), at(12, 130_000, 6425000n), at(13, 130_001, 6426000n)];
    expect(optionResult({ direction: 'up', entry, seconds: 30, ticks })).toEqual({
      result: 'lost',
      exit: ticks[1],
      expiryTs: 130_000,
    });
    expect(optionResult({ direction: 'down', entry, seconds: 30, ticks }).result).toBe('won');
  });

  it('counts a tick exactly at E and ignores one a millisecond later', () => {
    const exactlyE = at(11, 130_000, 6425038n);
    expect(optionResult({ direction: 'up', entry, seconds: 30, ticks: [exactlyE] })).toEqual({
      result: 'won',
      exit: exactlyE,
      expiryTs: 130_000,
    });
    expect(optionResult({ direction: 'up', entry, seconds: 30, ticks: [at(11, 130_001, 1n)] })).toEqual({
      result: 'refunded',
      exit: null,
      expiryTs: 130_000,
    });
  });

  it('refunds when the only later tick shares the entry time, or there is none', () => {
    expect(optionResult({ direction: 'up', entry, seconds: 60, ticks: [at(11, 100_000, 9n)] }).result).toBe('refunded');
    expect(optionResult({ direction: 'down', entry, seconds: 60, ticks: [] }).result).toBe('refunded');
    // The entry tick itself and earlier ticks never count.
    expect(optionResult({ direction: 'up', entry, seconds: 60, ticks: [entry, at(9, 99_000, 1n)] }).result).toBe(
      'refunded',
    );
  });

  it('is flat when the exit equals the entry, for either direction', () => {
    const ticks = [at(11, 101_000, 7000000n), at(12, 102_000, entry.price)];
    expect(optionResult({ direction: 'up', entry, seconds: 30, ticks }).result).toBe('flat');
    expect(optionResult({ direction: 'down', entry, seconds: 30, ticks }).result).toBe('flat');
  });

  it('takes the higher sequence among ticks sharing the last time', () => {
    const ticks = [at(12, 120_000, entry.price - 1n), at(11, 120_000, entry.price + 1n)];
    expect(optionResult({ direction: 'down', entry, seconds: 30, ticks }).exit).toBe(ticks[0]);
  });

  it('refuses a period or time that is not a positive whole number', () => {
    expect(() => optionExpiryTs(100_000, 0)).toThrow(RangeError);
    expect(() => optionExpiryTs(100_000, 1.5)).toThrow(RangeError);
    expect(() => optionExpiryTs(Number.NaN, 30)).toThrow(RangeError);
    expect(optionExpiryTs(100_000, 300)).toBe(400_000);
  });
});

describe('optionResult, random tick paths', () => {
  it('agrees with the straightforward reading of RULES on every path', () => {
    const seen = new Set<string>();
    let atE = 0;
    let atEntryOnly = 0;
    for (const seed of [1, 42, 20240601]) {
      const r = prng(seed);
      for (let i = 0; i < 4000; i++) {
        const { seconds, entry, ticks, direction } = randomPath(r);
        const context = `seed ${seed} case ${i}: ${direction} ${seconds}s entry=${JSON.stringify(entry, (_, v) =>
          typeof v === 'bigint' ? String(v) : v,
        )} ticks=${ticks.map((t) => `${t.seq}@${t.ts}:${t.price}`).join(',')}`;
        const got = optionResult({ direction, entry, seconds, ticks });
        const want = oracle(direction, entry, seconds, ticks);
        expect(got, context).toEqual(want);
        seen.add(got.result);
        if (got.exit && got.exit.ts === got.expiryTs) atE++;
        const inWindow = ticks.filter((t) => t.seq > entry.seq && t.ts <= entry.ts + seconds * 1000);
        if (inWindow.length && inWindow.every((t) => t.ts === entry.ts)) {
          atEntryOnly++;
          expect(got.result, context).toBe('refunded');
        }
        // The properties the oracle encodes, stated on their own as well.
        if (got.exit === null) expect(got.result, context).toBe('refunded');
        else {
          expect(got.exit.ts > entry.ts && got.exit.ts <= entry.ts + seconds * 1000, context).toBe(true);
          if (got.exit.price === entry.price) expect(got.result, context).toBe('flat');
        }
      }
    }
    // The generator reaches every outcome and the edge cases, or the checks above prove little.
    expect([...seen].sort()).toEqual(['flat', 'lost', 'refunded', 'won']);
    expect(atE).toBeGreaterThan(100);
    expect(atEntryOnly).toBeGreaterThan(20);
  });
});

describe('optionPayout', () => {
  const u = (text: string) => {
    const units = stakeUnits(text, USDT);
    if (units === null) throw new Error(`bad fixture ${text}`);
    return units;
  };

  it('pays stake × (1 + ratio) on a win, rounded down, worked by hand', () => {
    expect(optionPayout(u('10'), '0.80', 'won', USDT)).toBe(u('18'));
    // 33.333333 × 1.88 = 62.66666604 → 62.666666.
    expect(optionPayout(u('33.333333'), '0.88', 'won', USDT)).toBe(u('62.666666'));
    // 0.000001 × 1.85 = 0.00000185 → 0.000001: never a unit more than exact.
    expect(optionPayout(1n, '0.85', 'won', USDT)).toBe(1n);
    // 12.34 at 2 decimals × 1.82 = 22.4588 → 22.45.
    expect(optionPayout(1234n, '0.82', 'won', 2)).toBe(2245n);
  });

  it('returns the stake when flat or refunded and nothing when lost', () => {
    expect(optionPayout(u('25.5'), '0.85', 'flat', USDT)).toBe(u('25.5'));
    expect(optionPayout(u('25.5'), '0.85', 'refunded', USDT)).toBe(u('25.5'));
    expect(optionPayout(u('25.5'), '0.85', 'lost', USDT)).toBe(0n);
    expect(() => optionPayout(-1n, '0.85', 'won', USDT)).toThrow(RangeError);
  });

  it('is exact or short by less than one minor unit on random stakes and ratios', () => {
    const r = prng(314159);
    const ratios = ['0.80', '0.82', '0.85', '0.88', '0', '1', '0.8', '0.123456789', '0.999', '2.5'];
    for (let i = 0; i < 5000; i++) {
      const ratio = r.pick(ratios);
      const scale = r.pick([6, 6, 2, 8, 0]);
      const stake = r.big(15);
      const context = `case ${i}: stake=${stake} ratio=${ratio} scale=${scale}`;
      const [whole = '0', fraction = ''] = ratio.split('.');
      const s = fraction.length;
      const exact = stake * (p10(s) + BigInt(whole + fraction));
      const paid = optionPayout(stake, ratio, 'won', scale);
      const short = exact - paid * p10(s);
      expect(short >= 0n && short < p10(s), context).toBe(true);
      expect(paid >= stake, context).toBe(true);
      expect(optionPayout(stake, ratio, 'flat', scale), context).toBe(stake);
      expect(optionPayout(stake, ratio, 'refunded', scale), context).toBe(stake);
      expect(optionPayout(stake, ratio, 'lost', scale), context).toBe(0n);
    }
  });
});

describe('optionProfit', () => {
  const u = (text: string) => {
    const units = stakeUnits(text, USDT);
    if (units === null) throw new Error(`bad fixture ${text}`);
    return units;
  };

  it('a win gains stake × ratio: 12 at 0.80 → +9.60', () => {
    expect(optionProfit(u('12'), '0.80', 'won', USDT)).toBe(u('9.6'));
    // 10.000001 × 0.85 = 8.50000085; the payout 18.50000185 is rounded down once, so the gain is 8.500000.
    expect(optionProfit(u('10.000001'), '0.85', 'won', USDT)).toBe(u('8.5'));
  });

  it('a loss is the whole stake: 12 → −12.00, not the 0 it paid back', () => {
    expect(optionProfit(u('12'), '0.80', 'lost', USDT)).toBe(-u('12'));
    expect(optionPayout(u('12'), '0.80', 'lost', USDT)).toBe(0n);
  });

  it('flat and refunded contracts neither gain nor lose', () => {
    expect(optionProfit(u('12'), '0.80', 'flat', USDT)).toBe(0n);
    expect(optionProfit(u('12'), '0.80', 'refunded', USDT)).toBe(0n);
  });
});

describe('stakes', () => {
  it('reads a stake on the currency step and compares it with the minimum exactly', () => {
    expect(stakeUnits('10.5', USDT)).toBe(10_500_000n);
    expect(stakeUnits('10.0000001', USDT)).toBeNull();
    expect(stakeUnits('-10', USDT)).toBeNull();
    expect(stakeAtLeastMin(10_000_000n, '10', USDT)).toBe(true);
    expect(stakeAtLeastMin(9_999_999n, '10', USDT)).toBe(false);
    expect(stakeAtLeastMin(1000n, '10.005', 2)).toBe(false);
    expect(stakeAtLeastMin(1001n, '10.005', 2)).toBe(true);
    expect(stakeAtLeastMin(1001n, '10.01', 2)).toBe(true);
  });
});

describe('houseEdge', () => {
  it('is (1 − ratio) / 2 as exact decimal text', () => {
    expect(houseEdge('0.80')).toBe('0.1');
    expect(houseEdge('0.82')).toBe('0.09');
    expect(houseEdge('0.85')).toBe('0.075');
    expect(houseEdge('0.88')).toBe('0.06');
    expect(houseEdge('1')).toBe('0');
    expect(houseEdge('0')).toBe('0.5');
    expect(houseEdge('1.1')).toBe('-0.05');
  });

  it('matches the exact fraction on random ratios', () => {
    const r = prng(271828);
    for (let i = 0; i < 2000; i++) {
      const s = r.int(8);
      const units = r.big(8);
      const text = s === 0 ? String(units) : `${units / p10(s)}.${String(units % p10(s)).padStart(s, '0')}`;
      const edge = houseEdge(text);
      // 2 × edge + ratio = 1, checked over a common denominator.
      const [ew = '0', ef = ''] = edge.replace('-', '').split('.');
      const sign = edge.startsWith('-') ? -1n : 1n;
      const c = Math.max(ef.length, s);
      const twice = 2n * sign * BigInt(ew + ef) * p10(c - ef.length);
      expect(twice + units * p10(c - s), `ratio ${text} edge ${edge}`).toBe(p10(c));
    }
  });
});
