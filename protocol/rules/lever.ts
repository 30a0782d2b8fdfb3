import { exactDecimal, pow10, roundUnits } from './spot';

/**
 * Lever rules (RULES.md "Lever (perpetual contracts, USDT-margined)", "Exact amounts") as pure functions, shared by
 * the server's engine, the client's positions worker and anyone re-checking a close or liquidation from the price
 * record, so that all three reach the same numbers.
 *
 * Units: prices are bigint units of 10^-priceScale (the instrument's tick); money is bigint units of 10^-quoteScale
 * of USDT; lots are whole numbers. The contract size, the maintenance margin rate and the fee rate stay decimal text
 * in the terms and are read exactly. Intermediate values are exact decimals (`Exact`: units × 10^-scale), so a
 * product is exact at the sum of its scales; only `roundUnits` (spot's one rounding function) brings money back to
 * the minor unit: up for what the user pays or has held, down (toward −∞) for what the user receives, which makes a
 * loss one unit larger and a gain one unit smaller, never the other way round. A liquidation price is rounded to
 * the price tick toward the side where the margin left is at most the maintenance margin, so a position is never
 * liquidated while it still holds more than the rule asks.
 */

export type LeverSide = 'long' | 'short';
export type MarginMode = 'isolated' | 'cross';

/** The terms a position is opened under (it keeps them for its life). */
export interface LeverTerms {
  /** Base quantity per lot, decimal text: BTC '0.001'. */
  contractSize: string;
  /** Maintenance margin rate, decimal text: '0.005' = 0.5%. */
  mmr: string;
  /** Fee as a fraction of the notional at open and at close: '0.0005' = 0.05%. */
  feeRate: string;
  /** Decimals of the instrument's price (its tick). */
  priceScale: number;
  /** Decimals of USDT in the ledger (6). */
  quoteScale: number;
}

/** What the rules need of a position. */
export interface LeverPositionUnits {
  side: LeverSide;
  /** Whole lots, at least 1. */
  lots: bigint;
  /** Entry price, price units. */
  entry: bigint;
  /** The position's own margin (isolated WB): initial margin plus added margin, quote units. */
  margin: bigint;
  terms: LeverTerms;
}

/** An exact decimal: units × 10^-scale. */
export interface Exact {
  units: bigint;
  scale: number;
}

const ZERO: Exact = { units: 0n, scale: 0 };

function align(a: Exact, b: Exact): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.units, b.units, a.scale];
  if (a.scale > b.scale) return [a.units, b.units * pow10(a.scale - b.scale), a.scale];
  return [a.units * pow10(b.scale - a.scale), b.units, b.scale];
}

export const add = (a: Exact, b: Exact): Exact => {
  const [x, y, scale] = align(a, b);
  return { units: x + y, scale };
};
export const sub = (a: Exact, b: Exact): Exact => {
  const [x, y, scale] = align(a, b);
  return { units: x - y, scale };
};
export const mul = (a: Exact, b: Exact): Exact => ({ units: a.units * b.units, scale: a.scale + b.scale });
export const compare = (a: Exact, b: Exact): number => {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
};
const exact = (units: bigint, scale: number): Exact => ({ units, scale });
const sideSign = (side: LeverSide): bigint => (side === 'long' ? 1n : -1n);

/** a / b at `scale` decimals, rounded 'down' (toward −∞) or 'up' (toward +∞); b must not be 0. */
export function divide(a: Exact, b: Exact, scale: number, direction: 'up' | 'down'): bigint {
  if (b.units === 0n) throw new RangeError('division by zero');
  // a/b = (a.units / b.units) × 10^(b.scale − a.scale); at `scale` decimals the numerator is scaled to match.
  const shift = scale + b.scale - a.scale;
  let n = a.units * (shift > 0 ? pow10(shift) : 1n);
  let d = b.units * (shift < 0 ? pow10(-shift) : 1n);
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  if (direction === 'up') return r > 0n ? q + 1n : q;
  return r < 0n ? q - 1n : q;
}

/** Money (exact) as quote units: 'up' for what the user pays or has held, 'down' for what the user receives. */
export const toQuote = (value: Exact, terms: LeverTerms, direction: 'up' | 'down'): bigint =>
  roundUnits(value.units, value.scale, terms.quoteScale, direction);

/** Q = lots × contract size, in base units (exact). */
export function quantity(lots: bigint, terms: LeverTerms): Exact {
  if (lots < 1n) throw new RangeError('lots must be at least 1');
  const size = exactDecimal(terms.contractSize);
  return exact(lots * size.units, size.scale);
}

