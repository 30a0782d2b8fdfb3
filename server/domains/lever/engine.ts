import { type LeverCloseReason, OPEN_LEVER_PHASES } from '../../../protocol/lever';
import {
  type CrossPositionAtMark,
  crossAccountLiquidated,
  firesStop,
  limitOpenCrosses,
  reachesLiquidation,
} from '../../../protocol/rules/lever';
import { ENTRY_TICK_WAIT_MS } from '../../../protocol/spot';
import type { writeTransaction } from '../../platform/db/transaction';
import {
  EngineLoop,
  type EngineOptions,
  type EngineTick,
  EntryWaits,
  firstRecordedTickAfter,
  recordedTicksAfter,
  TriggerBook,
} from '../../trading';
import type { MarkOf } from './cross-backing';
import { type LeverPositionRow, priceUnits, unitsOf } from './positions';
import { cancelOrder, closePart, closePosition, openPosition, restPending, reversePosition } from './settle';
import { withLever } from './tables';
import { LEVER_QUOTE, leverPriceScale } from './terms';

type Transaction = Parameters<Parameters<typeof writeTransaction>[1]>[0];

/** What to do with one row at one tick. */
type Action =
  | { kind: 'open'; row: LeverPositionRow; tick: EngineTick }
  | { kind: 'rest'; row: LeverPositionRow; tick: EngineTick }
  | { kind: 'cancel'; row: LeverPositionRow }
  | { kind: 'close'; row: LeverPositionRow; tick: EngineTick; reason: LeverCloseReason };

type TriggerKind = 'open' | 'liquidation' | 'stop_loss' | 'take_profit';
interface TriggerItem {
  id: number;
  version: number;
  kind: TriggerKind;
}

/** Which of a position's triggers wins when one tick fires several: liquidation, then stop-loss, then take-profit. */
const PRECEDENCE: Record<TriggerKind, number> = { liquidation: 0, stop_loss: 1, take_profit: 2, open: 3 };

const RESYNC_MS = 5_000;
const WALLET_REFRESH_MS = 1_000;
/** Rows changed this long before the last scan are looked at again: on PostgreSQL a change may commit late. */
const SCAN_OVERLAP_MS = 3_000;
/** Recorded ticks read per query when a row catches up. */
const RECORD_PAGE = 10_000;
/**
 * How long a row waits for the price record to be sealed up to where the window begins (a takeover: the dead record
 * writer's last ticks are written by its successor's first batch, a few seconds later) before the engine goes on
 * with what it has: only a record writer stalled this long gets there.
 */
const RECORD_WAIT_MS = 15_000;

/** What `admit` says of a row it cannot decide yet: a tick it must be checked against is in neither record nor window. */
const LATER = Symbol('later');

const accountKey = (row: LeverPositionRow) => `${row.user_id}:${row.book}`;

/**
 * The lever side of the trading engine (DESIGN "The trading engine"). Every process sees every tick; only the
 * process holding the `lever-engine` lease acts: market orders open at their entry tick, limit opens rest in the
 * trigger book until the first tick that crosses them, holding positions close at the first tick after a close
 * request, and take-profit, stop-loss and isolated liquidation prices rest in the trigger book so a tick finds what
 * it fires in O(log n). Cross positions are checked per account whenever one of their instruments ticks: the
 * account is liquidated when its equity falls to its maintenance margin (protocol/rules/lever.ts).
 *
 * Its memory is an index of the database's open rows by version: every change is a conditional update at the
 * version the engine saw, so a trigger the owner changed since cannot fire on its old price, and a row acts once
 * however often or wherever evaluation runs. A row learned late (a restart, a takeover, a change made by another
 * process) is first checked against every recorded tick since it last changed, so it acts at the first tick that
 * crossed it, as if the engine had never been away.
 */
export class LeverEngine extends EngineLoop {
  private readonly rows = new Map<number, LeverPositionRow>();
  private readonly entries = new EntryWaits<LeverPositionRow>(this.window);
  private readonly closes = new EntryWaits<LeverPositionRow>(this.window);
  private readonly book = new TriggerBook<TriggerItem>();
  /** Cross accounts: their holding cross rows, by account key, and the accounts per symbol. */
  private readonly crossRows = new Map<string, Map<number, LeverPositionRow>>();
  private readonly crossBySymbol = new Map<string, Set<string>>();
  private readonly wallets = new Map<string, bigint>();
  /** Rows waiting for the record to be sealed up to the window (see `admit`), with when they were first put off. */
  private readonly putOff = new Map<number, { row: LeverPositionRow; since: number }>();
  private lastScan = 0;
  private lastResync = 0;
  private lastWallets = 0;
  private loaded = false;

