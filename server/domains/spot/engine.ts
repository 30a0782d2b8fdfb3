import { crosses, toUnits } from '../../../protocol/rules/spot';
import { ENTRY_TICK_WAIT_MS } from '../../../protocol/spot';
import { withPriceRecord } from '../../market';
import type { writeTransaction } from '../../platform/db/transaction';
import { EngineLoop, type EngineOptions, type EngineTick, EntryWaits, TriggerBook } from '../../trading';
import { OPEN_STATES, type SpotOrderRow } from './orders';
import { cancelOrder, fillMany, fillOrder, restOrder } from './settle';
import { withSpot } from './tables';
import { spotInstrument } from './terms';

export type SpotEngineOptions = EngineOptions;

/** What to do with one order at one tick. */
type Action =
  | { kind: 'fill'; row: SpotOrderRow; tick: EngineTick }
  | { kind: 'rest'; row: SpotOrderRow }
  | { kind: 'cancel'; row: SpotOrderRow; reason: 'no_tick' };

type FillAction = Extract<Action, { kind: 'fill' }>;
type Transaction = Parameters<Parameters<typeof writeTransaction>[1]>[0];

/**
 * The actions in their order, with each run of fills at the same tick of the same instrument gathered into one list
 * (settled together); every other action stays on its own. Keeping the order keeps the outcome of an order named
 * twice the same as one by one.
 */
function groupFills(actions: readonly Action[]): Array<Action | FillAction[]> {
  const groups: Array<Action | FillAction[]> = [];
  let run: FillAction[] | null = null;
  for (const action of actions) {
    if (action.kind !== 'fill') {
      groups.push(action);
      run = null;
      continue;
    }
    const last = run?.[0];
    if (run && last && last.row.symbol === action.row.symbol && last.tick.seq === action.tick.seq) {
      run.push(action);
      continue;
    }
    run = [action];
    groups.push(run);
  }
  return groups;
}

const RESYNC_MS = 5_000;
const triggerId = (row: SpotOrderRow) => `spot:${row.id}`;

/**
 * The spot side of the trading engine (DESIGN "The trading engine"). Every process sees every tick; only the process
 * holding the `spot-engine` lease acts on them: it gives waiting orders their entry tick (RULES "Which tick counts"),
 * rests limit orders whose entry tick did not cross in the trigger book, fills them at the first tick that crosses,
 * and cancels orders with no tick within the wait. Its memory is only an index of the database's open orders: a
 * process that takes the lease over loads them again, and every change is a conditional update, so an order fills
 * once however often or wherever evaluation runs.
 */
export class SpotEngine extends EngineLoop {
  private readonly waits = new EntryWaits<SpotOrderRow>(this.window);
  private readonly book = new TriggerBook<SpotOrderRow>();
  private lastId = 0;
  private lastResync = 0;
  constructor(options: SpotEngineOptions) {
    super({ name: 'spot-engine', instrument: spotInstrument }, options);
  }

  /** Open orders this engine is watching (for tests and inspection). */
  get watching(): { waiting: number; resting: number } {
    return { waiting: this.waits.size, resting: this.book.size };
  }

  /** An order this process just accepted: watched at once when this process leads (no wait for the next round). */
  accepted(row: SpotOrderRow): void {
    this.whileLeading(() => this.admit([row]));
  }

  /** Decided in the chain, not as the tick arrives: the trigger book must hold what work queued before it rests. */
  protected tickWork(tick: EngineTick): () => Promise<void> {
    return () => this.onTick(tick);
  }

  /** Another process leads: forget the index (it is rebuilt from the database on taking the lease). */
  protected forget(): void {
    this.waits.clear();
    this.book.clear();
    this.lastId = 0;
  }

  protected async leadRound(): Promise<void> {
    const now = this.now();
    const fresh = await withSpot(this.options.database.db)
      .selectFrom('spot_orders')
      .selectAll()
      .where('state', 'in', OPEN_STATES)
      .where('id', '>', this.lastId)
      .orderBy('id')
      .limit(5_000)
      .execute();
    // Only this scan moves the mark: an order admitted at once (`accepted`) can have a higher id than orders another
    // process accepted a moment before, which the next scan must still find (not 5 s later by the resync).
    for (const row of fresh) this.lastId = Math.max(this.lastId, row.id);
    await this.admit(fresh);
    await this.admitSkipped();
    await this.expire(now);
    if (now - this.lastResync >= RESYNC_MS) {
      this.lastResync = now;
      await this.resync();
    }
  }

