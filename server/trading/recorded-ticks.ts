import type { Kysely } from 'kysely';
import { toUnits } from '../../protocol/rules/spot';
import type { Database } from '../platform/db/schema';
import type { EngineTick } from './tick-window';

/**
 * The first recorded tick of `symbol` strictly after `ts` (RULES "Which tick counts"), from the price record: for an
 * order or contract the engine learns of after its entry tick left the in-memory window (a restart, a takeover).
 */
export async function firstRecordedTickAfter(
  db: Kysely<Database>,
  symbol: string,
  ts: number,
  priceScale: number,
): Promise<EngineTick | undefined> {
  const tick = await db
    .selectFrom('price_ticks')
    .select(['seq', 'ts', 'price'])
    .where('symbol', '=', symbol)
    .where('ts', '>', ts)
    .orderBy('ts')
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  const units = tick ? toUnits(tick.price, priceScale) : null;
  if (!tick || units === null) return undefined;
  return { symbol, seq: tick.seq, ts: tick.ts, price: tick.price, units };
}

/**
 * Recorded ticks of `symbol` strictly after `ts`, oldest first, at most `limit`: a trigger the engine learns of
 * after ticks went by (a restart, a takeover) is checked against each of them, so it fires at the first that
 * crossed it (RULES "Lever": triggers are checked on every recorded tick).
 */
export async function recordedTicksAfter(
  db: Kysely<Database>,
  symbol: string,
  ts: number,
  priceScale: number,
  limit = 100_000,
): Promise<EngineTick[]> {
  const rows = await db
    .selectFrom('price_ticks')
    .select(['seq', 'ts', 'price'])
    .where('symbol', '=', symbol)
    .where('ts', '>', ts)
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