  /**
   * The latest price this process knows of a symbol beside the engine's own window: after a takeover the window is
   * empty until a symbol ticks, and a cross account's other positions must still be judged at their marks when one of
   * its orders opens (as a transfer judges them), not taken for unpriced and the open cancelled.
   */
  private readonly lastPrice: MarkOf;

  constructor(options: EngineOptions & { lastPrice?: MarkOf }) {
    super(
      {
        name: 'lever-engine',
        instrument: (symbol) => {
          const priceScale = leverPriceScale(symbol);
          return priceScale === undefined ? undefined : { priceScale };
        },
      },
      options,
    );
    this.lastPrice = options.lastPrice ?? (() => undefined);
  }

  /** Rows this engine is watching (tests and inspection). */
  get watching(): { rows: number; triggers: number; crossAccounts: number } {
    return { rows: this.rows.size, triggers: this.book.size, crossAccounts: this.crossRows.size };
  }

  /** A row this process changed (accepted, closed, stops or margin changed): acted on at once when leading here. */
  changed(row: LeverPositionRow): void {
    this.whileLeading(() => this.learn([row]));
  }

  protected tickWork(tick: EngineTick): () => Promise<void> {
    return () => this.onTick(tick);
  }

  protected forget(): void {
    this.rows.clear();
    this.entries.clear();
    this.closes.clear();
    this.book.clear();
    this.crossRows.clear();
    this.crossBySymbol.clear();
    this.wallets.clear();
    this.putOff.clear();
    this.loaded = false;
    this.lastScan = 0;
  }

  protected async leadRound(): Promise<void> {
    const now = this.now();
    if (!this.loaded) {
      await this.loadAll();
      this.loaded = true;
      this.lastScan = now;
      this.lastResync = now;
    } else {
      const since = this.lastScan - SCAN_OVERLAP_MS;
      this.lastScan = now;
      const fresh = await withLever(this.options.database.db)
        .selectFrom('lever_positions')
        .selectAll()
        .where('updated_at', '>=', since)
        .execute();
      await this.learn(fresh);
    }
    // Rows put off: asked again every round, so they act as soon as the record is sealed far enough.
    if (this.putOff.size > 0) await this.learn([...this.putOff.values()].map((p) => p.row));
    await this.expire(now);
    if (now - this.lastWallets >= WALLET_REFRESH_MS) {
      this.lastWallets = now;
      await this.refreshWallets([...this.crossRows.keys()]);
    }
    if (now - this.lastResync >= RESYNC_MS) {
      this.lastResync = now;
      await this.resync();
    }
  }

  /** Taking the lead: every open row, in pages by id. */
  private async loadAll(): Promise<void> {
    let after = 0;
    for (;;) {
      const page = await withLever(this.options.database.db)
        .selectFrom('lever_positions')
        .selectAll()
        .where('phase', 'in', OPEN_LEVER_PHASES)
        .where('id', '>', after)
        .orderBy('id')
        .limit(5_000)
        .execute();
      if (page.length === 0) break;
      after = page[page.length - 1]?.id ?? after;
      await this.learn(page);
    }
  }

  /** Compares the index with the database's open rows: drops what closed unseen, learns what it lacks. */
  private async resync(): Promise<void> {
    const open = await withLever(this.options.database.db)
      .selectFrom('lever_positions')
      .select(['id', 'version'])
      .where('phase', 'in', OPEN_LEVER_PHASES)
      .execute();
    const versions = new Map(open.map((r) => [r.id, r.version]));
    for (const id of [...this.rows.keys()]) if (!versions.has(id)) this.drop(id);
    for (const id of [...this.putOff.keys()]) if (!versions.has(id)) this.putOff.delete(id);
    const stale = open.filter((r) => (this.rows.get(r.id)?.version ?? 0) < r.version).map((r) => r.id);
    if (stale.length === 0) return;
    const rows = await withLever(this.options.database.db)
      .selectFrom('lever_positions')
      .selectAll()
      .where('id', 'in', stale)
      .execute();
    await this.learn(rows);
  }

