import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { okEnvelope } from '../../protocol';
import { buyCost, fromUnits, sellProceeds, spotFillOf, toUnits } from '../../protocol/rules/spot';
import type { SpotOrder } from '../../protocol/spot';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { withSpot } from '../../server/domains/spot';
import { parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { instrumentBySymbol } from '../../server/market/instruments';
import { MarketSimulator } from '../../server/market/simulator';
import { translate } from '../../server/platform/i18n/messages';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

/**
 * Spot trading over HTTP against the real engine on every database (RULES "Spot"): an order takes the first tick
 * after acceptance, a limit rests until a tick crosses it and fills at that tick's price, the money moves through
 * the ledger in the order's own transaction, bad input changes nothing, and every fill re-computes from its tick.
 * The market is a simulator the test steps by hand; the engine runs on the app's jobs runner.
 */
describe.each(DATABASES)('spot trading on %s', (kind) => {
  let t: TestApp;
  let ledger: Ledger;
  const T0 = Date.now();
  const sim = new MarketSimulator({ seed: 'spot', now: () => T0, backfillDays: 0, alwaysOpen: true, stepMs: 1_000 });
  const feed = new MarketFeed(sim, () => T0);
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { market: { feed, record: false } },
  );
  /** The market's time: ahead of the app's clock by whole steps as the tests move both. */
  let marketTime = T0;
  beforeAll(() => {
    sim.advanceTo(T0);
    ledger = new Ledger(t.handle);
  });
  afterAll(() => feed.close());

  /** Moves the app's clock and the market together: the next ticks come after everything accepted so far. */
  function tick(steps = 1) {
    for (let k = 0; k < steps; k++) {
      t.clock.advance(1_000);
      marketTime += 1_000;
      sim.advanceTo(Math.max(marketTime, t.clock.now()));
    }
  }

  let seeds = 0;
  async function fund(userId: number, currency: string, amount: string) {
    const parsed = parseAmount(currency, amount);
    if (!parsed.ok) throw new Error(parsed.error);
    await ledger.credit({
      userId,
      requestId: `seed-${++seeds}`,
      kind: 'deposit',
      currency,
      amount: parsed.units,
      from: 'deposits_clearing',
      to: 'coin',
    });
  }

  async function ok<P extends CallPath>(path: P, fields: Record<string, string>, token?: string) {
    const { status, body } = await t.call(path, fields, token === undefined ? {} : { token });
    expect(status).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ type: 'ok' });
    return okEnvelope(calls[path].response).parse(body).data as CallData<P>;
  }

  async function refused(path: CallPath, fields: Record<string, string>, token: string, key: string) {
    const { body } = await t.call(path, fields, { token });
    expect(body.type, JSON.stringify(body)).not.toBe('ok');
    expect(body.message).toBe(translate('en', key));
    expect(body.reason).toBe(key);
  }

  async function coin(userId: number, currency: string) {
    const rows = await ledger.balances(userId);
    const row = rows.find((b) => b.type === 'coin' && b.currency === currency);
    return { balance: row?.balance ?? 0, available: row?.available ?? 0 };
  }

  async function newTrader(usdt?: string) {
    const session = await t.registerByEmail(uniqueEmail('spot'));
    if (usdt) await fund(session.user.id, 'USDT', usdt);
    return { token: session.token, id: session.user.id };
  }

  let requests = 0;
  const rid = () => `r${++requests}-${kind}`;

  /** Steps the market until the order leaves `from` (the engine acts on the jobs runner's timer). */
  async function until(token: string, id: number, states: SpotOrder['state'][]): Promise<SpotOrder> {
    let order: SpotOrder | undefined;
    await vi.waitFor(
      async () => {
        tick();
        const open = await ok('coin/trade/list', { list: 'open' }, token);
        const history = await ok('coin/trade/list', { list: 'history' }, token);
        order = [...open.orders, ...history.orders].find((o) => o.id === id);
        expect(order && states.includes(order.state)).toBe(true);
      },
      { timeout: 15_000, interval: 100 },
    );
    if (!order) throw new Error('unreachable');
    return order;
  }

  const terms = { feeRate: '0.001', minValue: '5', priceBand: '0.02', quoteScale: 6 };
  const btc = { priceScale: 2, qtyScale: 5 };

  it('publishes the pairs and the terms in force', async () => {
    const config = await ok('coin/trade/config', {});
    expect(config).toMatchObject({ fee_rate: '0.001', min_value: '5', quote_scale: 6 });
    expect(config.pairs.map((p) => p.symbol)).toContain('BTC');
    expect(config.pairs.map((p) => p.symbol)).not.toContain('USDT');
    expect(config.pairs.find((p) => p.symbol === 'BTC')).toMatchObject({ price_step: '0.01', qty_step: '0.00001' });
  });

  it('a market buy fills at the first tick after acceptance; the money moves as the rule says', async () => {
    const u = await newTrader('1000');
    const placed = await ok(
      'coin/trade',
      { symbol: 'BTC', side: 'buy', type: 'market', qty: '0.01', request_id: rid() },
      u.token,
    );
    expect(placed.state).toBe('waiting');
    const acceptedAt = placed.created_at;
    const filled = await until(u.token, placed.id, ['completed']);
    const fill = filled.fill;
    if (!fill) throw new Error('no fill');
    expect(fill.tick.ts).toBeGreaterThan(acceptedAt);
    expect(fill.tick.symbol).toBe('BTC');
    // The fill re-computes from its tick with the published rule.
    const cost = buyCost(toUnits('0.01', 5) ?? 0n, toUnits(fill.tick.price, 2) ?? 0n, btc, terms);
    expect(fill.total).toBe(formatMicro(cost.total));
    expect(fill.fee).toBe(formatMicro(cost.fee));
    expect(fill.value).toBe(formatMicro(cost.value));
    const usdt = await coin(u.id, 'USDT');
    expect(usdt.balance).toBe(1_000_000_000 - Number(cost.total));
    expect(usdt.available).toBe(usdt.balance);
    expect((await coin(u.id, 'BTC')).balance).toBe(1_000_000);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);

    // Selling it back: the user receives value − fee, rounded down.
    const sold = await ok(
      'coin/trade',
      { symbol: 'BTC', side: 'sell', type: 'market', qty: '0.01', request_id: rid() },
      u.token,
    );
    const done = await until(u.token, sold.id, ['completed']);
    const proceeds = sellProceeds(toUnits('0.01', 5) ?? 0n, toUnits(done.fill?.tick.price ?? '0', 2) ?? 0n, btc, terms);
    expect(done.fill?.total).toBe(formatMicro(proceeds.total));
    expect((await coin(u.id, 'BTC')).balance).toBe(0);
    expect((await coin(u.id, 'USDT')).balance).toBe(1_000_000_000 - Number(cost.total) + Number(proceeds.total));
  });

  it('a limit order rests with its funds held until cancelled, and the cancel releases them', async () => {
    const u = await newTrader('500');
    const last = feed.quote('BTC')?.last ?? '0';
    const far = (toUnits(last, 2) ?? 0n) / 2n;
    const placed = await ok(
      'coin/trade',
      { symbol: 'BTC', side: 'buy', type: 'limit', qty: '0.001', price: fromCents(far), request_id: rid() },
      u.token,
    );
    const held = await coin(u.id, 'USDT');
    expect(held.available).toBeLessThan(held.balance);
    const resting = await until(u.token, placed.id, ['pending']);
    expect(resting.fill).toBeNull();
    const cancelled = await ok('coin/trade/cancel', { id: String(placed.id) }, u.token);
    expect(cancelled).toMatchObject({ state: 'cancelled', cancel_reason: 'user', held: '0.000000' });
    expect(await coin(u.id, 'USDT')).toEqual({ balance: 500_000_000, available: 500_000_000 });
    await refused('coin/trade/cancel', { id: String(placed.id) }, u.token, 'orderNotCancellable');
  });

  it('a limit buy above the price fills at its entry tick, at that tick price, never worse than the limit', async () => {
    const u = await newTrader('500');
    const last = toUnits(feed.quote('BTC')?.last ?? '0', 2) ?? 0n;
    const limit = last + last / 10n;
    const placed = await ok(
      'coin/trade',
      { symbol: 'BTC', side: 'buy', type: 'limit', qty: '0.001', price: fromCents(limit), request_id: rid() },
      u.token,
    );
    const filled = await until(u.token, placed.id, ['completed']);
    expect(toUnits(filled.fill?.price ?? '0', 2) ?? 0n).toBeLessThanOrEqual(limit);
    // The unused part of the hold (bought below the limit) is released.
    const usdt = await coin(u.id, 'USDT');
    expect(usdt.available).toBe(usdt.balance);
    expect(usdt.balance).toBe(500_000_000 - Number(toUnits(filled.fill?.total ?? '0', 6)));
  });

  it('refuses bad orders with the message of SPEC 8 and changes nothing', async () => {
    const poor = await newTrader();
    const u = await newTrader('20');
    const base = { symbol: 'BTC', side: 'buy', type: 'market' };
    await refused('coin/trade', { ...base, request_id: rid() }, u.token, 'buyQuantityRequired');
    await refused('coin/trade', { ...base, side: 'sell', request_id: rid() }, u.token, 'soldQuantityRequired');
    await refused('coin/trade', { ...base, qty: '0.000001', request_id: rid() }, u.token, 'spotQtyStep');
    await refused('coin/trade', { ...base, qty: '0.00001', request_id: rid() }, u.token, 'spotMinValue');
    await refused('coin/trade', { ...base, qty: '1', request_id: rid() }, u.token, 'insufficientBalance');
    await refused('coin/trade', { ...base, qty: '0.01', request_id: rid() }, poor.token, 'availableZero');
    await refused('coin/trade', { ...base, side: 'sell', qty: '0.01', request_id: rid() }, poor.token, 'availableZero');
    await fund(poor.id, 'BTC', '0.001');
    await refused(
      'coin/trade',
      { ...base, side: 'sell', qty: '0.01', request_id: rid() },
      poor.token,
      'insufficientSellable',
    );
    await refused(
      'coin/trade',
      { ...base, symbol: 'AAPL', qty: '1', request_id: rid() },
      u.token,
      'spotPairUnsupported',
    );
    await refused(
      'coin/trade',
      { ...base, type: 'limit', qty: '0.001', request_id: rid() },
      u.token,
      'limitPriceRequired',
    );
    await refused(
      'coin/trade',
      { ...base, type: 'limit', qty: '0.001', price: '100.001', request_id: rid() },
      u.token,
      'spotPriceStep',
    );
    const list = await ok('coin/trade/list', { list: 'open' }, u.token);
    expect(list.orders).toEqual([]);
    expect(await coin(u.id, 'USDT')).toEqual({ balance: 20_000_000, available: 20_000_000 });
  });

  it('another user’s order does not exist for you', async () => {
    const a = await newTrader('100');
    const b = await newTrader('100');
    const last = toUnits(feed.quote('BTC')?.last ?? '0', 2) ?? 0n;
    const placed = await ok(
      'coin/trade',
      { symbol: 'BTC', side: 'buy', type: 'limit', qty: '0.001', price: fromCents(last / 2n), request_id: rid() },
      a.token,
    );
    await refused('coin/trade/cancel', { id: String(placed.id) }, b.token, 'orderNotFound');
    expect((await ok('coin/trade/list', { list: 'open' }, b.token)).orders).toEqual([]);
    await ok('coin/trade/cancel', { id: String(placed.id) }, a.token);
  });

  it('the same request id twice places one order and one hold', async () => {
    const u = await newTrader('100');
    const id = rid();
    const fields = { symbol: 'ETH', side: 'buy', type: 'limit', qty: '0.05', price: '100.00', request_id: id };
    const [first, second] = await Promise.all([ok('coin/trade', fields, u.token), ok('coin/trade', fields, u.token)]);
    expect(second.id).toBe(first.id);
    const holds = await ledger.holds(u.id, 'open');
    expect(holds).toHaveLength(1);
    await refused('coin/trade', { ...fields, qty: '0.06' }, u.token, 'requestIdReused');
    await ok('coin/trade/cancel', { id: String(first.id) }, u.token);
  });

  it('100 simultaneous orders on one balance: exactly as many as it allows are accepted', async () => {
    const u = await newTrader('500');
    // Each holds 0.05 ETH at 100.00 + 0.1% = 5.005 USDT: 99 fit in 500 USDT.
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.call(
          'coin/trade',
          { symbol: 'ETH', side: 'buy', type: 'limit', qty: '0.05', price: '100.00', request_id: rid() },
          { token: u.token },
        ),
      ),
    );
    const accepted = results.filter((r) => r.body.type === 'ok');
    expect(accepted).toHaveLength(99);
    for (const r of results.filter((x) => x.body.type !== 'ok')) {
      expect(r.body.message).toBe(translate('en', 'insufficientBalance'));
    }
    const usdt = await coin(u.id, 'USDT');
    expect(usdt.available).toBe(500_000_000 - 99 * 5_005_000);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('a cancel racing the fill: exactly one wins and the funds are right either way', async () => {
    for (let round = 0; round < 5; round++) {
      const u = await newTrader('100');
      const placed = await ok(
        'coin/trade',
        { symbol: 'ETH', side: 'buy', type: 'market', qty: '0.01', request_id: rid() },
        u.token,
      );
      tick();
      const cancel = await t.call('coin/trade/cancel', { id: String(placed.id) }, { token: u.token });
      const final = await until(u.token, placed.id, ['completed', 'cancelled']);
      const usdt = await coin(u.id, 'USDT');
      expect(usdt.available).toBe(usdt.balance);
      if (final.state === 'cancelled') {
        expect(cancel.body.type).toBe('ok');
        expect(usdt.balance).toBe(100_000_000);
      } else {
        expect(cancel.body.message).toBe(translate('en', 'orderNotCancellable'));
        expect(usdt.balance).toBe(100_000_000 - Number(toUnits(final.fill?.total ?? '0', 6)));
        expect((await coin(u.id, 'ETH')).balance).toBe(1_000_000);
      }
    }
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('no tick within 10 s: the order is cancelled with that reason and its funds released', async () => {
    const u = await newTrader('100');
    const placed = await ok(
      'coin/trade',
      { symbol: 'ETH', side: 'buy', type: 'market', qty: '0.01', request_id: rid() },
      u.token,
    );
    // The app's clock moves past the wait; the market does not tick.
    t.clock.advance(11_000);
    let order: SpotOrder | undefined;
    await vi.waitFor(
      async () => {
        const history = await ok('coin/trade/list', { list: 'history' }, u.token);
        order = history.orders.find((o) => o.id === placed.id);
        expect(order?.state).toBe('cancelled');
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(order?.cancel_reason).toBe('no_tick');
    expect(await coin(u.id, 'USDT')).toEqual({ balance: 100_000_000, available: 100_000_000 });
    marketTime = t.clock.now();
  });

  it('every fill of this run re-computes from the price record with the published rule', async () => {
    const filled = await withSpot(t.db)
      .selectFrom('spot_orders')
      .selectAll()
      .where('state', '=', 'completed')
      .execute();
    // At least the market buy, its sell and the crossing limit (the cancel races may go either way).
    expect(filled.length).toBeGreaterThanOrEqual(3);
    for (const order of filled) {
      const instrument = instrumentBySymbol(order.symbol);
      if (!instrument || order.fill_seq === null) throw new Error(`order ${order.id} has no fill tick`);
      // The tick the fill names is in the record (pinned), with the time and price the fill used.
      const tick = await withPriceRecord(t.db)
        .selectFrom('price_ticks')
        .select(['ts', 'price'])
        .where('symbol', '=', order.symbol)
        .where('seq', '=', order.fill_seq)
        .executeTakeFirstOrThrow();
      expect({ ts: tick.ts, price: tick.price }).toEqual({ ts: order.fill_ts, price: order.fill_price });
      const pair = { priceScale: instrument.priceScale, qtyScale: instrument.qtyScale };
      const fill = spotFillOf(
        {
          side: order.side,
          mode: order.mode,
          qty: order.qty === null ? null : toUnits(order.qty, pair.qtyScale),
          amount: order.amount === null ? null : toUnits(order.amount, 6),
        },
        toUnits(tick.price, pair.priceScale) ?? 0n,
        pair,
        { ...terms, feeRate: order.fee_rate },
      );
      expect(
        fill && {
          qty: fromUnits(fill.qty, pair.qtyScale),
          value: formatMicro(fill.value),
          fee: formatMicro(fill.fee),
          total: formatMicro(fill.total),
        },
      ).toEqual({ qty: order.fill_qty, value: order.fill_value, fee: order.fill_fee, total: order.fill_total });
    }
  });
});

/** USDT minor units (6 decimals) as the wire's text. */
const formatMicro = (units: bigint) => fromUnits(units, 6);
/** Cents as a price of 2 decimals. */
const fromCents = (units: bigint) => fromUnits(units, 2);