  /**
   * Waiting orders below the mark that the index lacks, every round (the resync would find them only seconds later,
   * after their entry tick): on PostgreSQL an order can commit after one with a higher id was already seen. Waiting
   * orders are few (each waits one tick), and the (state, id) index answers with ids alone.
   */
  private async admitSkipped(): Promise<void> {
    const waiting = await withSpot(this.options.database.db)
      .selectFrom('spot_orders')
      .select('id')
      .where('state', '=', 'waiting')
      .where('id', '<=', this.lastId)
      .execute();
    const skipped = waiting.map((r) => r.id).filter((id) => !this.waits.has(`spot:${id}`));
    if (skipped.length === 0) return;
    const rows = await withSpot(this.options.database.db)
      .selectFrom('spot_orders')
      .selectAll()
      .where('id', 'in', skipped)
      .where('state', '=', 'waiting')
      .execute();
    await this.admit(rows);
  }

  /** Starts watching orders: waiting ones for their entry tick, pending ones in the trigger book. */
  private async admit(rows: readonly SpotOrderRow[]): Promise<void> {
    const actions: Action[] = [];
    for (const row of rows) {
      if (row.state === 'pending') {
        this.rest(row);
        continue;
      }
      if (row.state !== 'waiting' || this.waits.has(triggerId(row))) continue;
      // A window that starts after the acceptance (a restart, a takeover after a gap) does not know the entry tick:
      // the first tick this process sees is not it when the record holds an earlier one (RULES "Which tick counts").
      const recorded = await this.recordedEntry(row);
      if (recorded) {
        actions.push(...this.onEntry(row, recorded));
        continue;
      }
      const entry = this.waits.add(triggerId(row), row.symbol, row.accepted_at, row);
      if (entry) actions.push(...this.onEntry(entry.item, entry.tick));
    }
    await this.apply(actions);
  }

  private rest(row: SpotOrderRow): void {
    const instrument = spotInstrument(row.symbol);
    const limit = instrument && row.price !== null ? toUnits(row.price, instrument.priceScale) : null;
    if (limit === null) return;
    this.book.add({
      id: triggerId(row),
      symbol: row.symbol,
      direction: row.side === 'buy' ? 'atOrBelow' : 'atOrAbove',
      price: limit,
      item: row,
    });
  }

  /** The entry tick of a waiting order: a market order fills at it; a limit order fills if it crosses, else rests. */
  private onEntry(row: SpotOrderRow, tick: EngineTick): Action[] {
    if (row.type === 'market') return [{ kind: 'fill', row, tick }];
    const instrument = spotInstrument(row.symbol);
    const limit = instrument && row.price !== null ? toUnits(row.price, instrument.priceScale) : null;
    if (limit !== null && crosses(row.side, limit, tick.units)) return [{ kind: 'fill', row, tick }];
    return [{ kind: 'rest', row }];
  }

  private async onTick(tick: EngineTick): Promise<void> {
    const actions: Action[] = [];
    for (const entry of this.waits.onTick(tick)) actions.push(...this.onEntry(entry.item, tick));
    for (const fired of this.book.fire(tick.symbol, tick.units)) {
      // A tick from before the acceptance reaching this engine late (a new market leader generates again the steps
      // the dead one had published) is not one of the order's ticks: its limit waits in the book for the next.
      if (tick.ts <= fired.item.accepted_at) {
        this.book.add(fired);
        continue;
      }
      actions.push({ kind: 'fill', row: fired.item, tick });
    }
    await this.apply(actions);
  }

