// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AllotmentInput, allot, IEO_STATUS, ieoPayment, type Subscription } from './ieo';

/** Builds subscriptions with ids 1, 2, 3… from the asks, the way the hand examples read. */
const subs = (...asks: bigint[]): Subscription[] => asks.map((asked, i) => ({ id: i + 1, asked }));
/** The allotment as a plain id-ordered list, so that a failing example prints readably. */
const listed = (m: Map<number, bigint>) => [...m.entries()].sort((a, b) => a[0] - b[0]).map(([, units]) => units);
const sum = (values: Iterable<bigint>) => {
  let total = 0n;
  for (const v of values) total += v;
  return total;
};
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Amounts from two scales: tiny ones, so that rounding, ties and zero allotments come up often, and huge ones (far
 * beyond 2^53), so that anything passing through a Number would show.
 */
const amount = fc.oneof(fc.bigInt({ min: 1n, max: 30n }), fc.bigInt({ min: 1n, max: 10n ** 30n }));
const subscriptionsArb = fc.uniqueArray(fc.record({ id: fc.integer({ min: -50, max: 1_000_000 }), asked: amount }), {
  selector: (s) => s.id,
  maxLength: 40,
});
const inputArb: fc.Arbitrary<AllotmentInput> = fc.record({
  supply: amount,
  cap: amount,
  subscriptions: subscriptionsArb,
});

/** Capped demand per id and its total, computed here from the rule rather than taken from the module. */
function demandOf(input: AllotmentInput) {
  const demand = new Map(input.subscriptions.map((s) => [s.id, min(s.asked, input.cap)] as const));
  return { demand, total: sum(demand.values()) };
}