  /** Rows as they now are in the database: newer versions replace the index entry and are checked and watched. */
  private async learn(rows: readonly LeverPositionRow[]): Promise<void> {
    const actions: Action[] = [];
    const touched = new Set<string>();
    for (const row of rows) {
      const known = this.rows.get(row.id);
      if (known && known.version >= row.version) continue;
      this.drop(row.id);
      if (!(OPEN_LEVER_PHASES as readonly string[]).includes(row.phase)) {
        this.putOff.delete(row.id);
        continue;
      }
      const putOff = this.putOff.get(row.id);
      const action = await this.admit(row, putOff ? this.now() - putOff.since >= RECORD_WAIT_MS : false);
      if (action === LATER) {
        // Not watched yet (no trigger, no entry wait): the next round asks the record again.
        this.rows.delete(row.id);
        this.putOff.set(row.id, { row, since: putOff?.since ?? this.now() });
        continue;
      }
      this.putOff.delete(row.id);
      if (row.margin_mode === 'cross') touched.add(accountKey(row));
      if (action) actions.push(action);
    }
    if (touched.size > 0) await this.refreshWallets([...touched]);
    await this.apply(actions);
  }

  /**
   * Starts watching a row; returns what it must do now when a tick it has not seen already decided it: its entry
   * tick (waiting), or the first tick since it last changed that crosses one of its prices. LATER when the window
   * does not reach back to the row's time and the record is not sealed up to where the window begins (from a record
   * writer's death until its successor's first write): a tick in between may still be missing from the record, and
   * acting on a later one would skip it. `impatient`: waited RECORD_WAIT_MS for that already, go on with what there is.
   */
  private async admit(row: LeverPositionRow, impatient: boolean): Promise<Action | undefined | typeof LATER> {
    this.rows.set(row.id, row);
    if (row.phase === 'waiting') {
      const recorded = this.window.covers(row.symbol, row.accepted_at)
        ? undefined
        : await this.recordedTick(row.symbol, row.accepted_at);
      if (!recorded && !impatient && !this.window.covers(row.symbol, row.accepted_at)) return LATER;
      const entry = recorded
        ? { item: row, tick: recorded }
        : this.entries.add(`open:${row.id}`, row.symbol, row.accepted_at, row);
      if (!entry) return undefined;
      // Learned late (a restart): a first tick beyond the wait means no tick came in time (RULES "No tick, no trade").
      if (entry.tick.ts > row.accepted_at + ENTRY_TICK_WAIT_MS) return { kind: 'cancel', row };
      return this.onEntry(row, entry.tick);
    }
    if (row.phase === 'closing') {
      const since = row.close_requested_at ?? row.updated_at;
      const recorded = this.window.covers(row.symbol, since) ? undefined : await this.recordedTick(row.symbol, since);
      if (!recorded && !impatient && !this.window.covers(row.symbol, since)) return LATER;
      const entry = recorded ? { tick: recorded } : this.closes.add(`close:${row.id}`, row.symbol, since, row);
      return entry ? { kind: 'close', row, tick: entry.tick, reason: 'user' } : undefined;
    }
    // Pending or holding: check every tick its current terms apply to that went by unseen, then rest its triggers.
    const action = await this.firstDecided(row, impatient);
    if (action) return action;
    this.rest(row);
    return undefined;
  }

  private async recordedTick(symbol: string, ts: number): Promise<EngineTick | undefined> {
    const priceScale = leverPriceScale(symbol);
    if (priceScale === undefined) return undefined;
    return firstRecordedTickAfter(this.options.database.db, symbol, ts, priceScale);
  }

  /**
   * The first tick after the row's `terms_since` that decides it: from the window when it reaches back that far,
   * else from the record (sealed ticks only) a page at a time, then the window's newer ticks, if the window reaches
   * back to the last recorded one (else LATER: the ticks between are in neither yet).
   */
  private async firstDecided(row: LeverPositionRow, impatient: boolean): Promise<Action | undefined | typeof LATER> {
    const since = row.terms_since;
    if (!this.window.covers(row.symbol, since)) {
      const priceScale = leverPriceScale(row.symbol);
      if (priceScale === undefined) return undefined;
      let after = since;
      let lastSeq = -1;
      let lastTs = since;
      for (;;) {
        const page = await recordedTicksAfter(this.options.database.db, row.symbol, after, priceScale, RECORD_PAGE);
        for (const tick of page) {
          const action = this.decide(row, tick);
          if (action) return action;
        }
        const last = page[page.length - 1];
        if (last) {
          lastSeq = last.seq;
          lastTs = last.ts;
        }
        if (!last || page.length < RECORD_PAGE) break;
        // Ticks share a millisecond at most rarely; the next page starts after the last one's time.
        after = last.ts;
      }
      if (!impatient && !this.window.covers(row.symbol, lastTs)) return LATER;
      for (const tick of this.window.after(row.symbol, since)) {
        if (tick.seq <= lastSeq) continue;
        const action = this.decide(row, tick);
        if (action) return action;
      }
      return undefined;
    }
    for (const tick of this.window.after(row.symbol, since)) {
      const action = this.decide(row, tick);
      if (action) return action;
    }
    return undefined;
  }

