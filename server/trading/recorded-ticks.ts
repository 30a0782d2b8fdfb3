import type { Kysely } from 'kysely';
import { toUnits } from '../../protocol/rules/spot';
import { withPriceRecord } from '../market';
import type { Database } from '../platform/db/schema';
import type { EngineTick } from './tick-window';

/**
 * Reads of the price record for an engine whose in-memory window does not reach back far enough (a restart, a
 * takeover). Only ticks up to the newest SEALED tick of the instrument are given: the recorder writes the feed's
 * ticks in order, a whole buffer per batch, and a new writer records the dead one's unflushed ticks in its first
 * batch, so every tick up to a sealed one is recorded. Past it the record may hold a tick an order pinned while an
 * earlier tick of the same instrument is still only in a buffer (from a writer's death until its successor's first
 * write): a fill, trigger or entry taken from there would skip that tick, which the record gives later.
 */

/** The newest sealed tick of `symbol` (time and sequence), if any: the record is complete up to it. */
export async function sealedThrough(
  db: Kysely<Database>,
  symbol: string,
): Promise<{ ts: number; seq: number } | undefined> {
  // Newest first on the (symbol, ts) index: only the few pinned, unsealed ticks above it are scanned.
  const row = await withPriceRecord(db)
    .selectFrom('price_ticks')
    .select(['ts', 'seq'])
    .where('symbol', '=', symbol)
    .where('batch_id', 'is not', null)
    .orderBy('ts', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { ts: Number(row.ts), seq: Number(row.seq) } : undefined;
}

/**
 * The first recorded tick of `symbol` strictly after `ts` (RULES "Which tick counts"), from the price record: for an
 * order or contract the engine learns of after its entry tick left the in-memory window (a restart, a takeover).
 * Undefined while the record is not sealed past `ts` (then a tick after `ts` may still be missing from it): the
 * caller asks again later. Once it is, there is always one (the sealed tick itself is after `ts`).
 */
export async function firstRecordedTickAfter(
  db: Kysely<Database>,
  symbol: string,
  ts: number,
  priceScale: number,
): Promise<EngineTick | undefined> {
  const sealed = await sealedThrough(db, symbol);
  if (!sealed || sealed.ts <= ts) return undefined;
  // Ordered by (ts, seq), the first after `ts` comes no later than the sealed tick: no bound on seq is needed.
  const tick = await withPriceRecord(db)
    .selectFrom('price_ticks')
    .select(['seq', 'ts', 'price'])
    .where('symbol', '=', symbol)
    .where('ts', '>', ts)
    .where('ts', '<=', sealed.ts)
    .orderBy('ts')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  const units = tick ? toUnits(tick.price, priceScale) : null;
  if (!tick || units === null) return undefined;
  return { symbol, seq: tick.seq, ts: tick.ts, price: tick.price, units };
}

/**
 * Recorded ticks of `symbol` strictly after `ts`, oldest first, at most `limit`, up to the newest sealed tick: a
 * trigger the engine learns of after ticks went by (a restart, a takeover) is checked against each of them, so it
 * fires at the first that crossed it (RULES "Lever": triggers are checked on every recorded tick). Ticks after the
 * last one given must come from the caller's window, which must reach back to it (else ask again later).
 */
export async function recordedTicksAfter(
  db: Kysely<Database>,
  symbol: string,
  ts: number,
  priceScale: number,
  limit = 100_000,
): Promise<EngineTick[]> {
  const sealed = await sealedThrough(db, symbol);
  if (!sealed || sealed.ts <= ts) return [];
  const rows = await withPriceRecord(db)
    .selectFrom('price_ticks')
    .select(['seq', 'ts', 'price'])
    .where('symbol', '=', symbol)
    .where('ts', '>', ts)
    // Up to the sealed tick in (ts, seq) order: a tick sharing its millisecond but published after it may be unflushed.
    .where((eb) => eb.or([eb('ts', '<', sealed.ts), eb.and([eb('ts', '=', sealed.ts), eb('seq', '<=', sealed.seq)])]))
    .orderBy('ts')
    .orderBy('seq')
    .limit(limit)
    .execute();
  const ticks: EngineTick[] = [];
  for (const row of rows) {
    const units = toUnits(row.price, priceScale);
    if (units !== null) ticks.push({ symbol, seq: row.seq, ts: row.ts, price: row.price, units });
  }
  return ticks;
}
