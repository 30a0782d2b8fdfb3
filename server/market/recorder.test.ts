import { describe, expect, it } from 'vitest';
import { openMemoryDatabase } from '../testing';
import { MarketFeed } from './feed';
import { INSTRUMENTS } from './instruments';
import { PriceRecorder } from './recorder';
import { MarketSimulator } from './simulator';
import { withPriceRecord } from './tables';

describe('price recorder', () => {
  it('records every published price exactly, in batches, and prunes past the retention', async () => {
    const database = await openMemoryDatabase();
    let now = Date.UTC(2024, 5, 4, 12);
    const sim = new MarketSimulator({
      seed: 'rec',
      now: () => now,
      backfillDays: 0,
      instruments: INSTRUMENTS.slice(0, 3),
    });
    const feed = new MarketFeed(sim, () => now);
    const published: string[] = [];
    feed.onTick((t) => published.push(`${t.symbol}:${t.seq}:${feed.quote(t.symbol)?.last}`));
    const recorder = new PriceRecorder(database, feed, { now: () => now, retentionMs: 60_000 });
    now += 10_000;
    sim.advanceTo(now);
    expect(recorder.pending).toBe(3 * 11);
    await recorder.flush();
    expect(recorder.pending).toBe(0);
    const rows = await withPriceRecord(database.db).selectFrom('price_ticks').selectAll().orderBy('id').execute();
    expect(rows.map((r) => `${r.symbol}:${r.seq}:${r.price}`)).toEqual(published);
    expect(rows[0]).toMatchObject({ instrument_id: 1, symbol: 'BTC', ts: now - 10_000 });

    // Two minutes on, the first flush's batch ended past the one-minute retention: its ticks go, all at once (a
    // batch is removed whole, so the digests of those kept can still be recomputed).
    const firstBatchEnd = now;
    now += 120_000;
    sim.advanceTo(now);
    await recorder.close();
    const left = await withPriceRecord(database.db).selectFrom('price_ticks').select(['ts', 'batch_id']).execute();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((r) => r.batch_id === 2)).toBe(true);
    expect(Math.min(...left.map((r) => r.ts))).toBeGreaterThan(firstBatchEnd);
    await database.db.destroy();
  });
});
