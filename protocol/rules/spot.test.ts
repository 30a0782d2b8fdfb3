// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  bandPrice,
  buyCost,
  crosses,
  fromUnits,
  limitBuyHold,
  marketBuyHold,
  orderValueAtLeastMin,
  type PairSteps,
  qtyForAmount,
  roundUnits,
  type SpotTerms,
  sellProceeds,
  spotFillOf,
  toUnits,
} from './spot';

const TERMS: SpotTerms = { feeRate: '0.001', minValue: '5', priceBand: '0.02', quoteScale: 6 };
const BTC: PairSteps = { priceScale: 2, qtyScale: 5 };
const ETH: PairSteps = { priceScale: 2, qtyScale: 4 };
const DOGE: PairSteps = { priceScale: 5, qtyScale: 0 };

/** Test input as units; a typo in a fixture fails loudly instead of becoming null. */
function u(text: string, scale: number): bigint {
  const units = toUnits(text, scale);
  if (units === null) throw new Error(`bad fixture ${text}`);
  return units;
}
const usdt = (units: bigint) => fromUnits(units, TERMS.quoteScale);
const strings = (a: { value: bigint; fee: bigint; total: bigint }) => ({
  value: usdt(a.value),
  fee: usdt(a.fee),
  total: usdt(a.total),
});

/**
 * A seeded PRNG (xorshift32, integer operations only) so that a failing random case can be replayed: the seed
 * and the case are in the assertion message.
 */
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
  /** An integer in [0, n) for a small n. */
  const int = (n: number) => next() % n;
  /** A bigint of up to `digits` decimal digits (at least 1), spread over magnitudes rather than clustered. */
  const big = (digits: number) => {
    const length = 1 + int(digits);
    let text = '';
    for (let i = 0; i < length; i++) text += String(int(10));
    return BigInt(text);
  };
  return { int, big, pick: <T>(items: readonly T[]) => items[int(items.length)] as T };
}

/** The oracle's own power of ten: the property checks must not lean on the module's helpers. */
const p10 = (n: number) => 10n ** BigInt(n);
/** A decimal string as (numerator, scale), written out independently of the module. */
function rational(text: string): { n: bigint; s: number } {
  const [whole = '0', fraction = ''] = text.split('.');
  return { n: BigInt(whole + fraction), s: fraction.length };
}

const RATES = ['0.001', '0', '0.00075', '0.0015', '0.002', '0.25', '0.0001'];
const BANDS = ['0.02', '0', '0.05', '0.1', '0.015'];
const QUOTE_SCALES = [6, 6, 6, 2, 8, 0];

function randomCase(r: ReturnType<typeof prng>) {
  const pair: PairSteps = { qtyScale: r.int(6), priceScale: 2 + r.int(4) };
  const terms: SpotTerms = {
    feeRate: r.pick(RATES),
    minValue: r.pick(['5', '0', '10.5', '0.000001']),
    priceBand: r.pick(BANDS),
    quoteScale: r.pick(QUOTE_SCALES),
  };
  return { pair, terms, qty: r.big(12), price: 1n + r.big(10) };
}

describe('toUnits and fromUnits', () => {
  it('reads plain decimal text on the step and refuses anything else', () => {
    expect(toUnits('64250.37', 2)).toBe(6425037n);
    expect(toUnits('0.00123', 5)).toBe(123n);
    expect(toUnits('5', 6)).toBe(5_000_000n);
    expect(toUnits('0', 3)).toBe(0n);
    expect(toUnits('007.5', 1)).toBe(75n);
    // Zeros past the scale keep the value on the step.
    expect(toUnits('1.230', 2)).toBe(123n);
    expect(toUnits('1.231', 2)).toBeNull();
    expect(toUnits('1.5', 0)).toBeNull();
    for (const bad of ['', ' 1', '1 ', '-1', '+1', '1e3', '.5', '1.', '1,5', '0x10', 'NaN', '1.2.3']) {
      expect(toUnits(bad, 4), bad).toBeNull();
    }
  });

  it('writes exactly `scale` decimals, including signs and scale 0', () => {
    expect(fromUnits(79106984n, 6)).toBe('79.106984');
    expect(fromUnits(5n, 6)).toBe('0.000005');
    expect(fromUnits(0n, 2)).toBe('0.00');
    expect(fromUnits(-5n, 3)).toBe('-0.005');
    expect(fromUnits(-12345n, 2)).toBe('-123.45');
    expect(fromUnits(42n, 0)).toBe('42');
    expect(fromUnits(-42n, 0)).toBe('-42');
  });

  it('round-trips random units at every scale', () => {
    const r = prng(11);
    for (let i = 0; i < 2000; i++) {
      const scale = r.int(9);
      const units = r.big(20);
      const text = fromUnits(units, scale);
      expect(text.split('.')[1]?.length ?? 0).toBe(scale);
      expect(toUnits(text, scale)).toBe(units);
    }
  });

  it('refuses a scale that is not a small whole number', () => {
    expect(() => fromUnits(1n, -1)).toThrow(RangeError);
    expect(() => toUnits('1', 1.5)).toThrow(RangeError);
  });
});

