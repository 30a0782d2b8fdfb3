import type { LeverAccount, LeverInstrument, LeverPosition, LeverSide, MarginMode } from '../../protocol/lever';
import {
  add,
  type CrossPositionAtMark,
  compare,
  crossLiquidationPrice,
  type Exact,
  initialMargin,
  isolatedLiquidationPrice,
  type LeverPositionUnits,
  type LeverTerms,
  liquidationDistanceText,
  maintenanceMarginExact,
  marginRatioText,
  mul,
  roeText,
  sub,
  toQuote,
  unrealisedPnlExact,
} from '../../protocol/rules/lever';
import { exactDecimal, fromUnits, toUnits } from '../../protocol/rules/spot';

/**
 * The positions worker's math (DESIGN "workers/", issue "The worker"): the user's open lever positions, and for
 * every mark update each position's floating P&L, ROE, margin ratio, liquidation price and distance to it, and
 * each book's totals, all through protocol/rules/lever.ts so that the screen agrees with the server's engine.
 * Pure (no Comlink, no DOM): the worker exposes it, Node tests it.
 *
 * Strings in, strings out: every amount crosses as exact decimal text, ids as numbers; bigint and `Exact` stay
 * inside. Only 'holding' and 'closing' positions count; other phases are dropped (an upsert to 'closed' removes).
 *
 * Each call returns a `PositionsUpdate` holding only the positions whose figures differ from what was last
 * returned (a view keeps a map by id and merges), the ids no longer open, and both books' totals in full;
 * `snapshot()` returns every position, for a view that mounts late.
 *
 * Cost per update: terms, units and the isolated liquidation price (it does not move with the mark) are read
 * once when a position arrives. A mark update recomputes the positions of the symbols whose mark changed, plus
 * the cross positions of the books they belong to (a cross LP moves with every other cross position's P&L);
 * everything else keeps its figures.
 */

/** Distance to liquidation, percent of the mark, below which a position shows as near liquidation. */
export const NEAR_LIQUIDATION_PERCENT = '5';
/** Below this distance (percent of the mark), or past the liquidation price, a position shows as in danger. */
export const DANGER_LIQUIDATION_PERCENT = '2';
export type LiquidationWarning = 'safe' | 'near' | 'danger';

/** USDT decimals in the ledger (lever/deal `scale`), until setInstruments says otherwise. */
export const DEFAULT_QUOTE_SCALE = 6;
const ACCOUNTS: readonly LeverAccount[] = ['real', 'simulator'];

export type InstrumentScale = Pick<LeverInstrument, 'symbol' | 'price_scale'>;
/** A mark (a recorded tick fits): price as decimal text at the instrument's scale. */
export interface MarkInput {
  symbol: string;
  price: string;
}
/** The cross wallet per book as decimal text (lever/deal `cross_wallet`: available plus the cross margins held). */
export type CrossWallets = Partial<Record<LeverAccount, string>>;

export interface PositionFigures {
  id: number;
  symbol: string;
  account: LeverAccount;
  marginMode: MarginMode;
  side: LeverSide;
  /** The mark these figures are at, price text. */
  mark: string;
  /** Floating P&L, USDT text, rounded toward −∞ (never in the user's favour). */
  pnl: string;
  /** UPNL / IM, percent text. */
  roe: string | null;
  /** Isolated: MM / (margin + UPNL). Cross: the book's Σ MM / (cross wallet + Σ UPNL), shared by its cross rows. */
  marginRatio: string | null;
  /** Price text; null shows "--": none (the margin covers everything) or, cross, not known yet (wallet or a mark). */
  liquidationPrice: string | null;
  /** (mark − LP) / mark for a long, (LP − mark) / mark for a short, percent text; negative past the LP. */
  liquidationDistance: string | null;
  warning: LiquidationWarning;
}