describe('IEO allotment', () => {
  it('exports the SPEC 4 ipo_status numbers', () => {
    expect(IEO_STATUS).toEqual({
      subscribed: 1,
      allotmentFailed: 2,
      allotted: 3,
      paid: 4,
      listedLocked: 5,
      unlocked: 6,
    });
  });

  it('undersubscribed: everyone gets what they asked', () => {
    expect(listed(allot({ supply: 100n, cap: 1000n, subscriptions: subs(10n, 20n) }))).toEqual([10n, 20n]);
    // Exactly subscribed is still "within the supply".
    expect(listed(allot({ supply: 30n, cap: 1000n, subscriptions: subs(10n, 20n) }))).toEqual([10n, 20n]);
    expect(allot({ supply: 1n, cap: 1n, subscriptions: [] }).size).toBe(0);
  });

  it('a request above the cap counts as the cap, also when deciding whether the supply suffices', () => {
    // Raw asks 900 + 400 + 100 = 1400 exceed 1000, capped 300 + 300 + 100 = 700 do not: all capped asks are met.
    expect(listed(allot({ supply: 1000n, cap: 300n, subscriptions: subs(900n, 400n, 100n) }))).toEqual([
      300n,
      300n,
      100n,
    ]);
  });

  it('600/600/600 with cap 500 for 1000: 333 each and the last unit to the lowest id', () => {
    // Capped 500 each, 1500 > 1000: 1000 × 500 / 1500 = 333.33…, all remainders equal, so id 1 gets the spare unit.
    expect(listed(allot({ supply: 1000n, cap: 500n, subscriptions: subs(600n, 600n, 600n) }))).toEqual([
      334n,
      333n,
      333n,
    ]);
  });

  it('the part of an ask above the cap carries no weight in the pro-rata share', () => {
    // Capped 300/300/200 = 800 > 600: 600 × 300 / 800 = 225, 225, and 600 × 200 / 800 = 150, exactly.
    // Weighting the raw 900 instead would have given 300/180/120: the inflated ask would take from the others.
    expect(listed(allot({ supply: 600n, cap: 300n, subscriptions: subs(900n, 300n, 200n) }))).toEqual([
      225n,
      225n,
      150n,
    ]);
  });

  it('the rounding remainder goes to the largest fractional part first, not to the lowest id', () => {
    // D = 14, S = 10: 30/14 = 2 r 2, 40/14 = 2 r 12, 70/14 = 5 r 0; floors make 9, the spare unit goes to r 12.
    const result = allot({
      supply: 10n,
      cap: 100n,
      subscriptions: [
        { id: 5, asked: 3n },
        { id: 2, asked: 4n },
        { id: 9, asked: 7n },
      ],
    });
    expect(result).toEqual(
      new Map([
        [5, 2n],
        [2, 3n],
        [9, 5n],
      ]),
    );
  });

  it('a user can be allotted nothing (status 2) when the supply is smaller than the number of subscribers', () => {
    expect(listed(allot({ supply: 2n, cap: 5n, subscriptions: subs(1n, 1n, 1n) }))).toEqual([1n, 1n, 0n]);
  });

  it('rejects bad input with a RangeError', () => {
    const ok = subs(1n, 2n);
    expect(() => allot({ supply: 0n, cap: 1n, subscriptions: ok })).toThrow(RangeError);
    expect(() => allot({ supply: -5n, cap: 1n, subscriptions: ok })).toThrow(RangeError);
    expect(() => allot({ supply: 10n, cap: 0n, subscriptions: ok })).toThrow(RangeError);
    expect(() => allot({ supply: 10n, cap: -1n, subscriptions: ok })).toThrow(RangeError);
    expect(() => allot({ supply: 10n, cap: 5n, subscriptions: subs(1n, 0n) })).toThrow(RangeError);
    expect(() => allot({ supply: 10n, cap: 5n, subscriptions: subs(-3n) })).toThrow(RangeError);
    const twice = [
      { id: 7, asked: 1n },
      { id: 7, asked: 2n },
    ];
    expect(() => allot({ supply: 10n, cap: 5n, subscriptions: twice })).toThrow(RangeError);
    expect(() => allot({ supply: 10n, cap: 5n, subscriptions: [{ id: 1.5, asked: 1n }] })).toThrow(RangeError);
    expect(() => allot({ supply: 10n, cap: 5n, subscriptions: [{ id: Number.NaN, asked: 1n }] })).toThrow(RangeError);
  });

  it('never allots more than the supply, the ask or the cap, and answers for every id', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = allot(input);
        expect(result.size).toBe(input.subscriptions.length);
        for (const s of input.subscriptions) {
          const units = result.get(s.id);
          expect(typeof units).toBe('bigint');
          expect(units! >= 0n).toBe(true);
          expect(units! <= s.asked).toBe(true);
          expect(units! <= input.cap).toBe(true);
        }
        expect(sum(result.values()) <= input.supply).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('meets every capped ask when demand fits, and allots the whole supply when it does not', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = allot(input);
        const { demand, total } = demandOf(input);
        if (total <= input.supply) {
          for (const [id, d] of demand) expect(result.get(id)).toBe(d);
        } else {
          expect(sum(result.values())).toBe(input.supply);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is exactly the largest-remainder split of the capped pro-rata shares', () => {
    // Checked pairwise against the exact shares S × d / D, so that the ranking is re-derived, not copied.
    fc.assert(
      fc.property(inputArb, (input) => {
        const { demand, total } = demandOf(input);
        fc.pre(total > input.supply);
        const result = allot(input);
        const exact = [...demand].map(([id, d]) => {
          const numerator = input.supply * d;
          return { id, floor: numerator / total, rem: numerator % total, got: result.get(id)! };
        });
        for (const e of exact) expect(e.got - e.floor === 0n || e.got - e.floor === 1n).toBe(true);
        for (const a of exact) {
          for (const b of exact) {
            if (a.got - a.floor === 1n && b.got === b.floor) {
              // a got a spare unit and b did not: a must rank first.
              expect(a.rem > b.rem || (a.rem === b.rem && a.id < b.id)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order of the input', () => {
    const withShuffle = inputArb.chain((input) =>
      fc
        .shuffledSubarray([...input.subscriptions], {
          minLength: input.subscriptions.length,
          maxLength: input.subscriptions.length,
        })
        .map((shuffled) => [input, shuffled] as const),
    );
    fc.assert(
      fc.property(withShuffle, ([input, shuffled]) => {
        const a = allot(input);
        const b = allot({ ...input, subscriptions: shuffled });
        for (const s of input.subscriptions) expect(b.get(s.id)).toBe(a.get(s.id));
        // Same input, same answer: nothing random or stateful inside.
        expect(allot(input)).toEqual(a);
      }),
      { numRuns: 300 },
    );
  });

  it('of two users, the one who asked more (capped) never gets less; equal asks differ by at most one unit', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = allot(input);
        for (const a of input.subscriptions) {
          for (const b of input.subscriptions) {
            const da = min(a.asked, input.cap);
            const db = min(b.asked, input.cap);
            const ga = result.get(a.id)!;
            const gb = result.get(b.id)!;
            if (da > db) expect(ga >= gb).toBe(true);
            if (da === db && a.id < b.id) expect(ga - gb === 0n || ga - gb === 1n).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('allots the whole supply among 100,000 subscriptions', () => {
    // A fixed integer generator (xorshift32), so that the case is the same on every run.
    let state = 2463534242;
    const next = () => {
      state ^= state << 13;
      state >>>= 0;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      return state;
    };
    const subscriptions: Subscription[] = [];
    for (let i = 0; i < 100_000; i++)
      subscriptions.push({ id: next(), asked: BigInt(1 + (next() % 5000)) * 10n ** 12n });
    // Duplicate ids from the generator would be rejected, so renumber any clash deterministically.
    const seen = new Set<number>();
    for (const s of subscriptions) {
      while (seen.has(s.id)) s.id += 1;
      seen.add(s.id);
    }
    const input = { supply: 123_456_789n * 10n ** 12n + 99_999n, cap: 3000n * 10n ** 12n, subscriptions };
    // Speed is a benchmark's business, not this suite's: here only the whole supply is allotted at this size.
    const result = allot(input);
    expect(sum(result.values())).toBe(input.supply);
  });
});

describe('ieo payment', () => {
  it('is allotment × price in the payment currency, rounded up by less than one unit', () => {
    // 1,000 coins (8 decimals) at 0.05 USDT (6 decimals) = 50 USDT.
    expect(ieoPayment(1_000n * 10n ** 8n, '0.05', 8, 6)).toBe(50_000_000n);
    // One coin unit (10^-8) at 0.05: 5 × 10^-10 USDT, paid as one unit of 10^-6.
    expect(ieoPayment(1n, '0.05', 8, 6)).toBe(1n);
    expect(ieoPayment(0n, '0.05', 8, 6)).toBe(0n);
    expect(ieoPayment(3n, '2', 0, 6)).toBe(6_000_000n);
  });
});