describe('roundUnits', () => {
  it('rounds up toward +∞ and down toward −∞, exact values untouched', () => {
    // 1.234 to two decimals: 1.24 up, 1.23 down; 1.200 to one decimal is 1.2 both ways; −1.234: −1.23 up, −1.24 down.
    expect(roundUnits(1234n, 3, 2, 'up')).toBe(124n);
    expect(roundUnits(1234n, 3, 2, 'down')).toBe(123n);
    expect(roundUnits(1200n, 3, 1, 'up')).toBe(12n);
    expect(roundUnits(1200n, 3, 1, 'down')).toBe(12n);
    expect(roundUnits(-1234n, 3, 2, 'up')).toBe(-123n);
    expect(roundUnits(-1234n, 3, 2, 'down')).toBe(-124n);
    expect(roundUnits(1n, 10, 6, 'up')).toBe(1n);
    expect(roundUnits(1n, 10, 6, 'down')).toBe(0n);
    expect(roundUnits(0n, 10, 6, 'up')).toBe(0n);
  });

  it('scales up without rounding when the target has as many decimals or more', () => {
    expect(roundUnits(123n, 2, 6, 'down')).toBe(1230000n);
    expect(roundUnits(-7n, 0, 3, 'up')).toBe(-7000n);
    expect(roundUnits(99n, 4, 4, 'up')).toBe(99n);
  });

  it('stays within one unit of the exact value, on the side it was asked for', () => {
    const r = prng(7);
    for (let i = 0; i < 3000; i++) {
      const from = r.int(14);
      const to = r.int(10);
      const n = r.int(2) ? r.big(18) : -r.big(18);
      const up = roundUnits(n, from, to, 'up');
      const down = roundUnits(n, from, to, 'down');
      const c = Math.max(from, to);
      const exact = n * p10(c - from);
      const unit = p10(c - to);
      const context = `n=${n} ${from}->${to}`;
      expect(up * unit - exact >= 0n && up * unit - exact < unit, context).toBe(true);
      expect(exact - down * unit >= 0n && exact - down * unit < unit, context).toBe(true);
    }
  });
});