  /**
   * Waits that ran out: before cancelling, the price record is asked for a tick after acceptance (this process may
   * have taken the lease after that tick went by, so its window never saw it).
   */
  private async expire(now: number): Promise<void> {
    const actions: Action[] = [];
    for (const row of this.waits.expire(now - ENTRY_TICK_WAIT_MS)) {
      const recorded = await this.recordedEntry(row);
      actions.push(
        ...(recorded ? this.onEntry(row, recorded) : [{ kind: 'cancel' as const, row, reason: 'no_tick' as const }]),
      );
    }
    await this.apply(actions);
  }

  private async recordedEntry(row: SpotOrderRow): Promise<EngineTick | undefined> {
    // Only a window that has seen past the wait proves there was no tick in it; else the record decides.
    if (this.window.holdsSpan(row.symbol, row.accepted_at, row.accepted_at + ENTRY_TICK_WAIT_MS)) return undefined;
    const instrument = spotInstrument(row.symbol);
    if (!instrument) return undefined;
    const tick = await withPriceRecord(this.options.database.db)
      .selectFrom('price_ticks')
      .select(['seq', 'ts', 'price'])
      .where('symbol', '=', row.symbol)
      .where('ts', '>', row.accepted_at)
      .orderBy('ts')
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    const units = tick ? toUnits(tick.price, instrument.priceScale) : null;
    if (!tick || units === null) return undefined;
    return { symbol: row.symbol, seq: tick.seq, ts: tick.ts, price: tick.price, units };
  }

  /**
   * Brings the index in line with the database: drops the orders that closed elsewhere (cancelled by their owner on
   * another process) and admits open orders the scans by id skipped. Ids are taken when a row is inserted, not when
   * it commits: on PostgreSQL order 10 may commit after order 11 was already seen, so `id > lastId` alone would never
   * find it.
   */
  private async resync(): Promise<void> {
    const open = await withSpot(this.options.database.db)
      .selectFrom('spot_orders')
      .select('id')
      .where('state', 'in', OPEN_STATES)
      .where('id', '<=', this.lastId)
      .execute();
    const ids = new Set(open.map((r) => `spot:${r.id}`));
    for (const id of this.book.ids()) if (!ids.has(id)) this.book.remove(id);
    for (const id of this.waits.idList()) if (!ids.has(id)) this.waits.remove(id);
    const missed = open
      .filter((r) => !this.book.has(`spot:${r.id}`) && !this.waits.has(`spot:${r.id}`))
      .map((r) => r.id);
    if (missed.length === 0) return;
    const rows = await withSpot(this.options.database.db)
      .selectFrom('spot_orders')
      .selectAll()
      .where('id', 'in', missed)
      .where('state', 'in', OPEN_STATES)
      .execute();
    await this.admit(rows);
  }

  /** Applies the actions of one tick or round, many per transaction (group commit). */
  private async apply(actions: readonly Action[]): Promise<void> {
    await this.commit(actions, {
      batch: async (trx, batch) => {
        for (const group of groupFills(batch)) {
          if (Array.isArray(group)) await this.applyFills(trx, group);
          else await this.applyOne(trx, group);
        }
      },
      one: (trx, action) => this.applyOne(trx, action),
    });
    // Into the book even when the write failed, as before: an order that closed meanwhile leaves it at the resync.
    for (const action of actions) if (action.kind === 'rest') this.rest(action.row);
  }

  /** Fills at one tick of one instrument, settled together (`fillMany`). */
  private async applyFills(trx: Transaction, fills: readonly FillAction[]): Promise<void> {
    const first = fills[0];
    const instrument = first && spotInstrument(first.row.symbol);
    if (!first || !instrument) return;
    await fillMany(
      trx,
      this.options.ledger,
      fills.map((f) => f.row),
      instrument,
      first.tick,
      this.now(),
    );
  }

  private async applyOne(trx: Transaction, action: Action): Promise<void> {
    const now = this.now();
    if (action.kind === 'rest') {
      await restOrder(trx, action.row, now);
      return;
    }
    if (action.kind === 'cancel') {
      await cancelOrder(trx, this.options.ledger, action.row, action.reason, now);
      return;
    }
    const instrument = spotInstrument(action.row.symbol);
    if (!instrument) return;
    await fillOrder(trx, this.options.ledger, action.row, instrument, action.tick, now);
  }
}
