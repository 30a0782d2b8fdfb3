import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { okEnvelope } from '../../protocol';
import type { LeverPhase, LeverPosition } from '../../protocol/lever';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { approveVerification } from '../../server/domains/identity';
import { parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { verifyPriceChain } from '../../server/market/price-chain';
import { translate } from '../../server/platform/i18n/messages';
import { HandMarket } from './hand-market';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

/**
 * Lever positions over HTTP against the real engine on every database (RULES "Lever"): the market is driven tick by
 * tick at chosen prices, so each open, trigger, close and liquidation must happen at the exact tick the rules name,
 * with the money the rules compute, through the ledger. Bad input changes nothing; another user's position does not
 * exist; the simulator book is practice money.
 */
describe.each(DATABASES)('lever on %s', (kind) => {
  let t: TestApp;
  let ledger: Ledger;
  const market = new HandMarket(['BTC', 'ETH']);
  const feed = new MarketFeed(market);
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { market: { feed, record: { flushMs: 50 } } },
  );
  beforeAll(async () => {
    ledger = new Ledger(t.handle);
    trade('BTC', '60000.00');
    trade('ETH', '3000.00');
    // The engine leads once the jobs runner has run it: wait for a first round.
    await settle();
  });
  afterAll(() => feed.close());

  /** One tick at `price`, a second after the last (the app's clock moves with it). */
  function trade(symbol: string, price: string) {
    t.clock.advance(1_000);
    return market.trade(symbol, price, t.clock.now());
  }

  let seeds = 0;
  async function fund(userId: number, amount: string) {
    const parsed = parseAmount('USDT', amount);
    if (!parsed.ok) throw new Error(parsed.error);
    await ledger.credit({
      userId,
      requestId: `seed-${++seeds}`,
      kind: 'deposit',
      currency: 'USDT',
      amount: parsed.units,
      from: 'deposits_clearing',
      to: 'contract',
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

  async function contract(userId: number, book: 'real' | 'simulator' = 'real') {
    const row = (await ledger.balances(userId, book)).find((b) => b.type === 'contract' && b.currency === 'USDT');
    return { balance: row?.balance ?? 0, available: row?.available ?? 0 };
  }

  async function trader(usdt: string | undefined, verify = true) {
    const session = await t.registerByEmail(uniqueEmail('lev'));
    if (usdt) await fund(session.user.id, usdt);
    if (verify) {
      const submitted = await ok(
        'user/real_name',
        { country: 'DE', name: 'Test Trader', id_number: 'T0000001', address: 'Street 1', consent: '1' },
        session.token,
      );
      const review = await approveVerification(t.db, submitted.id, { operator: 'test' });
      if (!review.ok) throw new Error(review.problem);
    }
    return { token: session.token, id: session.user.id };
  }

  let requests = 0;
  const rid = () => `l${++requests}-${kind}`;
  const order = (fields: Record<string, string>) => ({
    symbol: 'BTC',
    side: 'long',
    type: 'market',
    margin_mode: 'isolated',
    lots: '10',
    leverage: '10',
    account: 'real',
    request_id: rid(),
    ...fields,
  });

  /** Waits (without stepping the market) until the engine has moved the position into `phase`. */
  async function phase(token: string, id: number, wanted: LeverPhase): Promise<LeverPosition> {
    let p: LeverPosition | undefined;
    await vi.waitFor(
      async () => {
        p = await ok('lever/info', { id: String(id) }, token);
        expect(p.phase).toBe(wanted);
      },
      { timeout: 10_000, interval: 30 },
    );
    return p as LeverPosition;
  }

  /**
   * Waits until the engine has acted on everything queued so far: a round queued after this call has run, and rounds
   * run in the engine's chain behind the ticks and changes that came before (a tick that must NOT fire anything has
   * then been looked at, however slow the machine).
   */
  function settle() {
    return t.engineRounds('lever-engine');
  }

  const units = (text: string) => {
    const parsed = parseAmount('USDT', text);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.units;
  };

  it('lever/deal lists the instruments with their terms and the contract balance', async () => {
    const u = await trader('1000');
    const deal = await ok('lever/deal', { account: 'real' }, u.token);
    const btc = deal.instruments.find((i) => i.symbol === 'BTC');
    expect(btc).toMatchObject({ contract_size: '0.001', mmr: '0.005', fee_rate: '0.0005', tick_size: '0.01' });
    expect(btc?.leverages).toEqual([1, 2, 5, 10, 20, 50, 100]);
    expect(deal.available).toBe('1000.000000');
    expect(deal.instruments.some((i) => i.symbol === 'USDT')).toBe(false);
  });

  it('a market long opens at the first tick after acceptance and closes at its take-profit tick, exactly', async () => {
    const u = await trader('1000');
    const placed = await ok('lever/submit', order({}), u.token);
    expect(placed).toMatchObject({ status: 0, phase: 'waiting', lots: 10, quantity: '0.01' });
    // The reserve covers margin and fee at the last price plus 2%.
    expect((await contract(u.id)).available).toBeLessThan(units('1000'));
    const entry = trade('BTC', '60000.00');
    const open = await phase(u.token, placed.id, 'holding');
    expect(open).toMatchObject({
      status: 1,
      entry_price: '60000.00',
      initial_margin: '60.000000',
      commission: '0.300000',
      open_fee: '0.300000',
      close_fee: null,
      amount: '600',
      // (600 − 60) / (0.01 × 0.995) = 54,271.356… rounded down to the cent
      Liquidation_Price: '54271.35',
    });
    expect(open.entry).toMatchObject({ seq: entry.seq, ts: entry.ts, price: '60000.00' });
    expect((await contract(u.id)).available).toBe(units('1000') - units('60') - units('0.3'));

    await refused('lever/setstop', { id: String(open.id), take_profit: '59000.00' }, u.token, 'leverTakeProfitSide');
    await refused(
      'lever/setstop',
      { id: String(open.id), stop_loss: '54000.00' },
      u.token,
      'leverStopLossBeyondLiquidation',
    );
    await refused('lever/setstop', { id: String(open.id), stop_loss: '61000.00' }, u.token, 'leverStopLossSide');
    const stops = await ok(
      'lever/setstop',
      { id: String(open.id), take_profit: '61000.00', stop_loss: '59000.00' },
      u.token,
    );
    expect(stops).toMatchObject({ profit_take_price: '61000.00', stop_loss_price: '59000.00' });

    trade('BTC', '60999.99');
    await settle();
    expect((await ok('lever/info', { id: String(open.id) }, u.token)).phase).toBe('holding');
    const hit = trade('BTC', '61000.00');
    const closed = await phase(u.token, open.id, 'closed');
    expect(closed).toMatchObject({
      status: 3,
      close_reason: 'take_profit',
      close_offset_price: '61000.00',
      realized_pnl: '10.000000',
      // open 0.3 + close 0.01 × 61,000 × 0.0005 = 0.305
      commission: '0.605000',
      open_fee: '0.300000',
      close_fee: '0.305000',
      total_profit_or_loss: '9.395000',
    });
    expect(closed.exit).toMatchObject({ seq: hit.seq, ts: hit.ts });
    expect(await contract(u.id)).toEqual({ balance: units('1009.395'), available: units('1009.395') });
  });

  it('added margin moves the liquidation price; liquidation fires at the first tick at or past it', async () => {
    const u = await trader('1000');
    const placed = await ok('lever/submit', order({}), u.token);
    trade('BTC', '60000.00');
    const open = await phase(u.token, placed.id, 'holding');
    expect(open.Liquidation_Price).toBe('54271.35');
    const more = await ok('lever/add_margin', { id: String(open.id), amount: '10', request_id: rid() }, u.token);
    // ΔM / (Q × (1 − MMR)) = 10 / 0.00995 = 1,005.02…: (600 − 70) / 0.00995 = 53,266.331… → 53,266.33
    expect(more).toMatchObject({ additional_margin: '10.000000', Liquidation_Price: '53266.33' });
    await refused(
      'lever/add_margin',
      { id: String(open.id), amount: '0', request_id: rid() },
      u.token,
      'leverMarginInvalid',
    );

    trade('BTC', '53266.34');
    await settle();
    expect((await ok('lever/info', { id: String(open.id) }, u.token)).phase).toBe('holding');
    const hit = trade('BTC', '53266.33');
    const liquidated = await phase(u.token, open.id, 'closed');
    // Loss 0.01 × 6,733.67 = 67.3367; fee 0.01 × 53,266.33 × 0.0005 = 0.26633165 → 0.266332; left 2.396968 → fund.
    expect(liquidated).toMatchObject({
      close_reason: 'liquidation',
      Liquidation_Time: expect.any(Number),
      realized_pnl: '-67.336700',
      open_fee: '0.300000',
      close_fee: '0.266332',
      insurance: '2.396968',
      // The net is what the user lost: the whole margin and the open fee, not P&L and fees alone (−67.903032).
      total_profit_or_loss: '-70.300000',
    });
    expect(liquidated.exit?.seq).toBe(hit.seq);
    // The whole margin (60 + 10) and the open fee are gone; nothing else.
    expect((await contract(u.id)).balance).toBe(units('1000') - units('70') - units('0.3'));
    trade('BTC', '60000.00');
  });

  it('ticks past the liquidation price that arrive while the open is being written liquidate at the first', async () => {
    const u = await trader('1000');
    const placed = await ok('lever/submit', order({}), u.token);
    // The entry tick and two ticks past the LP (54,271.35) at once: the engine writes the open while both are queued.
    trade('BTC', '60000.00');
    const first = trade('BTC', '54000.00');
    trade('BTC', '53000.00');
    const closed = await phase(u.token, placed.id, 'closed');
    expect(closed).toMatchObject({ close_reason: 'liquidation', close_offset_price: '54000.00' });
    expect(closed.exit?.seq).toBe(first.seq);
    trade('BTC', '60000.00');
  });

  it('a gap past the liquidation price is borne by the insurance fund, never by the user’s other money', async () => {
    const u = await trader('1000');
    const placed = await ok('lever/submit', order({ side: 'short', leverage: '100' }), u.token);
    trade('BTC', '60000.00');
    const open = await phase(u.token, placed.id, 'holding');
    // (600 + 6) / (0.01 × 1.005) = 60,298.507… rounded up
    expect(open.Liquidation_Price).toBe('60298.51');
    trade('BTC', '61000.00');
    const closed = await phase(u.token, open.id, 'closed');
    expect(closed).toMatchObject({
      close_reason: 'liquidation',
      realized_pnl: '-10.000000',
      close_fee: '0.000000',
      insurance: '-4.000000',
      // The fund bore the 4 beyond the margin: the user lost the 6 of margin and the open fee.
      total_profit_or_loss: '-6.300000',
    });
    expect((await contract(u.id)).balance).toBe(units('1000') - units('6') - units('0.3'));
    trade('BTC', '60000.00');
  });

  it('a close requested by the user closes at the first tick after the request', async () => {
    const u = await trader('1000');
    const placed = await ok('lever/submit', order({ side: 'short', lots: '1' }), u.token);
    trade('BTC', '60000.00');
    await phase(u.token, placed.id, 'holding');
    const closing = await ok('lever/close', { id: String(placed.id), request_id: rid() }, u.token);
    expect(closing).toMatchObject({ status: 2, phase: 'closing' });
    const hit = trade('BTC', '59990.00');
    const closed = await phase(u.token, placed.id, 'closed');
    expect(closed).toMatchObject({ close_reason: 'user', realized_pnl: '0.010000' });
    expect(closed.exit?.seq).toBe(hit.seq);
    await refused('lever/close', { id: `${placed.id}0`, request_id: rid() }, u.token, 'orderNotFound');
  });

  it('a limit opens at the first tick that crosses it; a pending order can be cancelled and its reserve released', async () => {
    const u = await trader('1000');
    const limit = await ok('lever/submit', order({ type: 'limit', price: '59000.00' }), u.token);
    trade('BTC', '60000.00');
    await phase(u.token, limit.id, 'pending');
    trade('BTC', '59000.01');
    await settle();
    expect((await ok('lever/info', { id: String(limit.id) }, u.token)).phase).toBe('pending');
    const hit = trade('BTC', '58990.00');
    const open = await phase(u.token, limit.id, 'holding');
    expect(open).toMatchObject({ entry_price: '58990.00', limit_price: '59000.00' });
    expect(open.entry?.seq).toBe(hit.seq);

    const before = await contract(u.id);
    const other = await ok('lever/submit', order({ type: 'limit', price: '50000.00' }), u.token);
    trade('BTC', '60000.00');
    await phase(u.token, other.id, 'pending');
    const cancelled = await ok('lever/cancel', { id: String(other.id) }, u.token);
    expect(cancelled).toMatchObject({ status: 4, cancel_reason: 'user' });
    expect(await contract(u.id)).toEqual(before);
    await refused('lever/cancel', { id: String(open.id) }, u.token, 'leverNotOpen');
  });

  it('cross positions share the wallet: the account is liquidated when equity falls to the maintenance margin', async () => {
    const u = await trader(undefined, false);
    // The simulator needs no verification and grants 10,000 practice USDT in the contract account.
    const deal = await ok('lever/deal', { account: 'simulator' }, u.token);
    expect(deal.available).toBe('10000.000000');
    const a = await ok(
      'lever/submit',
      order({ margin_mode: 'cross', lots: '500', leverage: '100', account: 'simulator' }),
      u.token,
    );
    const b = await ok(
      'lever/submit',
      order({ symbol: 'ETH', margin_mode: 'cross', lots: '100', leverage: '100', account: 'simulator' }),
      u.token,
    );
    trade('BTC', '60000.00');
    trade('ETH', '3000.00');
    await phase(u.token, a.id, 'holding');
    await phase(u.token, b.id, 'holding');
    const listed = await ok('lever/my_trade', { list: 'positions', account: 'simulator' }, u.token);
    expect(listed.positions.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    // BTC's LP with ETH at its mark: (30,000 − (9,983.5 − 15)) / (0.5 × 0.995) = 40,264.321…; ETH alone cannot take
    // the account down (its LP would be below 0: "--").
    const byId = new Map(listed.positions.map((p) => [p.id, p]));
    expect(byId.get(a.id)?.Liquidation_Price).toBe('40264.32');
    expect(byId.get(b.id)?.Liquidation_Price).toBeNull();
    // The real book is untouched.
    expect((await contract(u.id, 'real')).balance).toBe(0);
    // 0.5 BTC + 1 ETH long on a 10,000 wallet (fees 15 + 1.5): BTC at its LP takes the whole account down.
    trade('BTC', '40264.33');
    await settle();
    expect((await ok('lever/info', { id: String(a.id) }, u.token)).phase).toBe('holding');
    const hit = trade('BTC', '40264.32');
    const closedA = await phase(u.token, a.id, 'closed');
    const closedB = await phase(u.token, b.id, 'closed');
    expect(closedA.close_reason).toBe('liquidation');
    expect(closedB.close_reason).toBe('liquidation');
    expect(closedA.exit?.seq).toBe(hit.seq);
    // ETH closes at its own latest tick.
    expect(closedB.exit?.price).toBe('3000.00');
    expect((await contract(u.id, 'simulator')).balance).toBeGreaterThanOrEqual(0);
    trade('BTC', '60000.00');
  });

  it('bad input is refused in the user’s language and changes nothing; another user’s position does not exist', async () => {
    const u = await trader('100');
    const before = await contract(u.id);
    await refused('lever/submit', order({ lots: '' }), u.token, 'leverLotsRequired');
    await refused('lever/submit', order({ lots: '1.5' }), u.token, 'leverLotsInvalid');
    await refused('lever/submit', order({ lots: '0' }), u.token, 'leverLotsInvalid');
    await refused('lever/submit', order({ leverage: '3' }), u.token, 'leverLeverageUnavailable');
    await refused('lever/submit', order({ type: 'limit' }), u.token, 'leverPriceRequired');
    await refused('lever/submit', order({ lots: '1000' }), u.token, 'insufficientBalance');
    await refused('lever/submit', order({ symbol: 'USDT' }), u.token, 'leverSymbolUnsupported');
    await refused('lever/submit', order({ take_profit: '50000.00' }), u.token, 'leverTakeProfitSide');
    expect(await contract(u.id)).toEqual(before);
    const unverified = await trader('100', false);
    await refused('lever/submit', order({}), unverified.token, 'verificationRequired');

    const mine = await ok('lever/submit', order({ lots: '1' }), u.token);
    const other = await trader('100');
    await refused('lever/info', { id: String(mine.id) }, other.token, 'orderNotFound');
    await refused('lever/close', { id: String(mine.id), request_id: rid() }, other.token, 'orderNotFound');
    await refused('lever/cancel', { id: String(mine.id) }, other.token, 'orderNotFound');
    trade('BTC', '60000.00');
    await phase(u.token, mine.id, 'holding');
  });

  it('the ledger and the price record check clean', async () => {
    await settle();
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
    const chain = await verifyPriceChain(t.db);
    expect(chain.difference).toBeNull();
  });
});
