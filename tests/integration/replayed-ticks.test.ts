import { describe, expect, it, vi } from 'vitest';
import { withLever } from '../../server/domains/lever';
import { LeverEngine } from '../../server/domains/lever/engine';
import { withSpot } from '../../server/domains/spot';
import { SpotEngine } from '../../server/domains/spot/engine';
import { Ledger } from '../../server/ledger';
import { MarketFeed } from '../../server/market/feed';
import { PriceRecorder } from '../../server/market/recorder';
import type { PriceSource, Tick, TickListener } from '../../server/market/simulator';
import type { DatabaseHandle } from '../../server/platform/db/connect';
import type { Job } from '../../server/platform/jobs/runner';
import { HandMarket } from './hand-market';
import { DATABASES, type DatabaseKind, openTestDatabase, startTestApp, uniqueEmail } from './harness';

/**
 * What the failover bench found (docs/benchmarks.md "Failover under load"): positions entered at BTC 162 on the market leader were
 * liquidated at "157" after it died. The process that takes the market over generates again the steps the dead leader
 * had published (the same walk: same prices, same numbers) and its lever engine, which had not seen them, met them
 * after it had loaded rows the dead leader's engine opened on later ticks. RULES "Lever": triggers are checked on the
 * ticks after the entry tick; an earlier tick arriving late is history for the row, never its trigger.
 *
 * B's market is a relay of the same hand-driven market that the test can hold back and then let through, as the
 * successor's feed holds back and then generates the leader's last steps.
 */
class HeldRelay implements PriceSource {
  readonly instruments: PriceSource['instruments'];
  private readonly listeners = new Set<TickListener>();
  private readonly held: Tick[] = [];
  holding = false;

  constructor(market: HandMarket) {
    this.instruments = market.instruments;
    market.subscribe((tick) => {
      if (this.holding) this.held.push(tick);
      else this.emit(tick);
    });
  }

