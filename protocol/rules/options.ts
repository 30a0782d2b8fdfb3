import { exactDecimal, pow10, roundUnits, toUnits } from './spot';

/**
 * Option rules (RULES.md "Options (microtrade)", "Which tick counts", "Exact amounts") as pure functions, shared by
 * the server's settlement, the client's countdown and estimate, and anyone re-checking a settled contract from the
 * price record, so that all of them reach the same result and the same payout.
 *
 * Units: prices are bigint units of the instrument's price scale (only compared, never multiplied); stakes and
 * payouts are bigint units of 10^-quoteScale of the payable currency. The payout ratio stays decimal text, read
 * exactly. The only rounding is the payout of a win, through spot's `roundUnits` (the one rounding function of the
 * rules), down, because the user receives it.
 */

/** One period on offer: its length and the payout ratio a win earns on top of the stake. */
export interface OptionPeriod {
  /** Length of the contract in seconds, counted from the entry tick's time. */
  seconds: number;
  /** Decimal text: a win pays stake × (1 + ratio). */
  ratio: string;
}

/** The option terms in force for new contracts (a contract keeps the period and ratio it was bought under). */
export interface OptionTerms {
  periods: readonly OptionPeriod[];
  /** Minimum stake in the payable currency, decimal text. */
  minStake: string;
  /** Currencies a stake may be paid in (the list is a setting). */
  payableCurrencies: readonly string[];
}

/** RULES "Options" defaults; the operator may change them for future contracts only. */
export const OPTION_DEFAULTS: OptionTerms = Object.freeze({
  periods: Object.freeze([
    Object.freeze({ seconds: 30, ratio: '0.80' }),
    Object.freeze({ seconds: 60, ratio: '0.82' }),
    Object.freeze({ seconds: 120, ratio: '0.85' }),
    Object.freeze({ seconds: 300, ratio: '0.88' }),
  ]),
  minStake: '10',
  payableCurrencies: Object.freeze(['USDT']),
});

export type OptionDirection = 'up' | 'down';
/** How a contract ends once it has an entry tick (`cancelled`, without entry tick, is decided before this). */
export type OptionResult = 'won' | 'lost' | 'flat' | 'refunded';

/** A recorded tick of the contract's instrument, its price in units (RecordedTick of protocol/price-record.ts). */
export interface OptionTick {
  seq: number;
  /** Server time, ms since the epoch. */
  ts: number;
  price: bigint;
}

/** The period with these seconds among the terms, or null when it is not offered (the submit check). */
export function optionPeriodOf(terms: Pick<OptionTerms, 'periods'>, seconds: number): OptionPeriod | null {
  return terms.periods.find((p) => p.seconds === seconds) ?? null;
}

/**
 * Expiry E = entry tick time + period (RULES "Options"): the entry tick, not the acceptance, starts the clock, so
 * that the time a contract runs does not depend on how fast the feed delivered its first tick.
 */
export function optionExpiryTs(entryTs: number, seconds: number): number {
  // A fraction or a negative period would shift E off the millisecond grid that tick times live on.
  if (!Number.isSafeInteger(entryTs)) throw new RangeError(`invalid entry time: ${entryTs}`);
  if (!Number.isSafeInteger(seconds) || seconds <= 0) throw new RangeError(`invalid period: ${seconds}`);
  return entryTs + seconds * 1000;
}

export interface OptionResultInput {
  direction: OptionDirection;
  entry: OptionTick;
  /** Period length in seconds (E = entry.ts + seconds × 1000). */
  seconds: number;
  /**
   * Recorded ticks of the contract's instrument from the entry on (any order; extra ticks outside the window are
   * ignored). The caller must pass every tick up to E: settle only once no tick with a time at or before E can
   * still be recorded, or a late tick would change the exit.
   */
  ticks: Iterable<OptionTick>;
}

export interface OptionSettlement {
  result: OptionResult;
  /** The exit tick the result used (stored and shown), null when refunded for want of one. */
  exit: OptionTick | null;
  expiryTs: number;
}