  /** What one tick does to a pending or holding row, by the rules (a cross row's account is checked apart). */
  private decide(row: LeverPositionRow, tick: EngineTick): Action | undefined {
    if (row.phase === 'pending') {
      if (row.limit_price === null) return undefined;
      return limitOpenCrosses(row.side, priceUnits(row, row.limit_price), tick.units)
        ? { kind: 'open', row, tick }
        : undefined;
    }
    if (row.phase !== 'holding') return undefined;
    if (row.margin_mode === 'isolated' && row.liq_price !== null) {
      if (reachesLiquidation(row.side, priceUnits(row, row.liq_price), tick.units)) {
        return { kind: 'close', row, tick, reason: 'liquidation' };
      }
    }
    if (row.sl_price !== null && firesStop(row.side, 'stop_loss', priceUnits(row, row.sl_price), tick.units)) {
      return { kind: 'close', row, tick, reason: 'stop_loss' };
    }
    if (row.tp_price !== null && firesStop(row.side, 'take_profit', priceUnits(row, row.tp_price), tick.units)) {
      return { kind: 'close', row, tick, reason: 'take_profit' };
    }
    return undefined;
  }

  /** Puts a pending or holding row's prices in the trigger book (and a cross row in its account). */
  private rest(row: LeverPositionRow): void {
    const add = (kind: TriggerKind, price: string | null, upward: boolean) => {
      if (price === null) return;
      this.book.add({
        id: `${kind}:${row.id}`,
        symbol: row.symbol,
        direction: upward ? 'atOrAbove' : 'atOrBelow',
        price: priceUnits(row, price),
        item: { id: row.id, version: row.version, kind },
      });
    };
    const long = row.side === 'long';
    if (row.phase === 'pending') {
      add('open', row.limit_price, !long);
      return;
    }
    if (row.phase !== 'holding') return;
    if (row.margin_mode === 'isolated') add('liquidation', row.liq_price, !long);
    add('stop_loss', row.sl_price, !long);
    add('take_profit', row.tp_price, long);
    if (row.margin_mode === 'cross') {
      const key = accountKey(row);
      let account = this.crossRows.get(key);
      if (!account) {
        account = new Map();
        this.crossRows.set(key, account);
      }
      account.set(row.id, row);
      let keys = this.crossBySymbol.get(row.symbol);
      if (!keys) {
        keys = new Set();
        this.crossBySymbol.set(row.symbol, keys);
      }
      keys.add(key);
    }
  }