describe('buyCost and sellProceeds, worked by hand', () => {
  it('buys 0.00123 BTC at 64250.37 with 0.1%', () => {
    // value 0.00123 × 64250.37 = 79.0279551; fee 0.0790279551 → 0.079028 (up);
    // total 79.1069830551 → 79.106984 (up); value = total − fee = 79.027956.
    expect(strings(buyCost(u('0.00123', 5), u('64250.37', 2), BTC, TERMS))).toEqual({
      value: '79.027956',
      fee: '0.079028',
      total: '79.106984',
    });
  });

  it('sells 0.00123 BTC at 64250.37 with 0.1%', () => {
    // fee 0.079028 (up); received 79.0279551 − 0.0790279551 = 78.9489271449 → 78.948927 (down);
    // value = received + fee = 79.027955.
    expect(strings(sellProceeds(u('0.00123', 5), u('64250.37', 2), BTC, TERMS))).toEqual({
      value: '79.027955',
      fee: '0.079028',
      total: '78.948927',
    });
  });

  it('rounds nothing when the amounts are exact', () => {
    // 1.5 ETH × 3000 = 4500; fee 4.5; paid 4504.5, received 4495.5.
    const qty = u('1.5', 4);
    const price = u('3000', 2);
    expect(strings(buyCost(qty, price, ETH, TERMS))).toEqual({
      value: '4500.000000',
      fee: '4.500000',
      total: '4504.500000',
    });
    expect(strings(sellProceeds(qty, price, ETH, TERMS))).toEqual({
      value: '4500.000000',
      fee: '4.500000',
      total: '4495.500000',
    });
  });

  it('charges a fee of one unit on a tiny trade and never lets a sell go below zero', () => {
    // 1 DOGE at 0.00001: value 0.00001, fee 0.00000001 → 0.000001 (up); paid 0.00001001 → 0.000011.
    expect(strings(buyCost(1n, 1n, DOGE, TERMS))).toEqual({ value: '0.000010', fee: '0.000001', total: '0.000011' });
    // Received 0.00000999 → 0.000009; value 0.000010.
    expect(strings(sellProceeds(1n, 1n, DOGE, TERMS))).toEqual({
      value: '0.000010',
      fee: '0.000001',
      total: '0.000009',
    });
    // A fee above the value (a rate over 100%) leaves 0 received, the desk paying only the fee.
    const greedy = { ...TERMS, feeRate: '1.5' };
    expect(strings(sellProceeds(1n, 1n, DOGE, greedy))).toEqual({
      value: '0.000015',
      fee: '0.000015',
      total: '0.000000',
    });
  });

  it('refuses negative quantities and prices', () => {
    expect(() => buyCost(-1n, 1n, BTC, TERMS)).toThrow(RangeError);
    expect(() => sellProceeds(1n, -1n, BTC, TERMS)).toThrow(RangeError);
  });
});

describe('buyCost and sellProceeds, random cases', () => {
  it('move amounts that sum to zero and differ from exact by under one unit, on the user-safe side', () => {
    const r = prng(20240601);
    for (let i = 0; i < 5000; i++) {
      const { pair, terms, qty, price } = randomCase(r);
      const context = `case ${i}: qty=${qty} price=${price} ${JSON.stringify({ ...pair, ...terms })}`;
      const rate = rational(terms.feeRate);
      const s = pair.qtyScale + pair.priceScale + rate.s;
      const q = terms.quoteScale;
      const c = Math.max(s, q);
      const unit = p10(c - q);
      const at = (units: bigint) => units * unit;
      const exactValue = qty * price * p10(rate.s) * p10(c - s);
      const exactFee = qty * price * rate.n * p10(c - s);

      const buy = buyCost(qty, price, pair, terms);
      // Legs: user −total, desk +value, fees +fee.
      expect(-buy.total + buy.value + buy.fee, context).toBe(0n);
      const paidOver = at(buy.total) - (exactValue + exactFee);
      expect(paidOver >= 0n && paidOver < unit, `buy total ${context}`).toBe(true);
      const feeOver = at(buy.fee) - exactFee;
      expect(feeOver >= 0n && feeOver < unit, `buy fee ${context}`).toBe(true);
      // value = total − fee lands within one unit of the exact value either way.
      const valueOff = at(buy.value) - exactValue;
      expect(valueOff > -unit && valueOff < unit, `buy value ${context}`).toBe(true);

      const sell = sellProceeds(qty, price, pair, terms);
      // Legs: desk −value, user +total, fees +fee.
      expect(-sell.value + sell.total + sell.fee, context).toBe(0n);
      const shortBy = exactValue - exactFee - at(sell.total);
      expect(shortBy >= 0n && shortBy < unit, `sell total ${context}`).toBe(true);
      expect(sell.fee, `sell fee ${context}`).toBe(buy.fee);
      expect(sell.total >= 0n && sell.value >= 0n, context).toBe(true);
    }
  });
});

