import { afterAll, describe, expect, it } from 'vitest';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { formatUnits, INSTRUMENTS } from '../../server/market/instruments';
import { PriceRecorder } from '../../server/market/recorder';
import { FakeLeaseStore, FakeTickBus } from '../../server/market/shared/fakes';
import { type MarketOrigin, RedisTickSource } from '../../server/market/shared/redis-tick-source';
import { MarketSimulator } from '../../server/market/simulator';
import type { Job } from '../../server/platform/jobs/runner';
import { DATABASES, openTestDatabase, type TestDatabase } from './harness';

/**
 * The market leader, which also writes the price record, dies between publishing ticks and recording them (its
 * recorder writes a second's ticks at a time). The other process's engines have seen those ticks on the bus and may
 * have settled on them; the process that takes the record over must record them, exactly as they were published,
 * before it seals any later tick (the options engine takes "a sealed tick after E" to mean that every tick up to E is
 * recorded). Found by the failover bench: an option settled at tick 462 where the record later gave 463, a lever
 * position liquidated at 463 where the record already reached its price at 462.
 *
 * Two processes in one test: each with its shared-market source (a bus and a lease in memory, as Redis would carry
 * them), its feed and its recorder, on one database; the clock, the simulators and the recorder's job rounds are
 * driven by the test, so the kill falls exactly between a publish and its flush.
 */

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);
const STEP_MS = 250;
/** Long enough that no lease timer fires during the test: the test ends the dead leader's lease itself. */
const TTL = 600_000;
const INSTR = INSTRUMENTS.filter((i) => ['BTC', 'ETH'].includes(i.symbol));

interface SeenTick {
  symbol: string;
  seq: number;
  ts: number;
  price: string;
}

describe.each(DATABASES)('failover: the ticks of a dead record writer (%s)', (kind) => {
  let now = T0;
  const clock = () => now;
  const opened: RedisTickSource[] = [];
  const feeds: MarketFeed[] = [];
  let database: TestDatabase | undefined;

  afterAll(async () => {
    for (const feed of feeds.splice(0)) feed.close();
    for (const source of opened.splice(0)) await source.close();
    await database?.close();
  });

  async function join(bus: FakeTickBus, lease: FakeLeaseStore, id: string) {
    const sims: MarketSimulator[] = [];
    const source = await RedisTickSource.connect({
      bus,
      lease,
      processId: id,
      ttlMs: TTL,
      seed: 'failover-ticks',
      now: clock,
      originWaitMs: 100,
      createLocal: (origin: MarketOrigin) => {
        const simulator = new MarketSimulator({
          seed: origin.seed,
          liveStart: origin.liveStart,
          now: clock,
          alwaysOpen: true,
          backfillDays: 0,
          stepMs: STEP_MS,
          instruments: INSTR,
          maxCatchUpSteps: Number.POSITIVE_INFINITY,
        });
        sims.push(simulator);
        return { source: simulator, simulator };
      },
    });
    opened.push(source);
    const feed = new MarketFeed(source, clock);
    feeds.push(feed);
    feed.start();
    const sim = sims[0] as MarketSimulator;
    // The test steps the walk itself (the timer would step it on the fake clock whenever it fires).
    sim.stop();
    // Every tick this process's engines are given (EngineLoop fills its tick window from feed.onTick).
    const seen: SeenTick[] = [];
    feed.onTick((tick) => {
      const instrument = feed.instrument(tick.symbol);
      if (!instrument) return;
      seen.push({
        symbol: tick.symbol,
        seq: tick.seq,
        ts: tick.ts,
        price: formatUnits(tick.price, instrument.priceScale),
      });
    });
    const recorder = new PriceRecorder((database as TestDatabase).handle, feed, { now: clock });
    return { source, sim, seen, job: recorder.job() };
  }

  /** One round of the `price-record` job, as the runner runs it every second in each process. */
  const round = async (job: Job, leading: boolean) => {
    await job.run({ leading, stillLeading: () => leading });
  };

  async function recorded(): Promise<Map<string, SeenTick & { sealed: boolean }>> {
    const rows = await withPriceRecord((database as TestDatabase).handle.db)
      .selectFrom('price_ticks')
      .select(['symbol', 'seq', 'ts', 'price', 'batch_id'])
      .execute();
    return new Map(
      rows.map((r) => [
        `${r.symbol}:${r.seq}`,
        { symbol: r.symbol, seq: r.seq, ts: r.ts, price: r.price, sealed: r.batch_id !== null },
      ]),
    );
  }

  it("records every tick the dead writer published, as published, in the successor's first batch", async () => {
    database = await openTestDatabase(kind);
    const bus = new FakeTickBus();
    const lease = new FakeLeaseStore(clock);
    const a = await join(bus, lease, 'a');
    const b = await join(bus, lease, 'b');
    expect(a.source.isLeader).toBe(true);
    expect(b.source.isLeader).toBe(false);

    // A leads the market and writes the record; B follows both, one job round a second like A.
    for (let second = 0; second < 3; second++) {
      now += 1_000;
      a.sim.advanceTo(now);
      await round(a.job, true);
      await round(b.job, false);
    }
    const flushed = (await recorded()).size;
    expect(flushed).toBeGreaterThan(0);

    // A publishes three more steps, which B's engines see on the bus, B's recorder job goes round once more (as a
    // follower), and A is killed before its next flush.
    now += 3 * STEP_MS;
    a.sim.advanceTo(now);
    const unflushed = b.seen.filter((t) => t.ts > now - 3 * STEP_MS);
    expect(unflushed).toHaveLength(3 * INSTR.length);
    now += 250;
    await round(b.job, false);

    // A's lease runs out unrenewed; B takes the market over (its simulator walks on from the last tick it saw) and
    // then the record's lease, which it writes at its next round.
    now += 5_000;
    lease.holder = undefined;
    await b.source.checkLease();
    expect(b.source.isLeader).toBe(true);
    b.sim.advanceTo(now);
    now += 500;
    b.sim.advanceTo(now);
    await round(b.job, true);

    // Every tick B's engines could have used is in the record, sealed, with the time and price they saw.
    const record = await recorded();
    const missing = b.seen.filter((t) => {
      const row = record.get(`${t.symbol}:${t.seq}`);
      return !row?.sealed || row.ts !== t.ts || row.price !== t.price;
    });
    expect(missing).toEqual([]);
    // Sequence numbers run on without a gap across the kill: B walked on from A's last published tick.
    for (const instrument of INSTR) {
      const seqs = b.seen.filter((t) => t.symbol === instrument.symbol).map((t) => t.seq);
      expect(seqs).toEqual(seqs.map((_, k) => (seqs[0] ?? 0) + k));
    }
    // The record holds no tick that the engines did not see either (a's own ticks are B's: one bus, one walk).
    expect([...record.keys()].sort()).toEqual(b.seen.map((t) => `${t.symbol}:${t.seq}`).sort());
  });
});