  /** Forgets a row everywhere it is indexed. */
  private drop(id: number): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.rows.delete(id);
    this.entries.remove(`open:${id}`);
    this.closes.remove(`close:${id}`);
    for (const kind of ['open', 'liquidation', 'stop_loss', 'take_profit'] as const) this.book.remove(`${kind}:${id}`);
    const key = accountKey(row);
    const account = this.crossRows.get(key);
    if (account?.delete(id) && account.size === 0) {
      this.crossRows.delete(key);
      this.wallets.delete(key);
    }
    // The symbol's account set keeps the key only while one of the account's rows is on that symbol.
    const keys = this.crossBySymbol.get(row.symbol);
    if (keys && ![...(this.crossRows.get(key)?.values() ?? [])].some((r) => r.symbol === row.symbol)) {
      keys.delete(key);
      if (keys.size === 0) this.crossBySymbol.delete(row.symbol);
    }
  }

  /** The entry tick of a waiting row: a market order opens at it; a limit opens if it crosses, else rests. */
  private onEntry(row: LeverPositionRow, tick: EngineTick): Action {
    if (row.order_type === 'market') return { kind: 'open', row, tick };
    if (row.limit_price !== null && limitOpenCrosses(row.side, priceUnits(row, row.limit_price), tick.units)) {
      return { kind: 'open', row, tick };
    }
    return { kind: 'rest', row, tick };
  }

  private async onTick(tick: EngineTick): Promise<void> {
    const actions: Action[] = [];
    for (const entry of this.entries.onTick(tick)) actions.push(this.onEntry(entry.item, tick));
    for (const entry of this.closes.onTick(tick)) {
      actions.push({ kind: 'close', row: entry.item, tick, reason: 'user' });
    }
    // Cross accounts first: a liquidation outranks a take-profit or stop-loss at the same tick, and the account must
    // be judged with all of its positions and its wallet as they stood before this tick.
    actions.push(...this.crossLiquidations(tick));
    // Per row, the strongest trigger this tick fired; a trigger from an older version of its row is ignored.
    const fired = new Map<number, TriggerItem>();
    for (const trigger of this.book.fire(tick.symbol, tick.units)) {
      const { item } = trigger;
      const row = this.rows.get(item.id);
      if (row?.version !== item.version) continue;
      if (!isAfterEntry(row, tick)) {
        // Fired out of the book, but this tick is history for the row: its trigger waits for the next one.
        this.book.add(trigger);
        continue;
      }
      const best = fired.get(item.id);
      if (!best || PRECEDENCE[item.kind] < PRECEDENCE[best.kind]) fired.set(item.id, item);
    }
    for (const item of fired.values()) {
      const row = this.rows.get(item.id) as LeverPositionRow;
      // The row's other triggers leave the book with it; it is re-indexed after the write.
      this.drop(row.id);
      actions.push(
        item.kind === 'open' ? { kind: 'open', row, tick } : { kind: 'close', row, tick, reason: item.kind },
      );
    }
    await this.apply(actions);
  }

  /**
   * The cross accounts with a position on the ticking instrument, checked with every instrument at its latest tick:
   * an account whose equity fell to its maintenance margin has all its cross positions liquidated, each at the
   * latest tick of its own instrument.
   */
  private crossLiquidations(tick: EngineTick): Action[] {
    const keys = this.crossBySymbol.get(tick.symbol);
    if (!keys) return [];
    const actions: Action[] = [];
    for (const key of [...keys]) {
      const rows = [...(this.crossRows.get(key)?.values() ?? [])];
      const wallet = this.wallets.get(key);
      if (wallet === undefined || rows.length === 0) continue;
      const marks = new Map<string, EngineTick>();
      const positions: CrossPositionAtMark[] = [];
      for (const row of rows) {
        const mark = row.symbol === tick.symbol ? tick : this.window.last(row.symbol);
        if (!mark) break;
        // A tick older than a position's entry (a late one, see isAfterEntry) does not judge the account holding it.
        if (row.symbol === tick.symbol && row.entry_seq !== null && tick.seq < row.entry_seq) break;
        marks.set(row.symbol, mark);
        const units = unitsOf(row);
        positions.push({
          side: units.side,
          lots: units.lots,
          entry: units.entry,
          terms: units.terms,
          mark: mark.units,
        });
      }
      if (positions.length !== rows.length) continue;
      if (!crossAccountLiquidated(wallet, units0(rows), positions)) continue;
      for (const row of rows) {
        this.drop(row.id);
        actions.push({ kind: 'close', row, tick: marks.get(row.symbol) as EngineTick, reason: 'liquidation' });
      }
    }
    return actions;
  }

  /** Waiting rows whose entry tick never came: the record is asked first (the window may have missed it). */
  private async expire(now: number): Promise<void> {
    const actions: Action[] = [];
    for (const row of this.entries.expire(now - ENTRY_TICK_WAIT_MS)) {
      const recorded = await this.recordedTick(row.symbol, row.accepted_at);
      actions.push(recorded ? this.onEntry(row, recorded) : { kind: 'cancel', row });
    }
    await this.apply(actions);
  }

  /**
   * The cross wallet of accounts (RULES "Cross margin"): the contract account's available balance plus the margins
   * its cross positions hold.
   */
  private async refreshWallets(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      const rows = [...(this.crossRows.get(key)?.values() ?? [])];
      const first = rows[0];
      if (!first) continue;
      const account = (await this.options.ledger.balances(first.user_id, first.book)).find(
        (b) => b.type === 'contract' && b.currency === LEVER_QUOTE,
      );
      let wallet = BigInt(account?.available ?? 0);
      for (const row of rows) wallet += BigInt(row.margin ?? 0) + BigInt(row.added_margin);
      this.wallets.set(key, wallet);
    }
  }

  /** Applies the actions of one tick or round (group commit), then indexes the rows as they now are. */
  private async apply(actions: readonly Action[]): Promise<void> {
    if (actions.length === 0) return;
    // Rows a step created (a reverse's open): indexed with the rows acted on, so their triggers rest at once. An id
    // from a batch that rolled back and ran again step by step reads as nothing, or as the row the rerun wrote.
    const created: number[] = [];
    const step = async (trx: Transaction, action: Action) => {
      const made = await this.applyOne(trx, action);
      if (made) created.push(made.id);
    };
    await this.commit(actions, {
      batch: async (trx, batch) => {
        for (const action of batch) await step(trx, action);
      },
      one: step,
    });
    const ids = [...new Set([...actions.map((a) => a.row.id), ...created])];
    for (const id of ids) this.drop(id);
    const rows = await withLever(this.options.database.db)
      .selectFrom('lever_positions')
      .selectAll()
      .where('id', 'in', ids)
      .execute();
    await this.learn(rows);
    // Cross accounts whose money moved: their wallet now differs.
    const moved = new Set(actions.filter((a) => a.row.margin_mode === 'cross').map((a) => accountKey(a.row)));
    if (moved.size > 0) await this.refreshWallets([...moved].filter((k) => this.crossRows.has(k)));
  }

  /** One step in the caller's transaction; returns a row it created (a reverse's open), if any. */
  private async applyOne(trx: Transaction, action: Action): Promise<LeverPositionRow | undefined> {
    const now = this.now();
    const { ledger } = this.options;
    const at = action.kind === 'cancel' ? undefined : action.tick;
    const guard = {
      kind: this.options.database.kind,
      markOf: (symbol: string) =>
        symbol === at?.symbol ? at.price : (this.window.last(symbol)?.price ?? this.lastPrice(symbol)),
    };
    switch (action.kind) {
      case 'open':
        await openPosition(trx, ledger, action.row, action.tick, now, guard);
        return;
      case 'rest':
        await restPending(trx, action.row, action.tick, now);
        return;
      case 'cancel':
        await cancelOrder(trx, ledger, action.row, 'no_tick', now);
        return;
      case 'close': {
        const { row, tick } = action;
        if (row.phase === 'closing' && row.close_lots !== null && row.close_lots < row.lots) {
          const split = await closePart(trx, ledger, row, tick, now);
          if (!split) return;
          // The lots that stay are held through this tick, which comes after their entry: it is judged for them too,
          // by their recomputed terms (RULES: triggers are checked on every tick after the entry tick). Skipping it
          // would let a tick past the rest's LP, SL or TP go by. A cross rest is judged with its account from the
          // next tick on (a closing row is not in its account's check, as for a whole close).
          const fired = this.decide(split.position, tick);
          if (fired?.kind === 'close') await closePosition(trx, ledger, split.position, tick, fired.reason, now);
          return;
        }
        const closed = await closePosition(trx, ledger, row, tick, action.reason, now);
        // A reverse opens the other side at this same tick, in this transaction (RULES "Reverse"); a trigger that
        // closed the position first (a liquidation, a stop at a tick before the request) leaves nothing to reverse.
        if (closed && action.reason === 'user' && row.phase === 'closing' && row.reverse_request_id !== null) {
          return reversePosition(trx, ledger, closed, tick, now, guard);
        }
        return;
      }
    }
  }
}

/**
 * Whether `tick` comes after the row's entry tick, so that its triggers may fire on it (RULES "Lever": triggers are
 * checked on every recorded tick after the entry tick). Ticks reach an engine in order, but not always before the rows
 * opened on later ones: a process that takes the market over after its leader died generates again the steps the
 * dead leader had published, which the dead leader's engines may already have opened positions on. Such a tick
 * (same walk, same price, a lower sequence number than the entry) is history for the row, never a trigger.
 */
function isAfterEntry(row: LeverPositionRow, tick: EngineTick): boolean {
  if (row.symbol !== tick.symbol) return true;
  // A pending limit open rested at its entry tick (terms_since): the ticks before it were before its acceptance.
  if (row.entry_seq === null) return tick.ts > row.terms_since;
  return tick.seq > row.entry_seq;
}

/** The quote scale of an account's rows (they all trade in USDT). */
const units0 = (rows: readonly LeverPositionRow[]): number => (rows[0] ? unitsOf(rows[0]).terms.quoteScale : 6);
