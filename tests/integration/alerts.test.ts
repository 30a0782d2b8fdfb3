import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_ACTIVE_ALERTS, type PriceAlert } from '../../protocol/alerts';
import {
  type AlertServices,
  alertsJob,
  checkAlerts,
  createAlert,
  deleteAlert,
  listAlerts,
  withAlerts,
} from '../../server/domains/alerts';
import { instrumentBySymbol, type NewPriceTick, sealBatch, withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { writeTransaction } from '../../server/platform/db/transaction';
import { RedisLeases } from '../../server/platform/jobs/leases';
import { JobRunner } from '../../server/platform/jobs/runner';
import type { RedisClient } from '../../server/platform/realtime/redis';
import { insertUser } from '../../server/testing';
import { HandMarket } from './hand-market';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';

/**
 * Price alerts (RULES "Price alerts") checked against the price record: the first recorded tick after creation at or
 * above (above) / at or below (below) the price fires the alert, once, naming that tick; the check is a cluster job
 * whose state lives in the database, so a restart or a second process neither loses nor repeats a firing.
 */

/** Ticks written straight into the price record, sealed as the recorder seals them (one batch per call). */
class RecordedTicks {
  private seqs = new Map<string, number>();
  constructor(private readonly database: TestDatabase) {}

  async write(symbol: string, ticks: ReadonlyArray<readonly [ts: number, price: string]>) {
    const instrument = instrumentBySymbol(symbol);
    if (!instrument) throw new Error(`no instrument ${symbol}`);
    const rows: NewPriceTick[] = ticks.map(([ts, price]) => {
      const seq = (this.seqs.get(symbol) ?? 0) + 1;
      this.seqs.set(symbol, seq);
      return { instrument_id: instrument.id, symbol, ts, price, seq, batch_id: null };
    });
    const at = Math.max(...ticks.map(([ts]) => ts));
    await writeTransaction(this.database.handle, (trx) => sealBatch(trx, rows, at));
    return rows.map((r) => ({ seq: Number(r.seq), ts: Number(r.ts), price: r.price }));
  }
}

/** Redis runs on every machine of this project and in CI (as in job-leases.test.ts): the test never skips. */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const services = (database: TestDatabase, now: () => number): AlertServices => ({
  database: database.handle,
  now,
  instrument: (symbol) => instrumentBySymbol(symbol),
});

async function firedEvents(database: TestDatabase, userId: number): Promise<unknown[]> {
  const rows = await database.handle.db
    .selectFrom('user_events')
    .select('payload')
    .where('user_id', '=', userId)
    .where('kind', '=', 'alert')
    .orderBy('id')
    .execute();
  return rows.map((r) => JSON.parse(r.payload));
}

describe.each(DATABASES)('price alerts against the price record (%s)', (kind) => {
  let database: TestDatabase;
  let ticks: RecordedTicks;
  let redis: RedisClient;
  let clock = 1_700_000_000_000;
  const now = () => clock;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    ticks = new RecordedTicks(database);
    redis = createClient({ url: redisUrl });
    await redis.connect();
  });
  afterAll(async () => {
    await redis.close();
    await database.close();
  });

  it('fires once, on the first recorded tick after creation that crosses, and names that tick', async () => {
    const s = services(database, now);
    const user = await insertUser(database.handle);
    await ticks.write('BTC', [[clock - 10, '60000.00']]);
    const above = await createAlert(s, user, { symbol: 'BTC', side: 'above', price: '60100' });
    const below = await createAlert(s, user, { symbol: 'BTC', side: 'below', price: '59900.5' });
    expect(above).toMatchObject({ symbol: 'BTC', side: 'above', price: '60100.00', state: 'active', fired: null });
    expect(below.price).toBe('59900.50');

    // A tick in the creation's own millisecond is not after it; then one below the price, then the first crossing.
    const written = await ticks.write('BTC', [
      [clock, '70000.00'],
      [clock + 1_000, '60099.99'],
      [clock + 2_000, '60100.00'],
      [clock + 3_000, '60500.00'],
    ]);
    clock += 5_000;
    expect(await checkAlerts(s)).toEqual({ fired: 1, instruments: 1 });

    const [firedAlert, stillActive] = await Promise.all([
      listAlerts(s, user).then((list) => list.find((a) => a.id === above.id)),
      listAlerts(s, user).then((list) => list.find((a) => a.id === below.id)),
    ]);
    const crossing = written[2];
    const batch = await withPriceRecord(database.handle.db)
      .selectFrom('price_batches')
      .select(['id', 'hash'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(firedAlert?.state).toBe('fired');
    expect(firedAlert?.fired).toEqual({
      seq: crossing?.seq,
      ts: crossing?.ts,
      price: '60100.00',
      batch_id: Number(batch.id),
      hash: batch.hash,
    });
    expect(stillActive?.state).toBe('active');
    expect(await firedEvents(database, user)).toEqual([firedAlert]);

    // Later crossings, and the same round again, fire nothing more.
    await ticks.write('BTC', [[clock + 1_000, '61000.00']]);
    clock += 2_000;
    expect((await checkAlerts(s)).fired).toBe(0);
    expect((await checkAlerts(s)).fired).toBe(0);
    const again = (await listAlerts(s, user)).find((a) => a.id === above.id);
    expect(again).toEqual(firedAlert);
    expect(await firedEvents(database, user)).toHaveLength(1);

    // The below alert fires at its own first crossing.
    const down = await ticks.write('BTC', [
      [clock + 1_000, '59900.51'],
      [clock + 2_000, '59900.50'],
    ]);
    clock += 3_000;
    expect((await checkAlerts(s)).fired).toBe(1);
    expect((await listAlerts(s, user)).find((a) => a.id === below.id)?.fired).toMatchObject({
      seq: down[1]?.seq,
      price: '59900.50',
    });
  });

  it('fires an alert created on the wrong side of the price on the next tick', async () => {
    const s = services(database, now);
    const user = await insertUser(database.handle);
    await ticks.write('ETH', [[clock - 5, '3200.00']]);
    // Already above 3000 and already below 3500: both fire on the next tick.
    const above = await createAlert(s, user, { symbol: 'ETH', side: 'above', price: '3000' });
    const below = await createAlert(s, user, { symbol: 'ETH', side: 'below', price: '3500' });
    clock += 1;
    expect((await checkAlerts(s)).fired).toBe(0);
    const [next] = await ticks.write('ETH', [
      [clock + 500, '3200.01'],
      [clock + 900, '3200.02'],
    ]);
    clock += 1_000;
    expect((await checkAlerts(s)).fired).toBe(2);
    const list = await listAlerts(s, user);
    for (const id of [above.id, below.id]) {
      expect(list.find((a) => a.id === id)?.fired).toMatchObject({ seq: next?.seq, ts: next?.ts, price: '3200.01' });
    }
  });

  it('survives a restart: a round cut short writes nothing, the next process resumes from the stored checkpoint', async () => {
    const user = await insertUser(database.handle);
    await ticks.write('SOL', [[clock - 5, '150.00']]);
    const first = services(database, now);
    const alert = await createAlert(first, user, { symbol: 'SOL', side: 'below', price: '140' });
    await ticks.write('SOL', [
      [clock + 100, '149.00'],
      [clock + 200, '148.00'],
    ]);
    clock += 1_000;
    // A round that lost its lease before writing: no checkpoint moves, nothing fires.
    expect(await checkAlerts(first, { stillLeading: () => false })).toEqual({ fired: 0, instruments: 0 });
    const stored = () =>
      withAlerts(database.handle.db)
        .selectFrom('price_alerts')
        .select(['checked_ts', 'checked_seq', 'state'])
        .where('id', '=', alert.id)
        .executeTakeFirstOrThrow();
    expect(Number((await stored()).checked_ts)).toBe(alert.created_at);

    // A round that completes moves the checkpoint to the last tick it read.
    await checkAlerts(first);
    const moved = await stored();
    expect(Number(moved.checked_ts)).toBe(alert.created_at + 200);

    // "Another process" (new services, nothing in memory) reads only what is left and fires on the crossing.
    const [, crossing] = await ticks.write('SOL', [
      [clock + 100, '141.00'],
      [clock + 200, '140.00'],
    ]);
    clock += 1_000;
    const second = services(database, now);
    expect((await checkAlerts(second)).fired).toBe(1);
    expect((await listAlerts(second, user))[0]?.fired).toMatchObject({ seq: crossing?.seq, price: '140.00' });
  });

  it('runs the check in one process at a time, and fires once even when two rounds race', async () => {
    const user = await insertUser(database.handle);
    await ticks.write('BNB', [[clock - 5, '580.00']]);
    const alert = await createAlert(services(database, now), user, { symbol: 'BNB', side: 'above', price: '585' });
    await ticks.write('BNB', [[clock + 100, '590.00']]);
    clock += 1_000;

    // Two processes sharing their leases in Redis (REDIS_URL): only one leads the job.
    const prefix = `test:alerts:${Math.random().toString(36).slice(2)}:`;
    const rounds: string[] = [];
    const runners = ['a', 'b'].map((owner) => {
      const runner = new JobRunner({ leases: new RedisLeases(redis, prefix), owner });
      const job = alertsJob(services(database, now));
      runner.register({
        ...job,
        run: (round) => {
          if (round.leading) rounds.push(owner);
          return job.run(round);
        },
      });
      return runner;
    });
    for (let i = 0; i < 3; i++) await Promise.all(runners.map((r) => r.runOnce('price-alerts')));
    expect(rounds).toHaveLength(3);
    expect(new Set(rounds).size).toBe(1);
    expect(runners.filter((r) => r.isLeading('price-alerts'))).toHaveLength(1);
    await Promise.all(runners.map((r) => r.close()));
    for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);

    // Two rounds at once without a shared lease (a lapsed lease, a slow round): still one firing, one event.
    const other = await createAlert(services(database, now), user, { symbol: 'BNB', side: 'below', price: '570' });
    await ticks.write('BNB', [[clock + 100, '569.00']]);
    clock += 1_000;
    const results = await Promise.all([checkAlerts(services(database, now)), checkAlerts(services(database, now))]);
    expect(results.reduce((n, r) => n + r.fired, 0)).toBe(1);
    const events = (await firedEvents(database, user)) as PriceAlert[];
    expect(events.map((e) => e.id)).toEqual([alert.id, other.id]);
  });

  it('never fires a deleted alert, and lets only its owner delete it', async () => {
    const s = services(database, now);
    const owner = await insertUser(database.handle);
    const stranger = await insertUser(database.handle);
    await ticks.write('LTC', [[clock - 5, '72.00']]);
    const alert = await createAlert(s, owner, { symbol: 'LTC', side: 'above', price: '73' });
    await expect(deleteAlert(s, stranger, alert.id)).rejects.toMatchObject({ key: 'alertNotFound' });
    expect(await listAlerts(s, stranger)).toEqual([]);
    await deleteAlert(s, owner, alert.id);
    await ticks.write('LTC', [[clock + 100, '74.00']]);
    clock += 1_000;
    expect((await checkAlerts(s)).fired).toBe(0);
    expect(await firedEvents(database, owner)).toEqual([]);
  });
});