describe('qtyForAmount', () => {
  it('buys the most 100 USDT pays for, worked by hand', () => {
    // Per BTC 64250.37 × 1.001 = 64314.62037: 100 / that = 0.001554… → 0.00155 on the 0.00001 step.
    // 0.00155 costs ⌈99.5880735 + 0.0995880735⌉ = 99.687662; 0.00156 would cost 100.33…
    const price = u('64250.37', 2);
    const qty = qtyForAmount(u('100', 6), price, BTC, TERMS);
    expect(fromUnits(qty, 5)).toBe('0.00155');
    expect(usdt(buyCost(qty, price, BTC, TERMS).total)).toBe('99.687662');
    expect(buyCost(qty + 1n, price, BTC, TERMS).total > u('100', 6)).toBe(true);
  });

  it('takes the exact total when the amount equals it to the unit', () => {
    // 4504.5 buys exactly 1.5 ETH at 3000; one unit less buys one step less.
    expect(qtyForAmount(u('4504.5', 6), u('3000', 2), ETH, TERMS)).toBe(u('1.5', 4));
    expect(qtyForAmount(u('4504.499999', 6), u('3000', 2), ETH, TERMS)).toBe(u('1.4999', 4));
  });

  it('is 0 when not one step fits, the amount is 0 or the price is 0', () => {
    expect(qtyForAmount(u('0.000010', 6), 1n, DOGE, TERMS)).toBe(0n);
    expect(qtyForAmount(u('0.000011', 6), 1n, DOGE, TERMS)).toBe(1n);
    expect(qtyForAmount(0n, 1n, DOGE, TERMS)).toBe(0n);
    expect(qtyForAmount(u('5', 6), 0n, DOGE, TERMS)).toBe(0n);
  });

  it('is maximal on random cases: its cost fits, one step more does not', () => {
    const r = prng(99);
    for (let i = 0; i < 3000; i++) {
      const { pair, terms, price } = randomCase(r);
      const amount = r.big(14);
      const context = `case ${i}: amount=${amount} price=${price} ${JSON.stringify({ ...pair, ...terms })}`;
      const qty = qtyForAmount(amount, price, pair, terms);
      expect(qty >= 0n, context).toBe(true);
      if (qty > 0n) expect(buyCost(qty, price, pair, terms).total <= amount, context).toBe(true);
      expect(buyCost(qty + 1n, price, pair, terms).total > amount, context).toBe(true);
      // The same answer from the exact inequality, without buyCost: q·price·(1 + rate) ≤ amount.
      const rate = rational(terms.feeRate);
      const s = pair.qtyScale + pair.priceScale + rate.s;
      const c = Math.max(s, terms.quoteScale);
      const fits = (q: bigint) => q * price * (p10(rate.s) + rate.n) * p10(c - s) <= amount * p10(c - terms.quoteScale);
      expect(fits(qty) && !fits(qty + 1n), context).toBe(true);
    }
  });
});

describe('holds', () => {
  it('holds a market buy by quantity at the last price plus the band, rounded up to the price step', () => {
    // 64250.37 × 1.02 = 65535.3774 → 65535.38; 0.001 × 65535.38 = 65.53538, fee 0.06553538 → 0.065536,
    // total 65.60091538 → 65.600916.
    expect(fromUnits(bandPrice(u('64250.37', 2), BTC, TERMS), 2)).toBe('65535.38');
    expect(usdt(marketBuyHold(u('0.001', 5), u('64250.37', 2), BTC, TERMS))).toBe('65.600916');
    // An exact band price is not pushed a step further: 3000 × 1.02 = 3060.
    expect(fromUnits(bandPrice(u('3000', 2), ETH, TERMS), 2)).toBe('3060.00');
  });

  it('holds a limit buy at its buyCost total at the limit', () => {
    expect(usdt(limitBuyHold(u('0.00123', 5), u('64250.37', 2), BTC, TERMS))).toBe('79.106984');
  });

  it('covers every fill a market buy can get within the band', () => {
    const r = prng(5);
    for (let i = 0; i < 2000; i++) {
      const { pair, terms, qty, price } = randomCase(r);
      const context = `case ${i}: qty=${qty} last=${price} ${JSON.stringify({ ...pair, ...terms })}`;
      const band = rational(terms.priceBand);
      const limit = bandPrice(price, pair, terms);
      // bandPrice is the exact last × (1 + band) or less than one price step above it.
      const over = limit * p10(band.s) - price * (p10(band.s) + band.n);
      expect(over >= 0n && over < p10(band.s), context).toBe(true);
      const hold = marketBuyHold(qty, price, pair, terms);
      expect(hold, context).toBe(buyCost(qty, limit, pair, terms).total);
      const entry = limit - BigInt(r.int(3));
      if (entry >= 0n) expect(buyCost(qty, entry, pair, terms).total <= hold, context).toBe(true);
    }
  });
});