export interface BookTotals {
  account: LeverAccount;
  /** Open positions held in this book (holding or closing). */
  positions: number;
  /** Σ of the rows' floating P&L (rows without a mark yet count as 0), USDT text. */
  pnl: string;
  /** Σ margin held by the open positions (initial plus added), USDT text. */
  margin: string;
  /** Cross wallet + isolated margins + Σ floating P&L; null until the book's cross wallet is known. */
  equity: string | null;
  /** Σ MM / (cross wallet + Σ UPNL) of the cross positions; null without cross positions, wallet or marks. */
  crossMarginRatio: string | null;
}

export interface PositionsUpdate {
  changed: PositionFigures[];
  /** Ids returned before that no longer have figures (closed, cancelled, removed, or no longer readable). */
  removed: number[];
  totals: Record<LeverAccount, BookTotals>;
  /** Inputs that could not be read and were ignored ('position 12', 'mark BTCUSDT', 'wallet real'), for the log. */
  rejected: string[];
}

/** What the worker exposes; the app reaches it through workers/positions.ts. */
export interface PositionsApi {
  setInstruments(instruments: readonly InstrumentScale[], quoteScale?: number): PositionsUpdate;
  setWallets(wallets: CrossWallets): PositionsUpdate;
  /** Replaces every position (the `positions` topic's snapshot, or lever/my_trade). */
  setPositions(positions: readonly LeverPosition[]): PositionsUpdate;
  /** One position changed (the topic's `position` message); a phase other than holding/closing removes it. */
  upsert(position: LeverPosition): PositionsUpdate;
  remove(ids: readonly number[]): PositionsUpdate;
  applyMarks(marks: readonly MarkInput[]): PositionsUpdate;
  snapshot(): PositionsUpdate;
}

/** One open position, read into units once. */
interface Held {
  id: number;
  symbol: string;
  account: LeverAccount;
  mode: MarginMode;
  units: LeverPositionUnits;
  initial: bigint;
  /** Isolated only: fixed by the margin, so computed once. */
  isolatedLp: bigint | null;
  /** At the latest mark (null until the symbol has one). */
  mark: bigint | null;
  upnl: Exact;
  mm: Exact;
  /** UPNL − MM: a cross book sums it for everyone's liquidation price. */
  net: Exact;
  pnl: bigint;
  markText: string;
  pnlText: string;
  roe: string | null;
  /** Last figures returned (null: never, or taken back). */
  figures: PositionFigures | null;
}

// No calls at module level: the page imports this module only for the in-thread fallback, and a module without
// side effects is dropped from its chunk when the fallback is not used.
const ZERO: Exact = { units: 0n, scale: 0 };
const isOpen = (phase: string): boolean => phase === 'holding' || phase === 'closing';
const validScale = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= 30;

/**
 * crossLiquidationPrice reads the other cross positions only through their sums Σ MM′ and Σ UPNL′. Handing it
 * one stand-in for all of them (one lot of size 1, MMR 0, entry 0, its mark the exact sum UPNL′ − MM′ at that
 * sum's scale) gives it exactly the same WB − TMM′ + UPNL′, so each cross LP costs O(1) after one pass over the
 * book instead of re-summing every other position: O(n) per book and update rather than O(n²). The tests hold it
 * equal to the call with the real others.
 */
function othersAsOne(rest: Exact, quoteScale: number): CrossPositionAtMark {
  const terms = { contractSize: '1', mmr: '0', feeRate: '0', priceScale: rest.scale, quoteScale };
  return { side: 'long', lots: 1n, entry: 0n, mark: rest.units, terms };
}

/** Near or danger when gap / mark is below the threshold percent: gap × 100 < threshold × mark, compared exactly. */
function warningFor(side: LeverSide, mark: bigint, lp: bigint | null): LiquidationWarning {
  if (lp === null) return 'safe';
  const gap: Exact = { units: (side === 'long' ? mark - lp : lp - mark) * 100n, scale: 0 };
  const at: Exact = { units: mark, scale: 0 };
  // exactDecimal caches what it has read: the thresholds are parsed once.
  if (compare(gap, mul(at, exactDecimal(DANGER_LIQUIDATION_PERCENT))) < 0) return 'danger';
  return compare(gap, mul(at, exactDecimal(NEAR_LIQUIDATION_PERCENT))) < 0 ? 'near' : 'safe';
}

