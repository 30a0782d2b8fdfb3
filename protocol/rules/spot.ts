/**
 * Spot rules (RULES.md "Spot" and "Exact amounts") as pure functions on integer units, shared by the server engine,
 * the client's estimates and the client's re-check of a fill, so that all three compute the same thing.
 *
 * Units: a price is bigint units of 10^-priceScale, a quantity units of 10^-qtyScale, USDT units of 10^-quoteScale.
 * Rates (fee rate, price band) and the minimum value stay decimal text in the terms and are read exactly as
 * (units, scale). Every product of two amounts is kept exact at the sum of their scales, and only `roundUnits`
 * brings a result back to the quote's minor unit: up for what the user pays, down for what the user receives.
 * No float ever sees a value: a float would make the server and the client disagree in the last unit.
 */

/** The terms an order is placed under (an order keeps them for its life). */
export interface SpotTerms {
  /** Fee as a fraction of the value, '0.001' = 0.1%. */
  feeRate: string;
  /** Minimum order value in USDT, '5'. */
  minValue: string;
  /** Protection of a market buy by quantity: its cost is held at the last price plus this fraction, '0.02'. */
  priceBand: string;
  /** Decimals of USDT in the ledger (6). */
  quoteScale: number;
}

/** A pair's steps: decimals of its price (the tick) and of its quantity. */
export interface PairSteps {
  priceScale: number;
  qtyScale: number;
}

/** What a trade moves, in quote units. A buy pays `total` = value + fee; a sell receives `total` = value − fee. */
export interface SpotAmounts {
  value: bigint;
  fee: bigint;
  total: bigint;
}

/** A fill: the quantity (qty units) and what it moves (quote units). */
export interface SpotFillUnits extends SpotAmounts {
  qty: bigint;
}

/** The parts of an order that decide its fill (the protocol's SpotOrder, in units). */
export interface SpotOrderUnits {
  side: 'buy' | 'sell';
  mode: 'quantity' | 'amount';
  /** Quantity (sells, buys by quantity), else null. */
  qty: bigint | null;
  /** USDT to spend (a buy by amount), else null. */
  amount: bigint | null;
}

/** The same notation as the protocol's decimalString: digits, optionally a dot and more digits. No sign, exponent. */
const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

/** 10^n as a bigint; cached because every rule needs a few small powers on every call. */
const POWERS: bigint[] = [];
export function pow10(n: number): bigint {
  checkScale(n);
  let p = POWERS[n];
  if (p === undefined) {
    p = 10n ** BigInt(n);
    POWERS[n] = p;
  }
  return p;
}

function checkScale(scale: number): void {
  // A scale indexes digits: a fraction or a negative would silently produce a different number.
  if (!Number.isSafeInteger(scale) || scale < 0 || scale > 100) throw new RangeError(`invalid scale: ${scale}`);
}

/**
 * Plain decimal text as units of 10^-scale, or null when it is not plain decimal text or not a multiple of the
 * step. Extra decimals are accepted only when they are zeros ('1.50' at scale 1): the value is still on the step,
 * like the ledger's parseAmount. Callers check the sign and size they need (zero is returned as 0n).
 */
export function toUnits(text: string, scale: number): bigint | null {
  checkScale(scale);
  const match = DECIMAL_RE.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '0';
  let fraction = match[2] ?? '';
  if (fraction.length > scale) {
    if (!/^0*$/.test(fraction.slice(scale))) return null;
    fraction = fraction.slice(0, scale);
  }
  return BigInt(whole + fraction.padEnd(scale, '0'));
}