describe('crosses', () => {
  it('fills a buy at or below its limit and a sell at or above, equality included', () => {
    expect(crosses('buy', 100n, 100n)).toBe(true);
    expect(crosses('buy', 100n, 99n)).toBe(true);
    expect(crosses('buy', 100n, 101n)).toBe(false);
    expect(crosses('sell', 100n, 100n)).toBe(true);
    expect(crosses('sell', 100n, 101n)).toBe(true);
    expect(crosses('sell', 100n, 99n)).toBe(false);
  });
});

describe('orderValueAtLeastMin', () => {
  it('compares the exact value with the minimum, equality passing', () => {
    // 41 × 0.12345 = 5.06145; 40 × 0.12345 = 4.938; 50 × 0.1 = 5 exactly.
    expect(orderValueAtLeastMin(41n, u('0.12345', 5), DOGE, TERMS)).toBe(true);
    expect(orderValueAtLeastMin(40n, u('0.12345', 5), DOGE, TERMS)).toBe(false);
    expect(orderValueAtLeastMin(50n, u('0.1', 5), DOGE, TERMS)).toBe(true);
    expect(orderValueAtLeastMin(u('0.00007', 5), u('71428.57', 2), BTC, TERMS)).toBe(false); // 4.9999999
    expect(orderValueAtLeastMin(u('0.00007', 5), u('71428.58', 2), BTC, TERMS)).toBe(true); // 5.0000006
    expect(orderValueAtLeastMin(1n, 1n, DOGE, { ...TERMS, minValue: '0.00001' })).toBe(true);
    expect(orderValueAtLeastMin(1n, 1n, DOGE, { ...TERMS, minValue: '0.000011' })).toBe(false);
  });
});

describe('spotFillOf', () => {
  const price = u('64250.37', 2);

  it('fills a buy or a sell by quantity with its quantity at the tick', () => {
    const qty = u('0.00123', 5);
    expect(spotFillOf({ side: 'buy', mode: 'quantity', qty, amount: null }, price, BTC, TERMS)).toEqual({
      qty,
      ...buyCost(qty, price, BTC, TERMS),
    });
    expect(spotFillOf({ side: 'sell', mode: 'quantity', qty, amount: null }, price, BTC, TERMS)).toEqual({
      qty,
      ...sellProceeds(qty, price, BTC, TERMS),
    });
  });

  it('fills a buy by amount with the most the amount pays for, and nothing when that is 0', () => {
    const fill = spotFillOf({ side: 'buy', mode: 'amount', qty: null, amount: u('100', 6) }, price, BTC, TERMS);
    expect(fill && { qty: fromUnits(fill.qty, 5), ...strings(fill) }).toEqual({
      qty: '0.00155',
      value: '99.588073',
      fee: '0.099589',
      total: '99.687662',
    });
    expect(spotFillOf({ side: 'buy', mode: 'amount', qty: null, amount: u('0.5', 6) }, price, BTC, TERMS)).toBeNull();
    expect(spotFillOf({ side: 'sell', mode: 'quantity', qty: 0n, amount: null }, price, BTC, TERMS)).toBeNull();
  });

  it('refuses orders the protocol cannot produce', () => {
    expect(() => spotFillOf({ side: 'sell', mode: 'amount', qty: null, amount: 5n }, price, BTC, TERMS)).toThrow();
    expect(() => spotFillOf({ side: 'buy', mode: 'quantity', qty: null, amount: 5n }, price, BTC, TERMS)).toThrow();
    expect(() => spotFillOf({ side: 'buy', mode: 'amount', qty: 5n, amount: null }, price, BTC, TERMS)).toThrow();
  });
});