function sameFigures(a: PositionFigures | null, b: PositionFigures): boolean {
  return (
    a !== null &&
    a.mark === b.mark &&
    a.pnl === b.pnl &&
    a.roe === b.roe &&
    a.marginRatio === b.marginRatio &&
    a.liquidationPrice === b.liquidationPrice &&
    a.liquidationDistance === b.liquidationDistance &&
    a.warning === b.warning
  );
}

/** A wire position in units, or null when a field does not read (the rules throw on malformed terms). */
function readPosition(p: LeverPosition, priceScale: number, quoteScale: number): Held | null {
  if (p.entry_price === null || !Number.isSafeInteger(p.lots) || p.lots < 1) return null;
  if (p.margin_mode !== 'isolated' && p.margin_mode !== 'cross') return null;
  if (p.account_type !== 'real' && p.account_type !== 'simulator') return null;
  const entry = toUnits(p.entry_price, priceScale);
  const added = toUnits(p.additional_margin, quoteScale);
  const wireInitial = p.initial_margin === null ? null : toUnits(p.initial_margin, quoteScale);
  if (entry === null || added === null || (p.initial_margin !== null && wireInitial === null)) return null;
  const terms: LeverTerms = { contractSize: p.contract_size, mmr: p.mmr, feeRate: p.fee_rate, priceScale, quoteScale };
  try {
    const lots = BigInt(p.lots);
    // The server's held margin when it sent one; the rule's IM otherwise (the same number, rounded up).
    const initial = wireInitial ?? initialMargin(lots, entry, p.leverage, terms);
    const units: LeverPositionUnits = { side: p.direction, lots, entry, margin: initial + added, terms };
    const isolatedLp = p.margin_mode === 'isolated' ? isolatedLiquidationPrice(units) : null;
    // Reads the MMR and contract size once here, so that a malformed term fails now and not on a mark.
    maintenanceMarginExact(lots, entry, terms);
    const blank = { mark: null, upnl: ZERO, mm: ZERO, net: ZERO, pnl: 0n, markText: '', pnlText: '', roe: null };
    return {
      id: p.id,
      symbol: p.symbol,
      account: p.account_type,
      mode: p.margin_mode,
      units,
      initial,
      isolatedLp,
      figures: null,
      ...blank,
    };
  } catch {
    return null;
  }
}

export class PositionsCompute implements PositionsApi {
  private quoteScale = DEFAULT_QUOTE_SCALE;
  /** Terms only for their quote scale (marginRatioText of a whole book). */
  private quoteTerms: LeverTerms = {
    contractSize: '1',
    mmr: '0',
    feeRate: '0',
    priceScale: 0,
    quoteScale: DEFAULT_QUOTE_SCALE,
  };
  private readonly scales = new Map<string, number>();
  /** Every open position as received: re-read when its instrument's scale or the quote scale arrives or changes. */
  private readonly wire = new Map<number, LeverPosition>();
  private readonly held = new Map<number, Held>();
  private readonly bySymbol = new Map<string, Set<Held>>();
  private readonly byBook: Record<LeverAccount, Set<Held>> = { real: new Set(), simulator: new Set() };
  private readonly crossByBook: Record<LeverAccount, Set<Held>> = { real: new Set(), simulator: new Set() };
  /** Mark text as received (parsed again when a scale arrives later) and in price units. */
  private readonly markTexts = new Map<string, string>();
  private readonly marks = new Map<string, bigint>();
  private readonly walletTexts: Partial<Record<LeverAccount, string>> = {};
  private readonly wallets: Record<LeverAccount, bigint | null> = { real: null, simulator: null };
  private readonly crossRatio: Record<LeverAccount, string | null> = { real: null, simulator: null };
  private readonly totals: Record<LeverAccount, BookTotals>;
  /** Ids whose figures a caller holds: the ones to name in `removed` when they go. */
  private readonly reported = new Set<number>();