/**
 * Settles a contract: exit = the last tick strictly after the entry tick and at or before E. Strictly after means
 * a later time than the entry tick (a tick at the entry's own time does not count: it carries no movement after the
 * entry) and a later sequence number; "last" is the greatest (time, sequence). No such tick: `refunded`. Exit price
 * equal to entry: `flat`. Up wins when exit > entry, down when exit < entry; otherwise `lost`.
 */
export function optionResult(input: OptionResultInput): OptionSettlement {
  const { direction, entry } = input;
  const expiryTs = optionExpiryTs(entry.ts, input.seconds);
  let exit: OptionTick | null = null;
  for (const tick of input.ticks) {
    if (tick.ts <= entry.ts || tick.ts > expiryTs || tick.seq <= entry.seq) continue;
    if (exit === null || tick.ts > exit.ts || (tick.ts === exit.ts && tick.seq > exit.seq)) exit = tick;
  }
  if (exit === null) return { result: 'refunded', exit: null, expiryTs };
  if (exit.price === entry.price) return { result: 'flat', exit, expiryTs };
  const rose = exit.price > entry.price;
  const won = direction === 'up' ? rose : !rose;
  return { result: won ? 'won' : 'lost', exit, expiryTs };
}

/**
 * What a settled contract pays back to the user, in quote units:
 * - won: stake × (1 + ratio), rounded down to the currency's minor unit (the user receives it: short of the exact
 *   amount by less than one unit, never over);
 * - flat and refunded: the stake, exactly;
 * - lost: 0.
 */
export function optionPayout(stake: bigint, ratio: string, result: OptionResult, quoteScale: number): bigint {
  // A negative stake would turn "rounded down for the receiver" into the opposite; it is a caller's bug.
  if (stake < 0n) throw new RangeError('stake must not be negative');
  switch (result) {
    case 'lost':
      return 0n;
    case 'flat':
    case 'refunded':
      return stake;
    case 'won': {
      const r = exactDecimal(ratio);
      // stake·(10^s + units) is exact at quoteScale + s decimals; the one rounding brings it back to quoteScale.
      return roundUnits(stake * (pow10(r.scale) + r.units), quoteScale + r.scale, quoteScale, 'down');
    }
  }
}

/**
 * What a settled contract made or lost for its owner, in quote units: its payout (optionPayout) minus the stake. A
 * win gains stake × ratio, short of the exact amount by less than one unit with the payout's one rounding; a loss is
 * −stake; flat and refunded are 0. Results are shown as this, not as the payout: a lost contract paid back nothing,
 * and "0" would read as no loss.
 */
export function optionProfit(stake: bigint, ratio: string, result: OptionResult, quoteScale: number): bigint {
  return optionPayout(stake, ratio, result, quoteScale) - stake;
}

/** Whether a stake (quote units) reaches the minimum stake (decimal text), compared exactly, equality passing. */
export function stakeAtLeastMin(stake: bigint, minStake: string, quoteScale: number): boolean {
  const min = exactDecimal(minStake);
  return stake * pow10(min.scale) >= min.units * pow10(quoteScale);
}

/**
 * A stake typed by the user as quote units: null when it is not plain decimal text or has more decimals than the
 * currency holds (it would have to be rounded, and a stake is never rounded).
 */
export function stakeUnits(text: string, quoteScale: number): bigint | null {
  return toUnits(text, quoteScale);
}

/** Exact decimal text without trailing fractional zeros ('0.100' → '0.1', '2.000' → '2'). */
function trimDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = scale === 0 ? digits : digits.slice(0, -scale);
  const fraction = scale === 0 ? '' : digits.slice(-scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The house edge at payout ratio r on an even market: (1 − r) / 2 of the stake per contract, as exact decimal text
 * for the rule page ('0.80' → '0.1', '0.85' → '0.075'). With even odds a contract wins half the time, paying r,
 * and loses half the time, costing 1: the expectation is (r − 1) / 2 (flat and refunded contracts cost nothing).
 * Negative when r > 1 (the house would pay out more than it keeps), which the page then shows as it is.
 */
export function houseEdge(ratio: string): string {
  const r = exactDecimal(ratio);
  // (10^s − u) / (2·10^s) = 5·(10^s − u) / 10^(s+1): exact with one decimal more.
  return trimDecimal((pow10(r.scale) - r.units) * 5n, r.scale + 1);
}