describe.each(DATABASES)('price alert calls and the running job (%s)', (kind) => {
  let database: TestDatabase;
  let market: HandMarket;
  let feed: MarketFeed;
  let t: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    market = new HandMarket(['BTC', 'AAPL']);
    feed = new MarketFeed(market);
    t = await startTestApp(database.handle, { market: { feed, record: { flushMs: 50 } } });
  });
  afterAll(async () => {
    await t.close();
    feed.close();
    await database.close();
  });

  const trade = (app: TestApp, symbol: string, price: string) => {
    app.clock.advance(1_000);
    return market.trade(symbol, price, app.clock.now());
  };

  it('refuses what is not an alert, in the caller’s language, naming the field', async () => {
    const { token } = await t.registerByEmail(uniqueEmail('alerts-input'));
    const create = (fields: Record<string, string>, lang = 'en') =>
      t.call('alerts/create', { symbol: 'BTC', side: 'above', ...fields }, { token, lang });
    expect((await create({})).body).toMatchObject({ type: 'error', field: 'price', message: 'Please enter a price' });
    expect((await create({ price: '0' })).body).toMatchObject({ field: 'price', reason: 'alertPriceInvalid' });
    expect((await create({ price: '-5' })).body).toMatchObject({ field: 'price', reason: 'alertPriceInvalid' });
    expect((await create({ price: '1.005' })).body).toMatchObject({ field: 'price', reason: 'alertPriceStep' });
    expect((await create({ price: '1', symbol: 'NOPE' })).body).toMatchObject({
      field: 'symbol',
      reason: 'alertInstrumentUnknown',
    });
    expect((await create({ price: '1', side: 'sideways' })).body.type).toBe('error');
    expect((await create({}, 'de')).body.message).toBe('Bitte gib einen Preis ein');
    expect((await t.call('alerts/list', {})).body.type).toBe(999);
  });

  it(`keeps at most ${MAX_ACTIVE_ALERTS} active alerts per user`, async () => {
    const { token } = await t.registerByEmail(uniqueEmail('alerts-limit'));
    for (let i = 0; i < MAX_ACTIVE_ALERTS; i++) {
      const made = await t.call('alerts/create', { symbol: 'AAPL', side: 'above', price: `${500 + i}` }, { token });
      expect(made.body.type, made.body.message).toBe('ok');
    }
    const refused = await t.call('alerts/create', { symbol: 'AAPL', side: 'above', price: '999' }, { token });
    expect(refused.body).toMatchObject({ type: 'error', reason: 'alertLimitReached' });
    const list = (await t.call('alerts/list', {}, { token })).body.data as PriceAlert[];
    expect(list).toHaveLength(MAX_ACTIVE_ALERTS);
    const first = list[0];
    expect((await t.call('alerts/delete', { id: String(first?.id) }, { token })).body.type).toBe('ok');
    const again = await t.call('alerts/create', { symbol: 'AAPL', side: 'above', price: '999' }, { token });
    expect(again.body.type).toBe('ok');
  });

  it('fires on the running server’s recorded ticks, shows it to its owner only, and lets only the owner delete it', async () => {
    const owner = await t.registerByEmail(uniqueEmail('alerts-owner'));
    const stranger = await t.registerByEmail(uniqueEmail('alerts-stranger'));
    trade(t, 'BTC', '64000.00');
    const made = await t.call(
      'alerts/create',
      { symbol: 'BTC', side: 'below', price: '63950' },
      { token: owner.token },
    );
    expect(made.body.type, made.body.message).toBe('ok');
    const alert = made.body.data as PriceAlert;

    trade(t, 'BTC', '63990.00');
    const crossing = trade(t, 'BTC', '63950.00');
    trade(t, 'BTC', '63000.00');
    const list = async (token: string) => (await t.call('alerts/list', {}, { token })).body.data as PriceAlert[];
    await vi.waitFor(async () => expect((await list(owner.token))[0]?.state).toBe('fired'), {
      timeout: 15_000,
      interval: 50,
    });
    expect((await list(owner.token))[0]?.fired).toMatchObject({
      seq: crossing.seq,
      ts: crossing.ts,
      price: '63950.00',
    });
    expect(await list(stranger.token)).toEqual([]);
    const refused = await t.call('alerts/delete', { id: String(alert.id) }, { token: stranger.token });
    expect(refused.body).toMatchObject({ type: 'error', reason: 'alertNotFound' });
    expect(await list(owner.token)).toHaveLength(1);
    expect((await t.call('alerts/delete', { id: String(alert.id) }, { token: owner.token })).body.type).toBe('ok');
    expect(await list(owner.token)).toEqual([]);
  });
});