  // What the current call touched; flush() turns it into an update and clears it.
  private readonly ownDirty = new Set<Held>();
  private readonly crossDirty = new Set<LeverAccount>();
  private readonly bookDirty = new Set<LeverAccount>();
  private readonly maybeGone = new Set<number>();
  private rejected: string[] = [];

  constructor() {
    this.totals = { real: this.bookTotals('real'), simulator: this.bookTotals('simulator') };
  }

  setInstruments(instruments: readonly InstrumentScale[], quoteScale?: number): PositionsUpdate {
    const changed = new Set<string>();
    for (const { symbol, price_scale } of instruments) {
      if (!validScale(price_scale)) this.rejected.push(`instrument ${symbol}`);
      else if (this.scales.get(symbol) !== price_scale) {
        this.scales.set(symbol, price_scale);
        changed.add(symbol);
      }
    }
    if (quoteScale !== undefined && quoteScale !== this.quoteScale) {
      if (validScale(quoteScale)) this.setQuoteScale(quoteScale);
      else this.rejected.push('quote scale');
    }
    for (const symbol of changed) this.readMark(symbol);
    for (const p of this.wire.values()) if (changed.has(p.symbol)) this.place(p);
    return this.flush();
  }

  setWallets(wallets: CrossWallets): PositionsUpdate {
    for (const account of ACCOUNTS) {
      const text = wallets[account];
      if (text === undefined) continue;
      if (typeof text !== 'string' || toUnits(text, this.quoteScale) === null) this.rejected.push(`wallet ${account}`);
      else {
        this.walletTexts[account] = text;
        this.readWallet(account);
      }
    }
    return this.flush();
  }

  setPositions(positions: readonly LeverPosition[]): PositionsUpdate {
    const keep = new Set(positions.map((p) => p.id));
    for (const id of [...this.wire.keys()]) if (!keep.has(id)) this.drop(id);
    for (const p of positions) this.upsertOne(p);
    return this.flush();
  }

  upsert(position: LeverPosition): PositionsUpdate {
    this.upsertOne(position);
    return this.flush();
  }

  remove(ids: readonly number[]): PositionsUpdate {
    for (const id of ids) this.drop(id);
    return this.flush();
  }

  applyMarks(marks: readonly MarkInput[]): PositionsUpdate {
    for (const { symbol, price } of marks) {
      if (typeof price !== 'string') this.rejected.push(`mark ${symbol}`);
      else this.setMark(symbol, price);
    }
    return this.flush();
  }

  snapshot(): PositionsUpdate {
    const changed: PositionFigures[] = [];
    for (const h of this.held.values()) if (h.figures !== null) changed.push(h.figures);
    return { changed, removed: [], totals: { ...this.totals }, rejected: [] };
  }

  private setQuoteScale(scale: number): void {
    this.quoteScale = scale;
    this.quoteTerms = { ...this.quoteTerms, quoteScale: scale };
    for (const account of ACCOUNTS) this.readWallet(account);
    for (const p of this.wire.values()) this.place(p);
  }

  private readWallet(account: LeverAccount): void {
    const text = this.walletTexts[account];
    const units = text === undefined ? null : toUnits(text, this.quoteScale);
    if (units === null && text !== undefined) this.rejected.push(`wallet ${account}`);
    if (units === this.wallets[account]) return;
    this.wallets[account] = units;
    this.crossDirty.add(account);
    this.bookDirty.add(account);
  }

  private setMark(symbol: string, price: string): void {
    const scale = this.scales.get(symbol);
    // Without the instrument's scale the text cannot be read yet; keep it for when setInstruments brings it.
    if (scale !== undefined && toUnits(price, scale) === null) {
      this.rejected.push(`mark ${symbol}`);
      return;
    }
    this.markTexts.set(symbol, price);
    this.readMark(symbol);
  }