/** Notional = Q × price (exact, USDT). */
export const notional = (lots: bigint, price: bigint, terms: LeverTerms): Exact =>
  mul(quantity(lots, terms), exact(price, terms.priceScale));

/** Initial margin IM = Q × entry / leverage, rounded up (it is held from the user). */
export function initialMargin(lots: bigint, entry: bigint, leverage: number, terms: LeverTerms): bigint {
  if (!Number.isSafeInteger(leverage) || leverage < 1) throw new RangeError(`invalid leverage: ${leverage}`);
  const value = notional(lots, entry, terms);
  return divide(value, exact(BigInt(leverage), 0), terms.quoteScale, 'up');
}

/** The fee of opening or closing at `price`: notional × fee rate, rounded up (the user pays it). */
export function tradeFee(lots: bigint, price: bigint, terms: LeverTerms): bigint {
  const rate = exactDecimal(terms.feeRate);
  return toQuote(mul(notional(lots, price, terms), rate), terms, 'up');
}

/** Unrealised P&L = side × Q × (mark − entry), exact. */
export function unrealisedPnlExact(p: Omit<LeverPositionUnits, 'margin'>, mark: bigint): Exact {
  return mul(quantity(p.lots, p.terms), exact(sideSign(p.side) * (mark - p.entry), p.terms.priceScale));
}

/** P&L in quote units, rounded toward −∞ (a gain one unit smaller, a loss one unit larger: never in the user's favour). */
export const pnlUnits = (p: Omit<LeverPositionUnits, 'margin'>, mark: bigint): bigint =>
  toQuote(unrealisedPnlExact(p, mark), p.terms, 'down');

/** Maintenance margin MM = Q × mark × MMR, exact. */
export function maintenanceMarginExact(lots: bigint, mark: bigint, terms: LeverTerms): Exact {
  return mul(notional(lots, mark, terms), exactDecimal(terms.mmr));
}

/** MM in quote units, rounded up (for display: what the position must keep). */
export const maintenanceMargin = (lots: bigint, mark: bigint, terms: LeverTerms): bigint =>
  toQuote(maintenanceMarginExact(lots, mark, terms), terms, 'up');

/**
 * The liquidation price for a wallet WB (exact) standing behind one position:
 *   long  LP = (Q × entry − WB) / (Q × (1 − MMR)), rounded down to the tick;
 *   short LP = (Q × entry + WB) / (Q × (1 + MMR)), rounded up to the tick.
 * Null when it is not positive (a long whose wallet covers the whole notional cannot be liquidated: "--").
 */
function liquidationPriceFor(p: Omit<LeverPositionUnits, 'margin'>, wallet: Exact): bigint | null {
  const { terms } = p;
  const q = quantity(p.lots, terms);
  const mmr = exactDecimal(terms.mmr);
  const one = exact(pow10(mmr.scale), mmr.scale);
  const entryValue = mul(q, exact(p.entry, terms.priceScale));
  const long = p.side === 'long';
  const numerator = long ? sub(entryValue, wallet) : add(entryValue, wallet);
  const denominator = mul(q, long ? sub(one, mmr) : add(one, mmr));
  if (denominator.units <= 0n) return null;
  const lp = divide(numerator, denominator, terms.priceScale, long ? 'down' : 'up');
  return lp > 0n ? lp : null;
}

/** Isolated liquidation price: WB is the position's margin (IM plus added margin). */
export function isolatedLiquidationPrice(p: LeverPositionUnits): bigint | null {
  return liquidationPriceFor(p, exact(p.margin, p.terms.quoteScale));
}

/** A cross position at its current mark, as `crossLiquidationPrice` and `crossAccountLiquidated` need it. */
export interface CrossPositionAtMark extends Omit<LeverPositionUnits, 'margin'> {
  mark: bigint;
}

/**
 * A cross position's liquidation price (RULES "Cross margin"): the mark at which the account's equity falls to the
 * sum of maintenance margins, the other cross positions' marks unchanged. `wallet` is the cross balance (quote
 * units); `others` are the account's other cross positions at their marks. With no others and a wallet equal to
 * the position's margin, this is the isolated LP.
 */
