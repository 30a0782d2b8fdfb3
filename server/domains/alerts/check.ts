import { ALERT_FIRED_EVENT, type AlertSide } from '../../../protocol/alerts';
import { toUnits } from '../../../protocol/rules/spot';
import { withPriceRecord } from '../../market';
import { writeTransaction } from '../../platform/db/transaction';
import type { Job } from '../../platform/jobs/runner';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { type EngineTick, recordedTicksAfter } from '../../trading';
import { type AlertServices, alertOf } from './alerts';
import { withAlerts } from './tables';

/**
 * The alert check (RULES "Price alerts"): a cluster job, so exactly one process at a time fires alerts, that reads
 * the price record rather than the live feed. Each round takes the active alerts, reads each instrument's recorded
 * ticks after the least advanced of them (only up to the newest sealed tick: past it the record may still miss a
 * tick that is only in a dead writer's buffer, trading/recorded-ticks.ts), and fires every alert at the first of
 * those ticks after its own checkpoint that is at or above (above) or at or below (below) its price. Firing and
 * moving the checkpoints forward commit in one transaction with the user events, so a round run twice (a restart,
 * a lease that moved mid-round) fires nothing twice: a fired alert is no longer active, and an active one resumes
 * from where the last committed round left it.
 */

/** Most active alerts one round reads (the least advanced first); the rest wait for the next round. */
const ALERTS_PER_ROUND = 20_000;
/** Most recorded ticks read per instrument and round; a backlog (after a long stop) takes a few rounds. */
const TICKS_PER_ROUND = 5_000;
/** Ids per checkpoint update: well below the bound-parameter limits of both databases. */
const IDS_PER_UPDATE = 500;
/** How often the job runs by default: an alert fires about a second after its tick is sealed. */
export const ALERTS_CHECK_MS = 1_000;

/** Where an alert's check stands: every recorded tick after (ts, seq) is still to be checked; no seq: after ts. */
interface Checkpoint {
  ts: number;
  seq: number | null;
}

const isAfter = (tick: EngineTick, at: Checkpoint): boolean =>
  tick.ts > at.ts || (tick.ts === at.ts && at.seq !== null && tick.seq > at.seq);

/** Whether `tick` fires an alert on `side` of `threshold` (units of the instrument's step). */
export const crosses = (side: AlertSide, threshold: bigint, tick: bigint): boolean =>
  side === 'above' ? tick >= threshold : tick <= threshold;

export interface CheckOptions {
  /** False once the lease is lost: the round then writes nothing (its successor reads from the same checkpoints). */
  stillLeading?: () => boolean;
  ticksPerRound?: number;
}

export interface CheckResult {
  /** Alerts fired by this round. */
  fired: number;
  /** Instruments whose recorded ticks this round read. */
  instruments: number;
}

interface ActiveAlert {
  id: number;
  symbol: string;
  side: AlertSide;
  price: string;
  checkpoint: Checkpoint;
}

interface Firing {
  id: number;
  tick: EngineTick;
}