/** Units of 10^-scale as decimal text with exactly `scale` decimals (none for scale 0); negatives get a '-'. */
export function fromUnits(units: bigint, scale: number): string {
  checkScale(scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const sign = negative ? '-' : '';
  if (scale === 0) return sign + digits;
  return `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** A decimal read exactly: value = units × 10^-scale, scale being the number of decimals written. */
interface Exact {
  units: bigint;
  scale: number;
}

/** Terms are read on every call; the few distinct strings in force are parsed once. */
const exactCache = new Map<string, Exact>();

/** A decimal of the terms (a rate or the minimum value) as exact (units, scale); throws on a malformed setting. */
export function exactDecimal(text: string): Exact {
  let exact = exactCache.get(text);
  if (exact === undefined) {
    const match = DECIMAL_RE.exec(text);
    if (!match) throw new RangeError(`not a plain decimal: ${text}`);
    const fraction = match[2] ?? '';
    exact = { units: BigInt((match[1] ?? '0') + fraction), scale: fraction.length };
    // Bounded so that a caller passing user text cannot grow it without end.
    if (exactCache.size >= 256) exactCache.clear();
    exactCache.set(text, exact);
  }
  return exact;
}

/**
 * The one rounding of the spot rules: `numerator` (units of 10^-fromScale) as units of 10^-toScale, rounded 'up'
 * (toward +∞, for what the user pays or what is held from the user) or 'down' (toward −∞, for what the user
 * receives). The result differs from the exact value by less than one unit of 10^-toScale; when toScale is not
 * smaller than fromScale nothing is lost and nothing rounds.
 */
export function roundUnits(numerator: bigint, fromScale: number, toScale: number, direction: 'up' | 'down'): bigint {
  if (toScale >= fromScale) return numerator * pow10(toScale - fromScale);
  const divisor = pow10(fromScale - toScale);
  // BigInt division truncates toward zero; the remainder's sign says which way that was.
  const quotient = numerator / divisor;
  const remainder = numerator % divisor;
  if (remainder === 0n) return quotient;
  if (direction === 'up') return remainder > 0n ? quotient + 1n : quotient;
  return remainder < 0n ? quotient - 1n : quotient;
}

function checkNonNegative(name: string, units: bigint): void {
  // A negative quantity or price would turn "rounded up for the payer" into the opposite; it is a caller's bug.
  if (units < 0n) throw new RangeError(`${name} must not be negative`);
}

/**
 * The exact value and fee of qty × price as numerators over one common scale (qtyScale + priceScale + the fee
 * rate's decimals), so that value ± fee can be formed before the single rounding.
 */
function exactValueAndFee(qty: bigint, price: bigint, pair: PairSteps, terms: SpotTerms) {
  checkNonNegative('quantity', qty);
  checkNonNegative('price', price);
  const rate = exactDecimal(terms.feeRate);
  const value = qty * price;
  return {
    value: value * pow10(rate.scale),
    fee: value * rate.units,
    scale: pair.qtyScale + pair.priceScale + rate.scale,
  };
}

/**
 * A buy of `qty` at `price`: fee = ⌈exact fee⌉, total paid = ⌈exact value + exact fee⌉ (never a whole unit above
 * the exact total), value = total − fee (so that value + fee is exactly what leaves the user).
 */
export function buyCost(qty: bigint, price: bigint, pair: PairSteps, terms: SpotTerms): SpotAmounts {
  const exact = exactValueAndFee(qty, price, pair, terms);
  const fee = roundUnits(exact.fee, exact.scale, terms.quoteScale, 'up');
  const total = roundUnits(exact.value + exact.fee, exact.scale, terms.quoteScale, 'up');
  return { value: total - fee, fee, total };
}

/**
 * A sell of `qty` at `price`: fee = ⌈exact fee⌉, total received = ⌊exact value − exact fee⌋ (never more than exact,
 * less by under one unit; 0 if the fee would exceed the value), value = total + fee (what the desk pays out).
 */
export function sellProceeds(qty: bigint, price: bigint, pair: PairSteps, terms: SpotTerms): SpotAmounts {
  const exact = exactValueAndFee(qty, price, pair, terms);
  const fee = roundUnits(exact.fee, exact.scale, terms.quoteScale, 'up');
  let total = roundUnits(exact.value - exact.fee, exact.scale, terms.quoteScale, 'down');
  if (total < 0n) total = 0n;
  return { value: total + fee, fee, total };
}

/**
 * The largest quantity (qty units, on the quantity step) whose buyCost total at `price` is at most `amount`
 * (quote units): a market buy by USDT amount. 0n when not even one step fits (or the price is 0).
 */
export function qtyForAmount(amount: bigint, price: bigint, pair: PairSteps, terms: SpotTerms): bigint {
  checkNonNegative('price', price);
  if (amount <= 0n || price === 0n) return 0n;
  const rate = exactDecimal(terms.feeRate);
  // total(q) = ⌈q·price·(10^r + rate) / 10^d⌉ with d = qtyScale + priceScale + r − quoteScale, and ⌈x⌉ ≤ amount
  // holds exactly when x ≤ amount (amount is whole). So q ≤ amount·10^d / (price·(10^r + rate)): the largest such
  // q is that quotient taken down. This bounds a search, it rounds no amount: the total is still buyCost's.
  const d = pair.qtyScale + pair.priceScale + rate.scale - terms.quoteScale;
  const perQty = price * (pow10(rate.scale) + rate.units) * (d < 0 ? pow10(-d) : 1n);
  let qty = (amount * (d > 0 ? pow10(d) : 1n)) / perQty;
  // buyCost is the rule: the bound above is checked against it, so the two can never disagree by a step.
  while (qty > 0n && buyCost(qty, price, pair, terms).total > amount) qty--;
  while (buyCost(qty + 1n, price, pair, terms).total <= amount) qty++;
  return qty;
}

/**
 * The highest entry price a market buy by quantity accepts: lastPrice × (1 + priceBand), rounded up to the price
 * step (up, because the hold taken at it is paid by the user). An entry tick above it cancels the order.
 */
export function bandPrice(lastPrice: bigint, pair: PairSteps, terms: SpotTerms): bigint {
  checkNonNegative('price', lastPrice);
  const band = exactDecimal(terms.priceBand);
  const numerator = lastPrice * (pow10(band.scale) + band.units);
  return roundUnits(numerator, pair.priceScale + band.scale, pair.priceScale, 'up');
}

/** What a market buy by quantity holds: its buyCost total at bandPrice (the worst entry it can fill at). */
export function marketBuyHold(qty: bigint, lastPrice: bigint, pair: PairSteps, terms: SpotTerms): bigint {
  return buyCost(qty, bandPrice(lastPrice, pair, terms), pair, terms).total;
}

/** What a limit buy holds: its buyCost total at the limit (it never fills above it, so never costs more). */
export function limitBuyHold(qty: bigint, limitPrice: bigint, pair: PairSteps, terms: SpotTerms): bigint {
  return buyCost(qty, limitPrice, pair, terms).total;
}

/** Whether a tick fills a limit order: a buy at a tick at or below its limit, a sell at or above. */
export function crosses(side: 'buy' | 'sell', limit: bigint, tick: bigint): boolean {
  return side === 'buy' ? tick <= limit : tick >= limit;
}

/** Whether the exact value qty × price reaches the minimum order value (compared exactly, nothing rounded). */
export function orderValueAtLeastMin(qty: bigint, price: bigint, pair: PairSteps, terms: SpotTerms): boolean {
  const min = exactDecimal(terms.minValue);
  // qty·price / 10^(qs+ps) ≥ min.units / 10^min.scale, both sides multiplied out to whole numbers.
  return qty * price * pow10(min.scale) >= min.units * pow10(pair.qtyScale + pair.priceScale);
}

/**
 * The fill an order gets at a tick: a sell or a buy by quantity fills its quantity; a buy by amount fills the most
 * its amount pays for (qtyForAmount). Null when the quantity comes out 0 (nothing to fill). Throws on an order
 * that the protocol cannot produce (a sell by amount, a missing quantity or amount), since that is a bug upstream.
 */
export function spotFillOf(
  order: SpotOrderUnits,
  tickPrice: bigint,
  pair: PairSteps,
  terms: SpotTerms,
): SpotFillUnits | null {
  let qty: bigint;
  if (order.mode === 'amount') {
    if (order.side !== 'buy' || order.amount === null) throw new RangeError('a buy by amount needs an amount');
    qty = qtyForAmount(order.amount, tickPrice, pair, terms);
  } else {
    if (order.qty === null) throw new RangeError('an order by quantity needs a quantity');
    checkNonNegative('quantity', order.qty);
    qty = order.qty;
  }
  if (qty === 0n) return null;
  const amounts =
    order.side === 'buy' ? buyCost(qty, tickPrice, pair, terms) : sellProceeds(qty, tickPrice, pair, terms);
  return { qty, ...amounts };
}