export function crossLiquidationPrice(
  p: Omit<LeverPositionUnits, 'margin'>,
  wallet: bigint,
  others: readonly CrossPositionAtMark[],
): bigint | null {
  let tmm = ZERO;
  let upnl = ZERO;
  for (const o of others) {
    tmm = add(tmm, maintenanceMarginExact(o.lots, o.mark, o.terms));
    upnl = add(upnl, unrealisedPnlExact(o, o.mark));
  }
  // WB − TMM′ + UPNL′ stands behind this position exactly as an isolated margin would.
  const effective = add(sub(exact(wallet, p.terms.quoteScale), tmm), upnl);
  return liquidationPriceFor(p, effective);
}

/** Whether a cross account is liquidated: its equity (wallet + Σ UPNL) at or below Σ MM, compared exactly. */
export function crossAccountLiquidated(wallet: bigint, quoteScale: number, positions: readonly CrossPositionAtMark[]) {
  let equity = exact(wallet, quoteScale);
  let tmm = ZERO;
  for (const p of positions) {
    equity = add(equity, unrealisedPnlExact(p, p.mark));
    tmm = add(tmm, maintenanceMarginExact(p.lots, p.mark, p.terms));
  }
  return positions.length > 0 && compare(equity, tmm) <= 0;
}

/** An open cross position at its current mark with its leverage: what backs it is its initial margin. */
export interface CrossBackedPosition extends CrossPositionAtMark {
  leverage: number;
}

/**
 * The most (quote units) that may leave a cross wallet (RULES "Cross margin": money that backs cross positions
 * stays): equity − Σ IM, with equity = wallet + Σ UPNL at the marks and IM = Q × entry / leverage. Computed exactly
 * (the sum is brought over the product of the leverages, so a third never rounds) and only then rounded down to the
 * minor unit: an amount is a whole number of units, so `amount <= free` is the exact comparison with equity − Σ IM.
 * Negative when losses already ate into the margin: then nothing may leave. `wallet` is the cross balance: the
 * contract account's available balance plus the margins its cross positions hold (isolated margins back only
 * their own positions and are not in it).
 */
export function crossMarginFree(wallet: bigint, quoteScale: number, positions: readonly CrossBackedPosition[]): bigint {
  let common = 1n;
  for (const p of positions) {
    if (!Number.isSafeInteger(p.leverage) || p.leverage < 1) throw new RangeError(`invalid leverage: ${p.leverage}`);
    common *= BigInt(p.leverage);
  }
  // common × (wallet + Σ UPNL − Σ notional / leverage), every term exact.
  let scaled = mul(exact(wallet, quoteScale), exact(common, 0));
  for (const p of positions) {
    scaled = add(scaled, mul(unrealisedPnlExact(p, p.mark), exact(common, 0)));
    scaled = sub(scaled, mul(notional(p.lots, p.entry, p.terms), exact(common / BigInt(p.leverage), 0)));
  }
  return divide(scaled, exact(common, 0), quoteScale, 'down');
}

/**
 * Whether `amount` (quote units) leaving the cross wallet would leave the equity below the open cross positions'
 * initial margin (exactly equal is allowed). Without a cross position nothing is backed: false, and the ledger's own
 * balance check stands alone.
 */
export const crossMarginBacked = (
  wallet: bigint,
  amount: bigint,
  quoteScale: number,
  positions: readonly CrossBackedPosition[],
): boolean => positions.length > 0 && amount > crossMarginFree(wallet, quoteScale, positions);

/** Whether a tick reaches a liquidation price: a long at or below it, a short at or above it. */
export const reachesLiquidation = (side: LeverSide, lp: bigint, tick: bigint): boolean =>
  side === 'long' ? tick <= lp : tick >= lp;

/** Whether a tick fires a take-profit (long: at or above; short: at or below) or a stop-loss (the other way). */
export function firesStop(side: LeverSide, kind: 'take_profit' | 'stop_loss', price: bigint, tick: bigint): boolean {
  const upward = (side === 'long') === (kind === 'take_profit');
  return upward ? tick >= price : tick <= price;
}

/** Whether a pending limit open fills at a tick: a long at or below its price, a short at or above. */
export const limitOpenCrosses = (side: LeverSide, limit: bigint, tick: bigint): boolean =>
  side === 'long' ? tick <= limit : tick >= limit;

/** Why a take-profit or stop-loss is refused, as an error key of the `errors` locale namespace, or null. */
export type StopProblem = 'leverTakeProfitSide' | 'leverStopLossSide' | 'leverStopLossBeyondLiquidation';

