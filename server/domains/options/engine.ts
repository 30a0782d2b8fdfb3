import type { Kysely } from 'kysely';
import { OPTION_ENTRY_WAIT_MS } from '../../../protocol/options';
import { instrumentBySymbol, withPriceRecord } from '../../market';
import type { Database } from '../../platform/db/schema';
import { EngineLoop, type EngineOptions, type EngineTick, EntryWaits, firstRecordedTickAfter } from '../../trading';
import type { OptionContractRow } from './contracts';
import { cancelContract, enterContract, type RecordedExit, settleContracts } from './settle';
import { withOptions } from './tables';

export type OptionsEngineOptions = EngineOptions;

/**
 * After expiry E a contract settles once the record holds a later tick of its instrument (so every tick at or before
 * E is in it); with the feed silent, this long after E it settles on what the record holds (a refund if nothing).
 */
export const SETTLE_GRACE_MS = 10_000;

type Step =
  | { kind: 'enter'; row: OptionContractRow; tick: EngineTick }
  | { kind: 'cancel'; row: OptionContractRow }
  | { kind: 'settle'; row: OptionContractRow; ticks: RecordedExit[] };

const waitId = (row: OptionContractRow) => `option:${row.id}`;

/**
 * The options side of the trading engine, the cluster job `options-engine`: only the lease holder acts. It gives
 * waiting contracts their entry tick (the first recorded tick after acceptance), cancels those without one within the
 * wait, and settles running contracts after expiry from the price record. Its memory is only the entry waits, rebuilt
 * from the database every round; every step is a conditional update, so a contract settles once across crashes,
 * restarts and processes.
 */
export class OptionsEngine extends EngineLoop {
  private readonly waits = new EntryWaits<OptionContractRow>(this.window);
  constructor(options: OptionsEngineOptions) {
    super({ name: 'options-engine', instrument: instrumentBySymbol }, options);
  }

  private get db(): Kysely<Database> {
    return this.options.database.db;
  }

  /** A contract this process just accepted: watched at once when this process leads. */
  accepted(row: OptionContractRow): void {
    this.whileLeading(() => this.admit([row]));
  }

  protected tickWork(tick: EngineTick): (() => Promise<void>) | undefined {
    if (this.waits.size === 0) return undefined;
    // The waits a tick ends are taken as it arrives, so a round under way no longer expires them.
    const steps = this.waits.onTick(tick).map((e): Step => ({ kind: 'enter', row: e.item, tick }));
    return () => this.apply(steps);
  }

  /** The waits are the only memory, and every round rebuilds them from the database. */
  protected forget(): void {
    this.waits.clear();
  }

  protected async leadRound(): Promise<void> {
    const now = this.now();
    // Waiting contracts are few (each waits for one tick): all of them, every round, so none accepted elsewhere is
    // missed whatever order their ids committed in.
    await this.admit(
      await withOptions(this.db).selectFrom('option_contracts').selectAll().where('state', '=', 'waiting').execute(),
    );
    const expired: Step[] = [];
    for (const row of this.waits.expire(now - OPTION_ENTRY_WAIT_MS)) {
      const tick = await this.recordedEntry(row);
      expired.push(tick ? { kind: 'enter', row, tick } : { kind: 'cancel', row });
    }
    await this.apply(expired);
    await this.settleDue(now);
  }

  private async admit(rows: readonly OptionContractRow[]): Promise<void> {
    const steps: Step[] = [];
    for (const row of rows) {
      if (row.state !== 'waiting' || this.waits.has(waitId(row))) continue;
      const recorded = await this.recordedEntry(row);
      const entry = recorded ? { tick: recorded } : this.waits.add(waitId(row), row.symbol, row.accepted_at, row);
      if (entry) steps.push({ kind: 'enter', row, tick: entry.tick });
    }
    await this.apply(steps);
  }