/** One round of the check: reads, decides, then writes once (see above). */
export async function checkAlerts(s: AlertServices, options: CheckOptions = {}): Promise<CheckResult> {
  const { db } = s.database;
  const rows = await withAlerts(db)
    .selectFrom('price_alerts')
    .select(['id', 'symbol', 'side', 'price', 'checked_ts', 'checked_seq'])
    .where('state', '=', 'active')
    .orderBy('checked_ts')
    .orderBy('id')
    .limit(ALERTS_PER_ROUND)
    .execute();
  const bySymbol = new Map<string, ActiveAlert[]>();
  for (const row of rows) {
    const alert: ActiveAlert = {
      id: row.id,
      symbol: row.symbol,
      side: row.side,
      price: row.price,
      checkpoint: { ts: Number(row.checked_ts), seq: row.checked_seq === null ? null : Number(row.checked_seq) },
    };
    const list = bySymbol.get(row.symbol) ?? [];
    list.push(alert);
    bySymbol.set(row.symbol, list);
  }

  const firings: Firing[] = [];
  const advances: Array<{ to: EngineTick; ids: number[] }> = [];
  for (const [symbol, alerts] of bySymbol) {
    const instrument = s.instrument(symbol);
    // An instrument the market no longer serves (a listing removed): its alerts wait, unchecked.
    if (!instrument) continue;
    const from = Math.min(...alerts.map((a) => a.checkpoint.ts));
    // From `from` itself (the checkpoints tell which of its ticks were checked), hence the millisecond before it.
    const ticks = await recordedTicksAfter(
      db,
      symbol,
      from - 1,
      instrument.priceScale,
      options.ticksPerRound ?? TICKS_PER_ROUND,
    );
    const last = ticks[ticks.length - 1];
    if (!last) continue;
    const ids: number[] = [];
    for (const alert of alerts) {
      const threshold = toUnits(alert.price, instrument.priceScale);
      if (threshold === null) continue;
      const tick = ticks.find((t) => isAfter(t, alert.checkpoint) && crosses(alert.side, threshold, t.units));
      if (tick) firings.push({ id: alert.id, tick });
      else ids.push(alert.id);
    }
    advances.push({ to: last, ids });
  }
  if (advances.length === 0 || options.stillLeading?.() === false) return { fired: 0, instruments: 0 };

  // The batch sealing each firing tick and its hash, read before the write transaction holds the write lock.
  const seals = new Map<string, { batch: number; hash: string }>();
  for (const { tick } of firings) {
    const key = `${tick.symbol}:${tick.seq}`;
    if (seals.has(key)) continue;
    const seal = await withPriceRecord(db)
      .selectFrom('price_ticks')
      .innerJoin('price_batches', 'price_batches.id', 'price_ticks.batch_id')
      .select(['price_batches.id as batch', 'price_batches.hash as hash'])
      .where('price_ticks.symbol', '=', tick.symbol)
      .where('price_ticks.seq', '=', tick.seq)
      .executeTakeFirst();
    if (seal) seals.set(key, { batch: Number(seal.batch), hash: seal.hash });
  }

  let fired = 0;
  await writeTransaction(s.database, async (trx) => {
    const at = s.now();
    const a = withAlerts(trx);
    for (const { id, tick } of firings) {
      const seal = seals.get(`${tick.symbol}:${tick.seq}`);
      // Only an alert still active fires: one fired or deleted meanwhile (another round, its owner) is left alone.
      const row = await a
        .updateTable('price_alerts')
        .set({
          state: 'fired',
          fired_at: at,
          fired_seq: tick.seq,
          fired_ts: tick.ts,
          fired_price: tick.price,
          fired_batch: seal?.batch ?? null,
          fired_hash: seal?.hash ?? null,
        })
        .where('id', '=', id)
        .where('state', '=', 'active')
        .returningAll()
        .executeTakeFirst();
      if (!row) continue;
      fired += 1;
      await recordUserEvent(trx, { userId: row.user_id, kind: ALERT_FIRED_EVENT, data: alertOf(row), at });
    }
    // The alerts this round checked and left active have now been checked through the last tick read (never moved
    // back: a slower round of a process that lost its lease may come after a newer one).
    for (const { to, ids } of advances) {
      for (let k = 0; k < ids.length; k += IDS_PER_UPDATE) {
        await a
          .updateTable('price_alerts')
          .set({ checked_ts: to.ts, checked_seq: to.seq })
          .where('id', 'in', ids.slice(k, k + IDS_PER_UPDATE))
          .where('state', '=', 'active')
          .where((eb) =>
            eb.or([
              eb('checked_ts', '<', to.ts),
              eb.and([eb('checked_ts', '=', to.ts), eb('checked_seq', 'is not', null), eb('checked_seq', '<', to.seq)]),
            ]),
          )
          .execute();
      }
    }
  });
  return { fired, instruments: advances.length };
}

/** The check as a cluster job: one process at a time (platform/jobs), every `everyMs`. */
export function alertsJob(s: AlertServices, everyMs = ALERTS_CHECK_MS): Job {
  return {
    name: 'price-alerts',
    scope: 'cluster',
    everyMs,
    run: async (round) => {
      if (!round.leading) return;
      await checkAlerts(s, { stillLeading: round.stillLeading });
    },
  };
}