/**
 * RULES "Lever": TP above the entry for a long (below for a short), SL on the other side and not beyond the
 * liquidation price. `reference` is the entry (or, before the entry tick, the price the order expects to open at).
 */
export function stopProblem(
  side: LeverSide,
  reference: bigint,
  liquidation: bigint | null,
  takeProfit: bigint | null,
  stopLoss: bigint | null,
): StopProblem | null {
  const long = side === 'long';
  if (takeProfit !== null && (long ? takeProfit <= reference : takeProfit >= reference)) return 'leverTakeProfitSide';
  if (stopLoss !== null) {
    if (long ? stopLoss >= reference : stopLoss <= reference) return 'leverStopLossSide';
    if (liquidation !== null && (long ? stopLoss <= liquidation : stopLoss >= liquidation)) {
      return 'leverStopLossBeyondLiquidation';
    }
  }
  return null;
}

/** How a position leaves the book: by the user, its take-profit, its stop-loss, or liquidation (forced close). */
export type CloseReason = 'user' | 'take_profit' | 'stop_loss' | 'liquidation';

/** What a close moves, in quote units; legs sum to zero: userDelta + desk + feePaid + insurance = 0. */
export interface CloseAmounts {
  /** Realised P&L at the exit tick, rounded toward −∞. */
  pnl: bigint;
  /** The close fee the rule charges (notional at exit × fee rate, rounded up). */
  fee: bigint;
  /** The part of the fee the user's money covered (all of it unless a liquidation or a gap left too little). */
  feePaid: bigint;
  /** The change of the user's contract balance (the margin hold itself is released): negative when it lost. */
  userDelta: bigint;
  /** The lever desk's side: it pays a gain (negative) and receives a loss (positive), always exactly −pnl. */
  desk: bigint;
  /** To the insurance fund: the margin left on a liquidation (positive), or what it pays for a gap (negative). */
  insurance: bigint;
}

/**
 * The money of a close at `exit` (RULES "Lever"). The user owes the loss and the close fee, and receives a gain;
 * a liquidation takes at least the position's whole margin (what is left after the loss and fee goes to the
 * insurance fund). The user never loses more than `canLose`: the position's margin when isolated, its margin plus
 * the account's free contract balance when cross; anything beyond is borne by the insurance fund.
 */
export function closeAmounts(p: LeverPositionUnits, exit: bigint, reason: CloseReason, canLose: bigint): CloseAmounts {
  const pnl = pnlUnits(p, exit);
  const fee = tradeFee(p.lots, exit, p.terms);
  const loss = pnl < 0n ? -pnl : 0n;
  const gain = pnl > 0n ? pnl : 0n;
  let owed = loss + fee;
  if (reason === 'liquidation' && owed < p.margin) owed = p.margin;
  let userOut = owed - gain;
  if (userOut > canLose) userOut = canLose;
  // What the user paid beyond settling the P&L goes to the fee first, then (a liquidation) to the fund.
  const beyondPnl = userOut - (loss - gain);
  const feePaid = beyondPnl <= 0n ? 0n : beyondPnl < fee ? beyondPnl : fee;
  const insurance = beyondPnl - feePaid;
  return { pnl, fee, feePaid, userDelta: -userOut, desk: -pnl, insurance };
}

/**
 * What a partial close splits pro rata to lots (RULES "Partial close"), in quote units: the lots, the initial margin
 * and the added margin (together the position's margin, its isolated WB), and the open fee it paid.
 */
export interface PositionShares {
  lots: bigint;
  initialMargin: bigint;
  addedMargin: bigint;
  openFee: bigint;
}

/** A split of a position: the part that closes and the rest that stays holding; part + rest = the whole, exactly. */
export interface PositionSplit {
  part: PositionShares;
  rest: PositionShares;
}

/** ⌊amount × k / n⌋ for amount ≥ 0 and 0 < k ≤ n: a pro-rata share rounded down (the user receives it). */
export function proRataDown(amount: bigint, k: bigint, n: bigint): bigint {
  if (amount < 0n || k < 1n || k > n) throw new RangeError(`no pro-rata share of ${amount} for ${k} of ${n}`);
  return (amount * k) / n;
}

