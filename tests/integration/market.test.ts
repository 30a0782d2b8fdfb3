import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okEnvelope, PERIODS, TIMEFRAMES } from '../../protocol';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';

describe.each(DATABASES)('market calls on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let sim: MarketSimulator;
  const T0 = Date.UTC(2024, 5, 4, 12);
  let now = T0;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    sim = new MarketSimulator({ seed: 'it', now: () => now, backfillDays: 1, alwaysOpen: true });
    const feed = new MarketFeed(sim, () => now);
    t = await startTestApp(database.handle, { market: { feed, record: { now: () => now } } });
    now += 3_000;
    sim.advanceTo(now);
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  /** Calls `path` and parses the ok envelope with the call's own response schema. */
  async function ok<P extends CallPath>(path: P, fields: Record<string, string> = {}, token?: string) {
    const { status, body } = await t.call(path, fields, { token });
    expect(status).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ type: 'ok' });
    return okEnvelope(calls[path].response).parse(body).data as CallData<P>;
  }

  it('coin/list has the base coins with their SPEC ids and about ten more, each with an exact tick size', async () => {
    const list = await ok('coin/list');
    expect(list.slice(0, 4).map((c) => [c.symbol, c.id])).toEqual([
      ['BTC', 1],
      ['ETH', 2],
      ['USDT', 3],
      ['USDC', 4],
    ]);
    expect(list.length).toBeGreaterThanOrEqual(12);
    expect(list.every((c) => c.kind === 'coin')).toBe(true);
    expect(list.find((c) => c.symbol === 'BTC')).toMatchObject({ tick_size: '0.01', quote: 'USDT' });
  });

  it('coin/list kind=stock lists the US stocks, kind=all both, and an unknown kind is refused', async () => {
    const stocks = await ok('coin/list', { kind: 'stock' });
    expect(stocks.length).toBeGreaterThanOrEqual(8);
    expect(stocks.every((s) => s.kind === 'stock' && s.quote === 'USD')).toBe(true);
    const all = await ok('coin/list', { kind: 'all' });
    expect(all.length).toBe(stocks.length + (await ok('coin/list')).length);
    const bad = await t.call('coin/list', { kind: 'bonds' });
    expect(bad.body).toMatchObject({ type: 'error', field: 'kind' });
  });

  it('currency/quotation_new quotes every coin with exact strings and the latest tick', async () => {
    const quotes = await ok('currency/quotation_new');
    expect(quotes.map((q) => q.symbol)).toEqual((await ok('coin/list')).map((c) => c.symbol));
    const btc = quotes.find((q) => q.symbol === 'BTC');
    expect(btc?.ts).toBe(now);
    expect(btc?.last).toMatch(/^\d+\.\d{2}$/);
    for (const q of quotes) {
      expect(Number(q.low)).toBeLessThanOrEqual(Number(q.last));
      expect(Number(q.high)).toBeGreaterThanOrEqual(Number(q.last));
    }
  });

  it('currency/new_timeshar serves every period, newest last, within the limit', async () => {
    for (const period of PERIODS) {
      const data = await ok('currency/new_timeshar', { symbol: 'eth', period, limit: '20' });
      expect(data.symbol).toBe('ETH');
      expect(data.candles.length).toBeGreaterThan(0);
      expect(data.candles.length).toBeLessThanOrEqual(20);
      const times = data.candles.map((c) => c.t);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
    expect((await ok('currency/new_timeshar', { symbol: 'BTC' })).period).toBe('1min');
    expect(TIMEFRAMES).toHaveLength(7);
  });

  it('currency/deal lists recent trades newest first', async () => {
    const data = await ok('currency/deal', { symbol: 'BTC', limit: '5' });
    expect(data.trades).toHaveLength(5);
    expect(data.trades[0]?.ts).toBe(now);
    expect(data.trades[0]?.price).toBe((await ok('currency/quotation_new')).find((q) => q.symbol === 'BTC')?.last);
  });

  it('US stocks: quotation, kline and getNewPrice', async () => {
    const quotes = await ok('usstock/quotation');
    expect(quotes.map((q) => q.symbol)).toEqual(
      expect.arrayContaining(['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'GOOGL', 'META', 'NFLX', 'AMD', 'INTC']),
    );
    const kline = await ok('usstock/kline', { symbol: 'AAPL', period: '5min', limit: '10' });
    expect(kline.candles).toHaveLength(10);
    const aapl = await ok('usstock/getNewPrice', { symbol: 'AAPL' });
    expect(aapl).toEqual(quotes.find((q) => q.symbol === 'AAPL'));
  });

  it('rejects unknown symbols, periods and limits with a field error', async () => {
    const cases: Array<[CallPath, Record<string, string>]> = [
      ['currency/new_timeshar', { symbol: 'NOPE' }],
      ['currency/new_timeshar', { symbol: 'BTC', period: '2min' }],
      ['currency/new_timeshar', { symbol: 'BTC', limit: '0' }],
      ['currency/new_timeshar', { symbol: 'BTC', limit: '100000' }],
      ['currency/new_timeshar', { symbol: 'AAPL' }],
      ['currency/deal', { symbol: 'bad symbol!' }],
      ['usstock/kline', { symbol: 'BTC' }],
      ['usstock/getNewPrice', { symbol: 'BTC' }],
      ['usstock/getNewPrice', {}],
    ];
    for (const [path, fields] of cases) {
      const { body } = await t.call(path, fields);
      expect(body, `${path} ${JSON.stringify(fields)}`).toMatchObject({ type: 'error', message: 'Invalid input' });
    }
  });

  it('favourites need a session, add and remove idempotently, and stay per user', async () => {
    expect((await t.call('currency/user_currency_list')).body.type).toBe(999);
    const alice = await t.registerByEmail(uniqueEmail('alice'));
    const bob = await t.registerByEmail(uniqueEmail('bob'));
    expect(await ok('currency/user_currency_list', {}, alice.token)).toEqual({ symbols: [], quotes: [] });
    await ok('currency/user_currency_list', { action: 'add', symbol: 'ETH' }, alice.token);
    await ok('currency/user_currency_list', { action: 'add', symbol: 'ETH' }, alice.token);
    const list = await ok('currency/user_currency_list', { action: 'add', symbol: 'aapl' }, alice.token);
    expect(list.symbols.sort()).toEqual(['AAPL', 'ETH']);
    expect(list.quotes.map((q) => q.symbol).sort()).toEqual(['AAPL', 'ETH']);
    expect((await ok('currency/user_currency_list', {}, bob.token)).symbols).toEqual([]);
    const after = await ok('currency/user_currency_list', { action: 'remove', symbol: 'ETH' }, alice.token);
    expect(after.symbols).toEqual(['AAPL']);
    const bad = await t.call('currency/user_currency_list', { action: 'add', symbol: 'NOPE' }, { token: alice.token });
    expect(bad.body).toMatchObject({ type: 'error', field: 'symbol' });
    const missing = await t.call('currency/user_currency_list', { action: 'add' }, { token: alice.token });
    expect(missing.body).toMatchObject({ type: 'error', field: 'symbol' });
  });

  it('records the published prices in price_ticks', async () => {
    now += 1_000;
    sim.advanceTo(now);
    const quoteBeforeClose = (await ok('currency/quotation_new')).find((q) => q.symbol === 'BTC')?.last;
    await t.app.close(); // the recorder writes what is left on close
    const rows = await withPriceRecord(database.handle.db)
      .selectFrom('price_ticks')
      .selectAll()
      .where('symbol', '=', 'BTC')
      .orderBy('seq')
      .execute();
    // Live steps every second from the start (T0, +1 s, +2 s, +3 s, +4 s); the history is not recorded.
    expect(rows.map((r) => r.ts)).toEqual([0, 1, 2, 3, 4].map((s) => T0 + s * 1_000));
    expect(rows[4]).toMatchObject({ ts: now, instrument_id: 1 });
    expect(rows[4]?.price).toBe(quoteBeforeClose);
    expect(rows.every((r) => /^\d+\.\d{2}$/.test(r.price))).toBe(true);
  });
});

describe('market calls without a feed', () => {
  it('answer not found and leave the other calls alone', async () => {
    const database = await openTestDatabase('sqlite');
    const t = await startTestApp(database.handle);
    try {
      expect((await t.call('currency/quotation_new')).body).toMatchObject({ type: 'error', message: 'Not found' });
      expect((await t.call('get/lang')).body.type).toBe('ok');
    } finally {
      await t.close();
      await database.close();
    }
  });
});