describe.each(DATABASES)('price alerts across a server restart (%s)', (kind) => {
  it('keeps an alert through a restart and fires it on the new server’s first crossing tick', async () => {
    const database = await openTestDatabase(kind);
    const market = new HandMarket(['ETH']);
    const feedA = new MarketFeed(market);
    const a = await startTestApp(database.handle, { market: { feed: feedA, record: { flushMs: 50 } } });
    let b: TestApp | undefined;
    let feedB: MarketFeed | undefined;
    try {
      const { token } = await a.registerByEmail(uniqueEmail('alerts-restart'));
      a.clock.advance(1_000);
      market.trade('ETH', '3000.00', a.clock.now());
      const made = await a.call('alerts/create', { symbol: 'ETH', side: 'above', price: '3100' }, { token });
      expect(made.body.type, made.body.message).toBe('ok');
      const alert = made.body.data as PriceAlert;
      a.clock.advance(1_000);
      const quiet = market.trade('ETH', '3050.00', a.clock.now());
      // The first server checked the quiet tick (its checkpoint is stored) before it stops.
      const checkpoint = async () =>
        Number(
          (
            await withAlerts(database.handle.db)
              .selectFrom('price_alerts')
              .select('checked_ts')
              .where('id', '=', alert.id)
              .executeTakeFirstOrThrow()
          ).checked_ts,
        );
      await vi.waitFor(async () => expect(await checkpoint()).toBe(quiet.ts), { timeout: 15_000, interval: 50 });
      await a.close();
      feedA.close();

      feedB = new MarketFeed(market);
      b = await startTestApp(database.handle, { market: { feed: feedB, record: { flushMs: 50 } } });
      const behind = a.clock.now() + 1_000 - b.clock.now();
      if (behind > 0) b.clock.advance(behind);
      const crossing = market.trade('ETH', '3100.00', b.clock.now());
      const list = async () => (await b?.call('alerts/list', {}, { token }))?.body.data as PriceAlert[];
      await vi.waitFor(async () => expect((await list())[0]?.state).toBe('fired'), { timeout: 15_000, interval: 50 });
      expect((await list())[0]?.fired).toMatchObject({ seq: crossing.seq, ts: crossing.ts, price: '3100.00' });
    } finally {
      await b?.close();
      feedB?.close();
      await database.close();
    }
  });
});