/**
 * Splits k of a position's n lots off (RULES "Partial close"): the part takes margin × k / n rounded down (the user
 * receives it; the fraction stays with the position), so the user is never paid a margin the position does not give
 * up. The margin is split as one amount, then attributed: the part's initial margin is ⌊IM × k / n⌋ and its added
 * margin the remainder of its share, so splitting the two apart cannot pay the user one unit less than ⌊M × k / n⌋.
 * The open fee the whole position paid is attributed the same way (no money moves for it: it was paid at the open),
 * so that each closed part shows its own share of what opening cost and the nets of all parts of a position add up
 * to what the position moved of its owner's money. The initial-margin and open-fee shares depend only on the lots
 * (never on added margin), so `afterParts` can replay them from the open. Requires 1 ≤ k < n.
 */
export function splitPosition(p: PositionShares, k: bigint): PositionSplit {
  if (k < 1n || k >= p.lots) throw new RangeError(`a part of ${k} of ${p.lots} lots is not a partial close`);
  if (p.initialMargin < 0n || p.addedMargin < 0n || p.openFee < 0n) throw new RangeError('negative position shares');
  const margin = proRataDown(p.initialMargin + p.addedMargin, k, p.lots);
  const initialMargin = proRataDown(p.initialMargin, k, p.lots);
  // ⌊(IM + ADD)·k/n⌋ − ⌊IM·k/n⌋ lies between ⌊ADD·k/n⌋ and ⌊ADD·k/n⌋ + 1, which is at most ADD for k < n.
  const part: PositionShares = {
    lots: k,
    initialMargin,
    addedMargin: margin - initialMargin,
    openFee: proRataDown(p.openFee, k, p.lots),
  };
  return {
    part,
    rest: {
      lots: p.lots - k,
      initialMargin: p.initialMargin - part.initialMargin,
      addedMargin: p.addedMargin - part.addedMargin,
      openFee: p.openFee - part.openFee,
    },
  };
}

/**
 * The initial margin and open fee a position holds after parts of `parts` lots (in order) were closed off it:
 * splitPosition replayed from the open (`opened`: its lots, and the initial margin and open fee of the entry tick).
 * Added margin is the owner's own act and not in the record, so it is not replayed (0 here). A re-check uses this to
 * show that a position's (or a part's) margin and open fee follow from its entry tick and the lots closed before.
 * Null when the parts do not fit (not each smaller than what was left).
 */
export function afterParts(opened: PositionShares, parts: readonly bigint[]): PositionShares | null {
  let now: PositionShares = { ...opened, addedMargin: 0n };
  for (const k of parts) {
    if (k < 1n || k >= now.lots) return null;
    now = splitPosition(now, k).rest;
  }
  return now;
}

/** A position as a partial close needs it: its side, entry and terms, and what it holds. */
export interface SplitPositionUnits extends PositionShares {
  side: LeverSide;
  entry: bigint;
  terms: LeverTerms;
}

/** What closing a part moves: the split, and the part's close money at the exit tick (closeAmounts of the part). */
export interface PartialCloseAmounts {
  split: PositionSplit;
  /** The part closed on its own: its realised P&L, the close fee on its own notional, the legs of its entry. */
  amounts: CloseAmounts;
  /** The rest's isolated liquidation price, recomputed from its lots and the margin it keeps ("--" = null). */
  restLiquidationPrice: bigint | null;
}

/**
 * Closes k of a position's lots at `exit` (RULES "Partial close"): the part is a position of k lots with its share of
 * the margin, closed by its owner (`user`) like a whole position, so its realised P&L is side × (k × size) × (exit −
 * entry) rounded toward −∞ and it pays the close fee on its own notional (k × size × exit × fee rate, rounded up).
 * `canLose` is what the part may lose at most: its margin share when isolated (the default), that plus the free
 * contract balance when cross. The rest keeps n − k lots, the margin left, and a liquidation price recomputed from
 * them (isolated; a cross LP depends on the account).
 */
export function partialClose(p: SplitPositionUnits, k: bigint, exit: bigint, canLose?: bigint): PartialCloseAmounts {
  const split = splitPosition(p, k);
  const partMargin = split.part.initialMargin + split.part.addedMargin;
  const part: LeverPositionUnits = { side: p.side, lots: k, entry: p.entry, margin: partMargin, terms: p.terms };
  const amounts = closeAmounts(part, exit, 'user', canLose ?? partMargin);
  const rest = split.rest;
  const restLiquidationPrice = isolatedLiquidationPrice({
    side: p.side,
    lots: rest.lots,
    entry: p.entry,
    margin: rest.initialMargin + rest.addedMargin,
    terms: p.terms,
  });
  return { split, amounts, restLiquidationPrice };
}