  private readMark(symbol: string): void {
    const text = this.markTexts.get(symbol);
    const scale = this.scales.get(symbol);
    if (text === undefined || scale === undefined) return;
    const units = toUnits(text, scale);
    if (units === null) {
      // Unreadable at a new scale: forget it rather than keep units of the old one.
      this.rejected.push(`mark ${symbol}`);
      this.markTexts.delete(symbol);
      this.marks.delete(symbol);
      return;
    }
    if (this.marks.get(symbol) === units) return;
    this.marks.set(symbol, units);
    for (const h of this.bySymbol.get(symbol) ?? []) this.ownDirty.add(h);
  }

  private upsertOne(p: LeverPosition): void {
    if (!isOpen(p.phase)) {
      this.drop(p.id);
      return;
    }
    this.wire.set(p.id, p);
    this.place(p);
    // The server's own mark starts a symbol the mark stream has not reached yet (never overrides a live one).
    if (p.mark && !this.markTexts.has(p.symbol)) this.setMark(p.symbol, p.mark.price);
  }

  /** (Re)reads a wire position into `held` and its indexes; it waits there unread while its scale is unknown. */
  private place(p: LeverPosition): void {
    this.unindex(p.id);
    const scale = this.scales.get(p.symbol);
    if (scale === undefined) return;
    const h = readPosition(p, scale, this.quoteScale);
    if (h === null) {
      this.rejected.push(`position ${p.id}`);
      return;
    }
    this.held.set(h.id, h);
    let same = this.bySymbol.get(h.symbol);
    if (same === undefined) {
      same = new Set();
      this.bySymbol.set(h.symbol, same);
    }
    same.add(h);
    this.byBook[h.account].add(h);
    if (h.mode === 'cross') this.crossByBook[h.account].add(h);
    this.ownDirty.add(h);
    this.bookDirty.add(h.account);
  }

  private drop(id: number): void {
    this.wire.delete(id);
    this.unindex(id);
  }

  private unindex(id: number): void {
    const h = this.held.get(id);
    this.maybeGone.add(id);
    if (h === undefined) return;
    this.held.delete(id);
    this.bySymbol.get(h.symbol)?.delete(h);
    this.byBook[h.account].delete(h);
    if (this.crossByBook[h.account].delete(h)) this.crossDirty.add(h.account);
    this.ownDirty.delete(h);
    this.bookDirty.add(h.account);
  }

  /** The position's own figures at its mark (what depends on nothing else). */
  private measure(h: Held, mark: bigint): void {
    const { units } = h;
    h.mark = mark;
    h.upnl = unrealisedPnlExact(units, mark);
    h.mm = maintenanceMarginExact(units.lots, mark, units.terms);
    h.net = sub(h.upnl, h.mm);
    // pnlUnits(units, mark), from the UPNL already at hand rather than computing it twice.
    h.pnl = toQuote(h.upnl, units.terms, 'down');
    h.markText = fromUnits(mark, units.terms.priceScale);
    h.pnlText = fromUnits(h.pnl, units.terms.quoteScale);
    h.roe = roeText(h.upnl, h.initial, units.terms);
  }

  private figures(h: Held, mark: bigint, lp: bigint | null, marginRatio: string | null): PositionFigures {
    const { side, terms } = h.units;
    return {
      id: h.id,
      symbol: h.symbol,
      account: h.account,
      marginMode: h.mode,
      side,
      mark: h.markText,
      pnl: h.pnlText,
      roe: h.roe,
      marginRatio,
      liquidationPrice: lp === null ? null : fromUnits(lp, terms.priceScale),
      liquidationDistance: liquidationDistanceText(side, mark, lp, terms.priceScale),
      warning: warningFor(side, mark, lp),
    };
  }

