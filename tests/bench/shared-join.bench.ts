import { performance } from 'node:perf_hooks';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { FakeLeaseStore, FakeTickBus } from '../../server/market/shared/fakes';
import { type MarketOrigin, RedisTickSource } from '../../server/market/shared/redis-tick-source';
import { decodeSnapshot, encodeSnapshot } from '../../server/market/shared/snapshot';
import { MarketSimulator } from '../../server/market/simulator';

/**
 * Start-up of a process joining a shared market (REDIS_URL) that has run for BENCH_DAYS simulated days (default 30),
 * with every instrument and the production simulator settings (7 days of history, 1-second live steps, stocks in
 * NYSE hours), on an in-memory bus and a simulated clock (server/market/shared/fakes.ts).
 *
 * Before: the joining process replays every step since the origin (no snapshot in the bus). After: it loads the
 * leader's snapshot and replays only the steps since it was taken (5 s here). Also printed: the snapshot's size and
 * what it costs the leader to take it and a joining process to read it. Building the market is the slow part (the
 * leader runs every simulated second through its feed): about as long as the "before" join.
 */
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 5, 3, 12, 0, 0);

let now = T0;
const clock = () => now;
const bus = new FakeTickBus();
const lease = new FakeLeaseStore(clock);
const ms = (from: number) => Math.round(performance.now() - from);

async function join(id: string) {
  let simulator: MarketSimulator | undefined;
  const source = await RedisTickSource.connect({
    bus,
    lease,
    processId: id,
    ttlMs: 2 * HOUR,
    seed: 'bench',
    now: clock,
    snapshotEveryMs: DAY,
    createLocal: (origin: MarketOrigin) => {
      simulator = new MarketSimulator({
        seed: origin.seed,
        liveStart: origin.liveStart,
        now: clock,
        maxCatchUpSteps: Number.POSITIVE_INFINITY,
      });
      return { source: simulator, simulator };
    },
  });
  const feed = new MarketFeed(source, clock);
  feed.start();
  return { source, feed, sim: simulator as MarketSimulator };
}

const leader = await join('leader');
await new Promise((resolve) => setImmediate(resolve));
let started = performance.now();
while (now < T0 + DAYS * DAY) {
  now = Math.min(now + HOUR, T0 + DAYS * DAY);
  leader.sim.advanceTo(now);
  await leader.source.checkLease();
  await new Promise((resolve) => setImmediate(resolve));
}
console.log(`market of ${DAYS} simulated days, ${INSTRUMENTS.length} instruments: built in ${ms(started)} ms`);
for (let i = 0; i < 5; i++) {
  now += 1_000;
  leader.sim.advanceTo(now);
}

const json = bus.snapshot ?? '';
const origin = bus.origin as MarketOrigin;
started = performance.now();
const state = { simulator: leader.sim.snapshot(), feed: leader.feed.exportState() };
const taken = ms(started);
started = performance.now();
encodeSnapshot({ version: 1, origin, takenAt: now, seqs: {}, ...state });
const encoded = ms(started);
started = performance.now();
decodeSnapshot(json, origin);
const decoded = ms(started);
console.log(
  `snapshot: ${(json.length / 1e6).toFixed(1)} MB of JSON; the leader takes it in ${taken} ms and encodes it in ` +
    `${encoded} ms; a joining process decodes it in ${decoded} ms`,
);

const report = async (label: string) => {
  started = performance.now();
  const joined = await join(label);
  const wall = ms(started);
  const same = JSON.stringify(joined.feed.quotes('coin')) === JSON.stringify(leader.feed.quotes('coin'));
  console.log(`${label}: serving after ${wall} ms (${JSON.stringify(joined.source.startup)}), same quotes: ${same}`);
  await joined.source.close();
};

// Before: no snapshot, as before this change.
bus.snapshot = undefined;
await report('from the origin');
bus.snapshot = json;
await report('from the snapshot');
await leader.source.close();