/** What a closed position's money came to, as its owner's result shows it (quote units). */
export interface ClosedResult {
  /** Realised P&L at the exit tick (CloseAmounts.pnl). */
  pnl: bigint;
  /** The fee paid at the open. */
  openFee: bigint;
  /** The part of the close fee the user paid (CloseAmounts.feePaid). */
  closeFee: bigint;
  /** What a liquidation left to the insurance fund (CloseAmounts.insurance; negative: what the fund paid for a gap). */
  insurance: bigint;
}

/**
 * The net result of a closed position: realised P&L minus the open fee and the close fee paid, minus what went to
 * the insurance fund. That is exactly what the position moved of its owner's money over its life (userDelta of the
 * close minus the open fee): a liquidation loses the margin the loss and fee left, and a gap beyond the margin,
 * which the fund bore, is no loss of the user's. Without the fund's part the net of a liquidation would be wrong.
 */
export const closedNet = (r: ClosedResult): bigint => r.pnl - r.openFee - r.closeFee - r.insurance;

/** a / b as a percentage text with `decimals` decimals, rounded toward zero; null when b is 0. */
export function percentText(a: Exact, b: Exact, decimals = 2): string | null {
  if (b.units === 0n) return null;
  const hundred = mul(a, exact(100n, 0));
  const negative = a.units < 0n !== b.units < 0n && a.units !== 0n;
  // Toward zero: down for a positive quotient, up for a negative one.
  const units = divide(hundred, b, decimals, negative ? 'up' : 'down');
  const sign = units < 0n ? '-' : '';
  const digits = (units < 0n ? -units : units).toString().padStart(decimals + 1, '0');
  return decimals === 0 ? sign + digits : `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** ROE = UPNL / IM, as a percentage. */
export const roeText = (upnl: Exact, initial: bigint, terms: LeverTerms): string | null =>
  percentText(upnl, exact(initial, terms.quoteScale));

/** A take-profit or a stop-loss. */
export type StopKind = 'take_profit' | 'stop_loss';

/**
 * The price at which a position's ROE reaches `roe` percent (a positive exact decimal: a gain for a take-profit, a
 * loss for a stop-loss). From ROE = side × leverage × (P − entry) / entry (ROE = UPNL / IM with IM = Q × entry /
 * leverage): P = entry × (1 ± roe / (100 × leverage)), + for a long's take-profit and a short's stop-loss. Rounded
 * to the tick toward the entry, so the ROE at the price set is never beyond what the trader asked for. Null when the
 * distance rounds to no tick or the price would not be positive.
 */
export function priceAtRoe(
  side: LeverSide,
  kind: StopKind,
  entry: bigint,
  leverage: number,
  roe: Exact,
  priceScale: number,
): bigint | null {
  if (roe.units <= 0n || leverage < 1) return null;
  const distance = divide(mul(exact(entry, priceScale), roe), exact(100n * BigInt(leverage), 0), priceScale, 'down');
  const above = (side === 'long') === (kind === 'take_profit');
  const price = above ? entry + distance : entry - distance;
  return distance > 0n && price > 0n ? price : null;
}

/** The ROE a position would show at `price`, as a percentage text toward zero (the inverse of `priceAtRoe`). */
export const roeAtPriceText = (side: LeverSide, entry: bigint, price: bigint, leverage: number, priceScale: number) =>
  percentText(exact(sideSign(side) * BigInt(leverage) * (price - entry), priceScale), exact(entry, priceScale));

/** Margin ratio = MM / (WB + UPNL), as a percentage; at 100% the position is liquidated. */
export function marginRatioText(mm: Exact, wallet: bigint, upnl: Exact, terms: LeverTerms): string | null {
  const equity = add(exact(wallet, terms.quoteScale), upnl);
  if (equity.units <= 0n) return '100.00';
  return percentText(mm, equity);
}

/** Distance from the mark to the liquidation price, as a percentage of the mark (positive while safe). */
export function liquidationDistanceText(side: LeverSide, mark: bigint, lp: bigint | null, priceScale: number) {
  if (lp === null || mark === 0n) return null;
  const gap = side === 'long' ? mark - lp : lp - mark;
  return percentText(exact(gap, priceScale), exact(mark, priceScale));
}

/** RULES "Lever" defaults; the operator may change them for future positions only. */
export const LEVER_DEFAULTS = Object.freeze({
  mmr: '0.005',
  feeRate: '0.0005',
  leverages: Object.freeze([1, 2, 5, 10, 20, 50, 100]),
});