  subscribe(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {}
  stop(): void {}

  /** Lets the held ticks through, in their order, and stops holding. */
  release(): void {
    this.holding = false;
    for (const tick of this.held.splice(0)) this.emit(tick);
  }

  private emit(tick: Tick): void {
    for (const listener of this.listeners) listener(tick);
  }
}

/** A's app leads and dies; B (its engine and the record writer) follows the held relay and takes over. */
async function openScene(
  kind: DatabaseKind,
  engineOf: (handle: DatabaseHandle, feed: MarketFeed, now: () => number) => LeverEngine | SpotEngine,
) {
  const database = await openTestDatabase(kind);
  const market = new HandMarket(['BTC']);
  const feedA = new MarketFeed(market);
  const relay = new HeldRelay(market);
  const feedB = new MarketFeed(relay);
  const a = await startTestApp(database.handle, { market: { feed: feedA, record: { flushMs: 50 } } });
  const now = a.clock.now;
  const engine = engineOf(database.handle, feedB, now);
  // B also takes the record over, as the failover's successor does (the engines read the sealed record).
  const recorder = new PriceRecorder(database.handle, feedB, { now });
  const jobs: Job[] = [recorder.job(), engine.job()];
  let aClosed = false;
  return {
    handle: database.handle,
    db: database.handle.db,
    a,
    relay,
    now,
    trade(price: string) {
      a.clock.advance(1_000);
      return market.trade('BTC', price, now());
    },
    /** One round of B's jobs, leading or following, and the work it queued. */
    async round(leading: boolean) {
      for (const job of jobs) await job.run({ leading, stillLeading: () => leading });
      await engine.idle();
    },
    async killLeader() {
      await a.close();
      aClosed = true;
    },
    async close() {
      engine.close();
      await recorder.close();
      feedB.close();
      if (!aClosed) await a.close();
      feedA.close();
      await database.close();
    },
  };
}

describe.each(DATABASES)('lever triggers and ticks older than the entry (%s)', (kind) => {
  it('a tick from before the entry that reaches the engine late never liquidates the position', async () => {
    const s = await openScene(
      kind,
      (handle, feed, now) => new LeverEngine({ database: handle, ledger: new Ledger(handle, now), feed, now }),
    );
    try {
      const session = await s.a.registerByEmail(uniqueEmail('replayed'));
      s.trade('60000.00');
      await s.round(false);
      // B's feed falls behind here: the next two ticks reach only A (the leader) for now.
      s.relay.holding = true;
      const early = s.trade('54000.00');
      const placed = await s.a.call(
        'lever/submit',
        {
          symbol: 'BTC',
          side: 'long',
          type: 'market',
          margin_mode: 'isolated',
          lots: '10',
          leverage: '10',
          account: 'simulator',
          request_id: 'replayed-ticks',
        },
        { token: session.token },
      );
      expect(placed.body.type, placed.body.message).toBe('ok');
      const id = (placed.body.data as { id: number }).id;
      const entry = s.trade('60000.00');
      const row = () =>
        withLever(s.db).selectFrom('lever_positions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await vi.waitFor(async () => expect((await row()).phase).toBe('holding'), { timeout: 20_000, interval: 20 });
      expect(await row()).toMatchObject({ entry_seq: entry.seq, liq_price: '54271.35' });
      expect(early.seq).toBeLessThan(entry.seq);

      // A dies; B's engine leads and loads the holding row, then meets the two ticks it had not seen: 54,000 (below
      // the liquidation price, but before the entry) and the entry tick itself.
      await s.killLeader();
      await s.round(true);
      s.relay.release();
      await s.round(true);
      expect((await row()).phase).toBe('holding');

      // The first tick after the entry at or below the liquidation price liquidates it, at that tick.
      const after = s.trade('54200.00');
      await s.round(true);
      await vi.waitFor(async () => expect((await row()).phase).toBe('closed'), { timeout: 20_000, interval: 20 });
      expect(await row()).toMatchObject({ close_reason: 'liquidation', exit_seq: after.seq, exit_price: '54200.00' });
    } finally {
      await s.close();
    }
  });
  it('a tick from before the acceptance that reaches the engine late never opens a resting limit', async () => {
    const s = await openScene(
      kind,
      (handle, feed, now) => new LeverEngine({ database: handle, ledger: new Ledger(handle, now), feed, now }),
    );
    try {
      const session = await s.a.registerByEmail(uniqueEmail('replayed-limit'));
      s.trade('60000.00');
      await s.round(false);
      s.relay.holding = true;
      s.trade('55000.00');
      const placed = await s.a.call(
        'lever/submit',
        {
          symbol: 'BTC',
          side: 'long',
          type: 'limit',
          price: '58000.00',
          margin_mode: 'isolated',
          lots: '1',
          leverage: '10',
          account: 'simulator',
          request_id: 'replayed-limit',
        },
        { token: session.token },
      );
      expect(placed.body.type, placed.body.message).toBe('ok');
      const id = (placed.body.data as { id: number }).id;
      s.trade('60000.00');
      const row = () =>
        withLever(s.db).selectFrom('lever_positions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await vi.waitFor(async () => expect((await row()).phase).toBe('pending'), { timeout: 20_000, interval: 20 });

      await s.killLeader();
      await s.round(true);
      s.relay.release();
      await s.round(true);
      expect((await row()).phase).toBe('pending');

      const after = s.trade('57000.00');
      await s.round(true);
      await vi.waitFor(async () => expect((await row()).phase).toBe('holding'), { timeout: 20_000, interval: 20 });
      expect(await row()).toMatchObject({ entry_seq: after.seq, entry_price: '57000.00' });
    } finally {
      await s.close();
    }
  });
});

describe.each(DATABASES)('spot limits and ticks older than their acceptance (%s)', (kind) => {
  it('a tick from before the acceptance that reaches the engine late never fills a resting limit', async () => {
    const s = await openScene(
      kind,
      (handle, feed, now) => new SpotEngine({ database: handle, ledger: new Ledger(handle, now), feed, now }),
    );
    try {
      const session = await s.a.registerByEmail(uniqueEmail('replayed-spot'));
      await new Ledger(s.handle, s.now).credit({
        userId: session.user.id,
        requestId: 'replayed-spot-seed',
        kind: 'deposit',
        currency: 'USDT',
        amount: 1_000_000_000,
        from: 'deposits_clearing',
        to: 'coin',
      });
      s.trade('60000.00');
      await s.round(false);
      // B falls behind: a tick at 55,000 reaches only A, then the order is accepted and rests at 60,000 on A.
      s.relay.holding = true;
      s.trade('55000.00');
      const placed = await s.a.call(
        'coin/trade',
        { symbol: 'BTC', side: 'buy', type: 'limit', qty: '0.001', price: '58000.00', request_id: 'replayed-spot' },
        { token: session.token },
      );
      expect(placed.body.type, placed.body.message).toBe('ok');
      const id = (placed.body.data as { id: number }).id;
      s.trade('60000.00');
      const order = () =>
        withSpot(s.db).selectFrom('spot_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await vi.waitFor(async () => expect((await order()).state).toBe('pending'), { timeout: 20_000, interval: 20 });

      // A dies; B's engine leads, loads the resting order, then meets the 55,000 from before the acceptance.
      await s.killLeader();
      await s.round(true);
      s.relay.release();
      await s.round(true);
      expect((await order()).state).toBe('pending');

      // The first tick after the acceptance at or below the limit fills it, at that tick.
      const after = s.trade('57000.00');
      await s.round(true);
      await vi.waitFor(async () => expect((await order()).state).toBe('completed'), { timeout: 20_000, interval: 20 });
      expect(await order()).toMatchObject({ fill_seq: after.seq, fill_price: '57000.00' });
    } finally {
      await s.close();
    }
  });
});
