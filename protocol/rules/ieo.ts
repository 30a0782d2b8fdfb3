/**
 * IEO allotment (RULES.md "IEO (new coin subscriptions)") as one pure function, shared by the server that runs the
 * allotment and by anyone re-checking it from the published subscriptions, so that both reach the same numbers.
 *
 * Units: supply, cap, asks and allotments are bigint minor units of the coin, so "rounded down to the coin's unit" is
 * plain integer floor division. No floats anywhere: a Number would lose units above 2^53 and make the result depend
 * on the platform's rounding.
 *
 * Decisions the rule leaves open, fixed here so that the result is re-checkable:
 *
 * 1. Requests are capped first. A request above the per-user cap can only ever be filled up to the cap, so it counts
 *    as the cap both in the total ("is the total within the supply?") and as the weight of the pro-rata share. If
 *    the raw ask were the weight, asking an absurd quantity would pull a larger share away from everyone else and
 *    then hand the excess back through the re-share, which rewards inflating the ask.
 *
 * 2. With capped requests, "capped per user, with what the cap frees shared out again" never has anything to do:
 *    when the capped demand D exceeds the supply S, every share S × d / D is strictly below d (because S < D), so
 *    nobody reaches their cap or ask in the pro-rata round and the cap frees nothing. The re-share rounds of RULES
 *    therefore end after the first round; the only thing left over is the rounding remainder.
 *
 * 3. The rounding remainder r = S − Σ floor(S × d / D) is smaller than the number of subscribers (each floor loses
 *    less than one unit). It is given out one unit at a time by the largest-remainder method: the subscribers are
 *    ranked by the fractional part of their exact share, (S × d) mod D, largest first, ties by id ascending, and the
 *    first r get one unit more. Nobody exceeds their capped ask by this (floor < d, so floor + 1 ≤ d), so the whole
 *    supply is allotted whenever demand exceeds it, and the ranking depends only on the numbers and the ids, never
 *    on the input order.
 *
 * Fairness that follows: of two users, the one with the larger capped ask never gets less (a larger exact share has
 * a floor at least as large and, on an equal floor, a larger remainder, so it is ranked first); equal capped asks
 * differ by at most one unit, given to the lower id.
 */

export interface Subscription {
  id: number;
  asked: bigint;
}

export interface AllotmentInput {
  supply: bigint;
  cap: bigint;
  subscriptions: readonly Subscription[];
}

/** SPEC 4 ipo_status numbers. */
export const IEO_STATUS = {
  subscribed: 1,
  allotmentFailed: 2,
  allotted: 3,
  paid: 4,
  listedLocked: 5,
  unlocked: 6,
} as const;

/**
 * Allots the supply among the subscriptions (see the module comment for the exact rule).
 * Map id -> allotted units (0n allowed = allotment failed), in the input order of the subscriptions.
 */
export function allot(input: AllotmentInput): Map<number, bigint> {
  const { supply, cap, subscriptions } = input;
  // Bad input is a programming or data error upstream, never something to round around silently.
  if (typeof supply !== 'bigint' || supply <= 0n) throw new RangeError('IEO supply must be a positive bigint');
  if (typeof cap !== 'bigint' || cap <= 0n) throw new RangeError('IEO cap must be a positive bigint');
  const n = subscriptions.length;
  const seen = new Set<number>();
  // Capped asks, by position in the input.
  const demand: bigint[] = new Array(n);
  let total = 0n;
  for (let i = 0; i < n; i++) {
    const { id, asked } = subscriptions[i]!;
    // Ids order the remainder ranking, so they must compare exactly: safe integers only (no NaN, no fractions).
    if (!Number.isSafeInteger(id)) throw new RangeError(`IEO subscription id must be a safe integer: ${id}`);
    if (seen.has(id)) throw new RangeError(`IEO subscription id appears twice: ${id}`);
    seen.add(id);
    if (typeof asked !== 'bigint' || asked <= 0n) throw new RangeError(`IEO ask must be a positive bigint (id ${id})`);
    const d = asked < cap ? asked : cap;
    demand[i] = d;
    total += d;
  }

  const result = new Map<number, bigint>();
  if (total <= supply) {
    // Undersubscribed (or exactly subscribed): everyone gets the capped ask, and the rest of the supply stays unsold.
    for (let i = 0; i < n; i++) result.set(subscriptions[i]!.id, demand[i]!);
    return result;
  }

  // Oversubscribed: the pro-rata round, floor(S × d / D), keeping the exact remainder for the ranking below.
  const share: bigint[] = new Array(n);
  const remainder: bigint[] = new Array(n);
  let given = 0n;
  for (let i = 0; i < n; i++) {
    const exact = supply * demand[i]!;
    const floor = exact / total;
    share[i] = floor;
    remainder[i] = exact - floor * total;
    given += floor;
  }

  // Largest remainder: r < n units, one each to the r best-ranked subscribers. A full sort is O(n log n), which is
  // fast enough for 100,000 subscriptions and simpler to re-check than a selection algorithm.
  let left = supply - given;
  if (left > 0n) {
    // Ids copied out once: the comparator runs about n log n times and should not chase objects.
    const ids = subscriptions.map((s) => s.id);
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => {
      const ra = remainder[a]!;
      const rb = remainder[b]!;
      if (ra !== rb) return ra > rb ? -1 : 1;
      // Ids are unique, so this never returns 0: the ranking is a total order whatever the input order.
      return ids[a]! < ids[b]! ? -1 : 1;
    });
    // left < n always holds (see the module comment), so the walk ends before the order runs out; the count stays
    // a bigint so that no amount ever passes through a Number.
    for (const i of order) {
      if (left === 0n) break;
      share[i] = share[i]! + 1n;
      left -= 1n;
    }
  }

  for (let i = 0; i < n; i++) result.set(subscriptions[i]!.id, share[i]!);
  return result;
}

/**
 * What an allotment costs: allotted × IEO price, in the payment currency's units, rounded up (the user pays). The
 * allotment is in units of 10^-coinScale, the price exact decimal text.
 */
export function ieoPayment(allotted: bigint, price: string, coinScale: number, payScale: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(price);
  if (!match) throw new RangeError(`not a plain decimal: ${price}`);
  const fraction = match[2] ?? '';
  const priceUnits = BigInt((match[1] ?? '0') + fraction);
  const exact = allotted * priceUnits;
  const scale = coinScale + fraction.length;
  if (scale <= payScale) return exact * 10n ** BigInt(payScale - scale);
  const divisor = 10n ** BigInt(scale - payScale);
  return (exact + divisor - 1n) / divisor;
}
