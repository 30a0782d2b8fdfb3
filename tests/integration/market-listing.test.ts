import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { type MarketMessage, marketMessage, okEnvelope, trade } from '../../protocol';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { Ledger, parseAmount } from '../../server/ledger';
import { INSTRUMENTS, listCoin, MarketFeed, MarketSimulator, parseUnits, withPriceRecord } from '../../server/market';
import { writeTransaction } from '../../server/platform/db/transaction';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';

const T0 = Date.UTC(2024, 5, 4, 12);
const LISTING_PRICE = '0.25';

/**
 * A coin listed on a running app (as an IEO listing does: listCoin and the ledger's addCurrency in one transaction):
 * it is quoted at once at its listing price, its ticks go out on the socket, its candles and trades are served, the
 * price record keeps its ticks, and the ledger keeps it as a currency that users can be credited. The feed runs on a clock the test moves.
 */
describe.each(DATABASES)('a coin listed on a running app on %s', (kind) => {
  // One process, two databases in turn: a symbol of its own for each (this process's registry outlives a database).
  const SYMBOL = kind === 'sqlite' ? 'LISTS' : 'LISTP';
  let database: TestDatabase;
  let t: TestApp;
  let sim: MarketSimulator;
  let url: string;
  let now = T0;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    sim = new MarketSimulator({
      seed: 'listing-it',
      now: () => now,
      backfillDays: 1,
      alwaysOpen: true,
      instruments: INSTRUMENTS.filter((i) => ['BTC', 'ETH', 'USDT'].includes(i.symbol)),
    });
    const feed = new MarketFeed(sim, () => now);
    t = await startTestApp(database.handle, {
      market: { feed, flushMs: 20, record: { now: () => now, flushMs: 50 } },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    now += 3_000;
    sim.advanceTo(now);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
    await database?.close();
  });

  async function ok<P extends CallPath>(path: P, fields: Record<string, string> = {}, token?: string) {
    const { status, body } = await t.call(path, fields, { token });
    expect(status).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ type: 'ok' });
    return okEnvelope(calls[path].response).parse(body).data as CallData<P>;
  }

  /** The price in ticks of the listed coin (an exact integer: no float sees a price). */
  const ticksOf = (price: string) => parseUnits(price, 5);

  it('is quoted at once at its listing price in currency/quotation_new, and coin/list has it', async () => {
    expect((await ok('currency/quotation_new')).map((q) => q.symbol)).not.toContain(SYMBOL);
    // As the IEO's listing step does: the coin joins the market and the ledger's currencies in one transaction.
    const instrument = await writeTransaction(t.handle, async (trx) => {
      const listed = await listCoin(trx, {
        symbol: SYMBOL,
        name: 'Listed Coin',
        startPrice: LISTING_PRICE,
        listedAt: now,
      });
      await new Ledger(t.handle).within(trx).addCurrency(SYMBOL, 8);
      return listed;
    });
    expect(instrument.id).toBeGreaterThanOrEqual(1000);
    const quotes = await ok('currency/quotation_new');
    // After the static coins (and, on the second database, the first one's coin: this process still knows it).
    expect(quotes.map((q) => q.symbol).slice(0, 3)).toEqual(['BTC', 'ETH', 'USDT']);
    expect(quotes.at(-1)?.symbol).toBe(SYMBOL);
    expect(quotes.find((q) => q.symbol === SYMBOL)).toMatchObject({
      id: instrument.id,
      last: '0.25000',
      open: '0.25000',
      change_pct: '0.00',
      ts: now,
      seq: 1,
    });
    expect((await ok('coin/list')).find((c) => c.symbol === SYMBOL)).toEqual({
      id: instrument.id,
      symbol: SYMBOL,
      name: 'Listed Coin',
      kind: 'coin',
      quote: 'USDT',
      tick_size: '0.00001',
      price_scale: 5,
      qty_scale: 0,
    });
  });

  it('its ticks go out on the socket as the simulator walks on from the listing price', async () => {
    const socket = connect(url, { transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const topic = `trades:${SYMBOL}`;
    const messages: MarketMessage[] = [];
    const waiters: (() => void)[] = [];
    socket.on('market', (raw: unknown) => {
      const message = marketMessage.parse(raw);
      if (message.topic !== topic || (Array.isArray(message.data) && message.data.length === 0)) return;
      messages.push(message);
      for (const wake of waiters.splice(0)) wake();
    });
    const next = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (messages.length >= count ? resolve() : waiters.push(check));
        check();
      });
    expect(await socket.emitWithAck('subscribe', topic)).toEqual({ ok: true, topic });
    await next(1);
    const snapshot = z.array(trade).parse(messages[0]?.data);
    expect(snapshot.map((x) => x.price)).toEqual(['0.25000']);

    now += 30_000;
    sim.advanceTo(now);
    await next(2);
    const walked = z.array(trade).parse(messages[1]?.data);
    expect(walked).toHaveLength(30);
    expect(walked[0]?.ts).toBe(now); // newest first
    // Half a minute of a 0.2 %-a-minute walk stays well within 10 % of the listing price.
    for (const x of walked) expect(Math.abs(ticksOf(x.price) - ticksOf('0.25'))).toBeLessThan(2_500);
    expect(new Set(walked.map((x) => x.price)).size).toBeGreaterThan(1);
  });

  it('serves its kline and its trades', async () => {
    now += 90_000;
    sim.advanceTo(now);
    const kline = await ok('currency/new_timeshar', { symbol: SYMBOL, period: '1min', limit: '10' });
    expect(kline.symbol).toBe(SYMBOL);
    expect(kline.candles.length).toBeGreaterThanOrEqual(2);
    expect(kline.candles[0]?.o).toBe('0.25000');
    const times = kline.candles.map((c) => c.t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    for (const period of ['5min', '1day', 'timeshare']) {
      expect((await ok('currency/new_timeshar', { symbol: SYMBOL, period })).candles.length).toBeGreaterThan(0);
    }
    const deals = await ok('currency/deal', { symbol: SYMBOL, limit: '5' });
    expect(deals.trades).toHaveLength(5);
    expect(deals.trades[0]?.ts).toBe(now);
  });

  it('the price record keeps its ticks', async () => {
    await expect
      .poll(
        async () => {
          const row = await withPriceRecord(t.db)
            .selectFrom('price_ticks')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .where('symbol', '=', SYMBOL)
            .where('batch_id', 'is not', null)
            .executeTakeFirst();
          return Number(row?.seq ?? 0);
        },
        { timeout: 5_000 },
      )
      .toBe(121);
    const first = await withPriceRecord(t.db)
      .selectFrom('price_ticks')
      .selectAll()
      .where('symbol', '=', SYMBOL)
      .where('seq', '=', 1)
      .executeTakeFirstOrThrow();
    expect(first).toMatchObject({ price: '0.25000', ts: T0 + 3_000 });
  });

  it('is a ledger currency: a user credited the coin holds it, valued at its last price', async () => {
    const session = await t.registerByEmail(uniqueEmail('listing'));
    const amount = parseAmount(SYMBOL, '1000');
    if (!amount.ok) throw new Error(amount.error);
    expect(amount.units).toBe(100_000_000_000); // 8 decimals, like every coin that is not a stablecoin
    await new Ledger(t.handle).credit({
      userId: session.user.id,
      requestId: `listing-${SYMBOL}`,
      kind: 'deposit',
      currency: SYMBOL,
      amount: amount.units,
      from: 'deposits_clearing',
      to: 'coin',
    });
    const list = await ok('wallet/list', { type: 'coin' }, session.token);
    const row = list.accounts[0]?.rows.find((r) => r.currency === SYMBOL);
    const last = (await ok('currency/quotation_new')).find((q) => q.symbol === SYMBOL)?.last ?? '';
    expect(row).toMatchObject({ scale: 8, available: '1000.00000000', total: '1000.00000000', price: last });
    // 1000 coins at the last price, exactly: the price's 5 decimals times 1000, in USDT's 6 decimals.
    expect(parseUnits(row?.valuation ?? '', 6)).toBe(ticksOf(last) * 1_000 * 10);
  });
});
