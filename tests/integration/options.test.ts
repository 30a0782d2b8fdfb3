import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { okEnvelope } from '../../protocol';
import type { OptionContract } from '../../protocol/options';
import { optionPayout, optionResult } from '../../protocol/rules/options';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { approveVerification } from '../../server/domains/identity';
import { parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { withPriceRecord } from '../../server/market';
import { MarketFeed } from '../../server/market/feed';
import { instrumentBySymbol } from '../../server/market/instruments';
import { verifyPriceChain } from '../../server/market/price-chain';
import { MarketSimulator } from '../../server/market/simulator';
import { runOps } from '../../server/ops/cli';
import { translate } from '../../server/platform/i18n/messages';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

/**
 * Binary options over HTTP against the real engine on every database (RULES "Options"): a contract takes the first
 * tick after acceptance, settles from the price record at expiry with the published rule, pays through the ledger,
 * the simulator book is separate practice money, bad input changes nothing and another user's contract does not
 * exist. The market is a simulator the test steps by hand; the recorder writes the record as in production.
 */
describe.each(DATABASES)('options on %s', (kind) => {
  let t: TestApp;
  let ledger: Ledger;
  const T0 = Date.now();
  const sim = new MarketSimulator({ seed: 'options', now: () => T0, backfillDays: 0, alwaysOpen: true, stepMs: 1_000 });
  const feed = new MarketFeed(sim, () => T0);
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { market: { feed, record: { flushMs: 50 } } },
  );
  beforeAll(() => {
    sim.advanceTo(T0);
    ledger = new Ledger(t.handle);
  });
  afterAll(() => feed.close());

  /** Moves the app's clock and the market together by one step. */
  function tick() {
    t.clock.advance(1_000);
    sim.advanceTo(t.clock.now());
  }

  let seeds = 0;
  async function fundOption(userId: number, amount: string) {
    const parsed = parseAmount('USDT', amount);
    if (!parsed.ok) throw new Error(parsed.error);
    await ledger.credit({
      userId,
      requestId: `seed-${++seeds}`,
      kind: 'deposit',
      currency: 'USDT',
      amount: parsed.units,
      from: 'deposits_clearing',
      to: 'option',
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
    return body;
  }

  async function optionAccount(userId: number, book: 'real' | 'simulator' = 'real') {
    const row = (await ledger.balances(userId, book)).find((b) => b.type === 'option' && b.currency === 'USDT');
    return { balance: row?.balance ?? 0, available: row?.available ?? 0 };
  }

  async function verified(token: string) {
    const submitted = await ok(
      'user/real_name',
      { country: 'DE', name: 'Test Trader', id_number: 'T0000001', address: 'Street 1', consent: '1' },
      token,
    );
    const review = await approveVerification(t.db, submitted.id, { operator: 'test' });
    if (!review.ok) throw new Error(review.problem);
  }

  async function newTrader(usdt?: string, verify = true) {
    const session = await t.registerByEmail(uniqueEmail('opt'));
    if (usdt) await fundOption(session.user.id, usdt);
    if (verify) await verified(session.token);
    return { token: session.token, id: session.user.id };
  }

  let requests = 0;
  const rid = () => `o${++requests}-${kind}`;
  const buy = (fields: Record<string, string>) => ({
    symbol: 'BTC',
    direction: 'up',
    seconds: '30',
    stake: '10',
    account: 'real',
    request_id: rid(),
    ...fields,
  });

  /** Steps the market until the contract is in one of `states` (the engine acts on the jobs runner's timer). */
  async function until(token: string, id: number, states: OptionContract['state'][]): Promise<OptionContract> {
    let contract: OptionContract | undefined;
    await vi.waitFor(
      async () => {
        tick();
        contract = await ok('microtrade/info', { id: String(id) }, token);
        expect(states).toContain(contract.state);
      },
      { timeout: 20_000, interval: 50 },
    );
    if (!contract) throw new Error('unreachable');
    return contract;
  }

  /** The settlement recomputed independently: every recorded tick after the entry up to E, through the rule. */
  async function recompute(contract: OptionContract) {
    const instrument = instrumentBySymbol(contract.symbol);
    if (!instrument || !contract.entry || contract.expiry_ts === null) throw new Error('not settled');
    const ticks = await withPriceRecord(t.db)
      .selectFrom('price_ticks')
      .select(['seq', 'ts', 'price'])
      .where('symbol', '=', contract.symbol)
      .where('ts', '>', contract.entry.ts)
      .where('ts', '<=', contract.expiry_ts)
      .execute();
    const units = (p: string) => toUnits(p, instrument.priceScale) ?? 0n;
    const settlement = optionResult({
      direction: contract.direction,
      entry: { seq: contract.entry.seq, ts: contract.entry.ts, price: units(contract.entry.price) },
      seconds: contract.seconds,
      ticks: ticks.map((x) => ({ seq: x.seq, ts: x.ts, price: units(x.price) })),
    });
    const stake = toUnits(contract.stake, 6) ?? 0n;
    return {
      result: settlement.result,
      exitSeq: settlement.exit?.seq ?? null,
      payout: fromUnits(optionPayout(stake, contract.ratio, settlement.result, 6), 6),
    };
  }

  it('publishes the periods with their ratios and the minimum stake', async () => {
    const terms = await ok('microtrade/seconds', {});
    expect(terms.currencies[0]).toMatchObject({ currency: 'USDT', scale: 6 });
    expect(terms.currencies[0]?.periods.map((p) => [p.seconds, p.ratio, p.min_stake])).toEqual([
      [30, '0.80', '10'],
      [60, '0.82', '10'],
      [120, '0.85', '10'],
      [300, '0.88', '10'],
    ]);
    expect(terms.symbols).toContain('BTC');
    expect(terms.symbols).not.toContain('USDT');
    expect(await ok('microtrade/payable_currencies', {})).toEqual({ currencies: ['USDT'] });
  });

  it('a contract enters at the first tick after acceptance and settles from the record by the rule', async () => {
    const u = await newTrader('100');
    const bought = await ok('microtrade/submit', buy({ direction: 'down' }), u.token);
    expect(bought).toMatchObject({ state: 'waiting', stake: '10.000000', ratio: '0.80', account: 'real' });
    expect(await optionAccount(u.id)).toEqual({ balance: 100_000_000, available: 90_000_000 });
    const running = await until(u.token, bought.id, ['running']);
    expect(running.entry?.ts).toBeGreaterThan(bought.created_at);
    expect(running.expiry_ts).toBe((running.entry?.ts ?? 0) + 30_000);
    const settled = await until(u.token, bought.id, ['won', 'lost', 'flat', 'refunded']);
    const expected = await recompute(settled);
    expect({ result: settled.state, exitSeq: settled.exit?.seq ?? null, payout: settled.payout }).toEqual(expected);
    expect(settled.exit?.ts).toBeLessThanOrEqual(settled.expiry_ts ?? 0);
    const account = await optionAccount(u.id);
    expect(account.available).toBe(account.balance);
    expect(account.balance).toBe(90_000_000 + Number(toUnits(settled.payout ?? '0', 6)));
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('many contracts settle, each exactly as the rule says from its recorded ticks', async () => {
    const u = await newTrader('1000');
    const bought: OptionContract[] = [];
    for (const direction of ['up', 'down', 'up', 'down', 'up', 'down']) {
      bought.push(await ok('microtrade/submit', buy({ direction, seconds: '30' }), u.token));
      tick();
    }
    for (const b of bought) {
      const settled = await until(u.token, b.id, ['won', 'lost', 'flat', 'refunded']);
      const expected = await recompute(settled);
      expect({ result: settled.state, exitSeq: settled.exit?.seq ?? null, payout: settled.payout }).toEqual(expected);
    }
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
    const chain = await verifyPriceChain(t.db);
    expect(chain.difference).toBeNull();
    expect(chain.batches).toBeGreaterThan(0);
  });

  it('refuses bad contracts with SPEC 5 and 8 messages, in order, and changes nothing', async () => {
    const u = await newTrader('20');
    await refused('microtrade/submit', buy({ seconds: '' }), u.token, 'optionPeriodRequired');
    await refused('microtrade/submit', buy({ seconds: '45' }), u.token, 'optionPeriodUnavailable');
    await refused('microtrade/submit', buy({ stake: '' }), u.token, 'optionStakeRequired');
    const low = await refused('microtrade/submit', buy({ stake: '9.99' }), u.token, 'optionStakeBelowMin');
    expect(low.data).toEqual({ min: '10', currency: 'USDT' });
    await refused('microtrade/submit', buy({ stake: '25' }), u.token, 'insufficientBalance');
    await refused('microtrade/submit', buy({ symbol: 'USDT' }), u.token, 'optionSymbolUnsupported');
    const unverified = await newTrader('100', false);
    await refused('microtrade/submit', buy({}), unverified.token, 'verificationRequired');
    expect((await ok('microtrade/lists', { list: 'open' }, u.token)).contracts).toEqual([]);
    expect(await optionAccount(u.id)).toEqual({ balance: 20_000_000, available: 20_000_000 });
    expect(await optionAccount(unverified.id)).toEqual({ balance: 100_000_000, available: 100_000_000 });
  });

  it('the simulator: 10,000 practice USDT on first use, no verification, reset, never the real book', async () => {
    const u = await newTrader(undefined, false);
    expect(await ok('microtrade/simulator', {}, u.token)).toEqual({ currency: 'USDT', balance: '10000.000000' });
    const bought = await ok('microtrade/submit', buy({ account: 'simulator', stake: '100' }), u.token);
    expect(bought.account).toBe('simulator');
    expect(await ok('microtrade/simulator', {}, u.token)).toEqual({ currency: 'USDT', balance: '9900.000000' });
    expect(await optionAccount(u.id, 'real')).toEqual({ balance: 0, available: 0 });
    await until(u.token, bought.id, ['won', 'lost', 'flat', 'refunded']);
    expect(await ok('microtrade/simulator/reset', {}, u.token)).toEqual({ currency: 'USDT', balance: '10000.000000' });
    expect(await optionAccount(u.id, 'real')).toEqual({ balance: 0, available: 0 });
    const practice = await ok('microtrade/lists', { list: 'settled', account: 'simulator' }, u.token);
    expect(practice.contracts.map((c) => c.id)).toEqual([bought.id]);
    expect((await ok('microtrade/lists', { list: 'settled', account: 'real' }, u.token)).contracts).toEqual([]);
  });

  it('another user’s contract does not exist for you; the same request id buys once', async () => {
    const a = await newTrader('100');
    const b = await newTrader('100');
    const fields = buy({});
    const [first, second] = await Promise.all([
      ok('microtrade/submit', fields, a.token),
      ok('microtrade/submit', fields, a.token),
    ]);
    expect(second.id).toBe(first.id);
    expect(await optionAccount(a.id)).toEqual({ balance: 100_000_000, available: 90_000_000 });
    await refused('microtrade/info', { id: String(first.id) }, b.token, 'orderNotFound');
    expect((await ok('microtrade/lists', { list: 'open' }, b.token)).contracts).toEqual([]);
  });

  it('answers a retry with the contract it bought even after the terms changed in between', async () => {
    const u = await newTrader('100');
    const fields = buy({ stake: '10' });
    const first = await ok('microtrade/submit', fields, u.token);
    const out = () => undefined;
    // The minimum stake rises above the stake between the purchase and the retry of its lost answer.
    expect(await runOps(['options', 'min-stake', '20'], t.db, out)).toBe(0);
    try {
      const again = await ok('microtrade/submit', fields, u.token);
      expect(again.id).toBe(first.id);
      await refused('microtrade/submit', buy({ stake: '10' }), u.token, 'optionStakeBelowMin');
    } finally {
      expect(await runOps(['options', 'min-stake', '10'], t.db, out)).toBe(0);
    }
    expect(await optionAccount(u.id)).toEqual({ balance: 100_000_000, available: 90_000_000 });
  });

  it('100 contracts at once on one balance: exactly as many as it allows', async () => {
    const u = await newTrader('500');
    const results = await Promise.all(
      Array.from({ length: 100 }, () => t.call('microtrade/submit', buy({}), { token: u.token })),
    );
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(50);
    for (const r of results.filter((x) => x.body.type !== 'ok')) {
      expect(r.body.message).toBe(translate('en', 'insufficientBalance'));
    }
    expect(await optionAccount(u.id)).toEqual({ balance: 500_000_000, available: 0 });
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('operators change the terms for future contracts only, audited; a bought contract keeps its ratio', async () => {
    const u = await newTrader('100');
    const before = await ok('microtrade/submit', buy({ seconds: '60' }), u.token);
    expect(before.ratio).toBe('0.82');
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    const audited = () =>
      t.db.selectFrom('ops_audit').select(['action', 'detail']).where('action', '=', 'option_terms.set').execute();
    // Other tests of this file change terms too: count this one's changes.
    const earlier = (await audited()).length;
    expect(await runOps(['options', 'period', '60', '0.83'], t.db, out)).toBe(0);
    expect(await runOps(['options', 'period', '60', '1.5'], t.db, out)).toBe(1);
    expect(await runOps(['options', 'min-stake', 'zero'], t.db, out)).toBe(1);
    const terms = await ok('microtrade/seconds', {});
    expect(terms.currencies[0]?.periods.find((p) => p.seconds === 60)?.ratio).toBe('0.83');
    const after = await ok('microtrade/submit', buy({ seconds: '60' }), u.token);
    expect(after.ratio).toBe('0.83');
    expect((await ok('microtrade/info', { id: String(before.id) }, u.token)).ratio).toBe('0.82');
    expect(await audited()).toHaveLength(earlier + 1);
    expect(await runOps(['options', 'period', '60', '0.82'], t.db, out)).toBe(0);
  });

  it('no tick within 10 s: the contract is cancelled and its stake released', async () => {
    const u = await newTrader('100');
    const bought = await ok('microtrade/submit', buy({}), u.token);
    t.clock.advance(11_000);
    let contract: OptionContract | undefined;
    await vi.waitFor(
      async () => {
        contract = await ok('microtrade/info', { id: String(bought.id) }, u.token);
        expect(contract.state).toBe('cancelled');
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(contract?.payout).toBe('10.000000');
    expect(await optionAccount(u.id)).toEqual({ balance: 100_000_000, available: 100_000_000 });
  });
});