  /** Every cross position of a book: its LP and the book's margin ratio move with any of their marks. */
  private crossFigures(account: LeverAccount, changed: PositionFigures[]): void {
    const members = this.crossByBook[account];
    const wallet = this.wallets[account];
    let complete = wallet !== null && members.size > 0;
    let total = ZERO;
    let tmm = ZERO;
    let upnl = ZERO;
    for (const h of members) {
      if (h.mark === null) complete = false;
      else {
        total = add(total, h.net);
        tmm = add(tmm, h.mm);
        upnl = add(upnl, h.upnl);
      }
    }
    // With a mark missing the book's sums are not known: LP and ratio show "--" rather than a wrong number.
    const ratio = complete && wallet !== null ? marginRatioText(tmm, wallet, upnl, this.quoteTerms) : null;
    this.crossRatio[account] = ratio;
    for (const h of members) {
      if (h.mark === null) continue;
      const lp =
        complete && wallet !== null
          ? crossLiquidationPrice(h.units, wallet, [othersAsOne(sub(total, h.net), this.quoteScale)])
          : null;
      this.report(h, this.figures(h, h.mark, lp, ratio), changed);
    }
  }

  private report(h: Held, next: PositionFigures, changed: PositionFigures[]): void {
    if (sameFigures(h.figures, next)) return;
    h.figures = next;
    this.reported.add(h.id);
    changed.push(next);
  }

  private bookTotals(account: LeverAccount): BookTotals {
    let pnl = 0n;
    let margin = 0n;
    let isolatedMargin = 0n;
    const book = this.byBook[account];
    for (const h of book) {
      margin += h.units.margin;
      if (h.mode === 'isolated') isolatedMargin += h.units.margin;
      if (h.mark !== null) pnl += h.pnl;
    }
    const wallet = this.wallets[account];
    return {
      account,
      positions: book.size,
      pnl: fromUnits(pnl, this.quoteScale),
      margin: fromUnits(margin, this.quoteScale),
      equity: wallet === null ? null : fromUnits(wallet + isolatedMargin + pnl, this.quoteScale),
      crossMarginRatio: this.crossByBook[account].size > 0 ? this.crossRatio[account] : null,
    };
  }

  private flush(): PositionsUpdate {
    const changed: PositionFigures[] = [];
    for (const h of this.ownDirty) {
      const mark = this.marks.get(h.symbol);
      if (mark === undefined) continue;
      this.measure(h, mark);
      this.bookDirty.add(h.account);
      if (h.mode === 'cross') this.crossDirty.add(h.account);
      else {
        // Isolated: the position's own margin is its wallet, so nothing else in the book moves its figures.
        const ratio = marginRatioText(h.mm, h.units.margin, h.upnl, h.units.terms);
        this.report(h, this.figures(h, mark, h.isolatedLp, ratio), changed);
      }
    }
    for (const account of this.crossDirty) this.crossFigures(account, changed);
    const removed: number[] = [];
    for (const id of this.maybeGone) {
      if (this.held.get(id)?.figures || !this.reported.delete(id)) continue;
      removed.push(id);
    }
    for (const account of this.bookDirty) this.totals[account] = this.bookTotals(account);
    const rejected = this.rejected;
    this.rejected = [];
    this.ownDirty.clear();
    this.crossDirty.clear();
    this.bookDirty.clear();
    this.maybeGone.clear();
    return { changed, removed, totals: { ...this.totals }, rejected };
  }
}

/**
 * The API as a plain object of functions: what the worker exposes (Comlink then reaches the methods and nothing
 * of the state) and what an in-thread fallback calls.
 */
export function positionsApi(compute: PositionsCompute = new PositionsCompute()): PositionsApi {
  return {
    setInstruments: (instruments, quoteScale) => compute.setInstruments(instruments, quoteScale),
    setWallets: (wallets) => compute.setWallets(wallets),
    setPositions: (positions) => compute.setPositions(positions),
    upsert: (position) => compute.upsert(position),
    remove: (ids) => compute.remove(ids),
    applyMarks: (marks) => compute.applyMarks(marks),
    snapshot: () => compute.snapshot(),
  };
}