  /** The entry tick from the record unless the window alone shows every tick of the wait (see holdsSpan). */
  private async recordedEntry(row: OptionContractRow): Promise<EngineTick | undefined> {
    if (this.window.holdsSpan(row.symbol, row.accepted_at, row.accepted_at + OPTION_ENTRY_WAIT_MS)) return undefined;
    const instrument = instrumentBySymbol(row.symbol);
    if (!instrument) return undefined;
    return firstRecordedTickAfter(this.db, row.symbol, row.accepted_at, instrument.priceScale);
  }

  /** Running contracts past expiry whose exit the record now decides, settled in batches. */
  private async settleDue(now: number): Promise<void> {
    const due = await withOptions(this.db)
      .selectFrom('option_contracts')
      .selectAll()
      .where('state', '=', 'running')
      .where('expiry_ts', '<=', now)
      .orderBy('expiry_ts')
      .limit(10_000)
      .execute();
    if (due.length === 0) return;
    const symbols = [...new Set(due.map((r) => r.symbol))];
    // Only ticks the recorder sealed: it writes the feed's ticks in order, a whole buffer per batch, so a sealed tick
    // after E means every tick up to E is recorded. A pinned tick (an entry or a fill) is recorded at once, ahead of
    // the ticks still in the recorder's buffer, and proves nothing about them. Per symbol, newest first on the
    // (symbol, ts) index, so the scan stops at the first sealed tick.
    const recordedUpTo = new Map<string, number>();
    for (const symbol of symbols) {
      const latest = await withPriceRecord(this.db)
        .selectFrom('price_ticks')
        .select('ts')
        .where('symbol', '=', symbol)
        .where('batch_id', 'is not', null)
        .orderBy('ts', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (latest) recordedUpTo.set(symbol, Number(latest.ts));
    }
    // Contracts bought together share their entry tick and expiry, so their exit is looked up once.
    const exits = new Map<string, RecordedExit[]>();
    const steps: Step[] = [];
    for (const row of due) {
      if (row.expiry_ts === null || row.entry_seq === null || row.entry_ts === null) continue;
      const settled = (recordedUpTo.get(row.symbol) ?? Number.NEGATIVE_INFINITY) > row.expiry_ts;
      if (!settled && now <= row.expiry_ts + SETTLE_GRACE_MS) continue;
      const key = `${row.symbol}|${row.entry_seq}|${row.entry_ts}|${row.expiry_ts}`;
      let ticks = exits.get(key);
      if (!ticks) {
        // The last recorded tick after the entry and at or before E: the only candidate the rule can pick.
        ticks = await withPriceRecord(this.db)
          .selectFrom('price_ticks')
          .select(['seq', 'ts', 'price'])
          .where('symbol', '=', row.symbol)
          .where('seq', '>', row.entry_seq)
          .where('ts', '>', row.entry_ts)
          .where('ts', '<=', row.expiry_ts)
          .orderBy('ts', 'desc')
          .orderBy('seq', 'desc')
          .limit(1)
          .execute();
        exits.set(key, ticks);
      }
      steps.push({ kind: 'settle', row, ticks });
    }
    await this.apply(steps);
  }

  /** Applies steps many per transaction; the settlements of a batch are one set-based step. */
  private async apply(steps: readonly Step[]): Promise<void> {
    await this.commit(steps, {
      batch: async (trx, batch) => {
        const settling = batch.flatMap((step) => (step.kind === 'settle' ? [step] : []));
        if (settling.length > 0) await settleContracts(trx, this.options.ledger, settling, this.now());
        for (const step of batch) if (step.kind !== 'settle') await this.applyOne(trx, step);
      },
      one: (trx, step) => this.applyOne(trx, step),
    });
  }

  private async applyOne(trx: Kysely<Database>, step: Step): Promise<void> {
    const now = this.now();
    if (step.kind === 'enter') await enterContract(trx, step.row, step.tick, now);
    else if (step.kind === 'cancel') await cancelContract(trx, this.options.ledger, step.row, now);
    else await settleContracts(trx, this.options.ledger, [step], now);
  }
}
