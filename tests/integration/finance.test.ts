import { beforeAll, describe, expect, it } from 'vitest';
import type { FinanceOrder } from '../../protocol/finance';
import { DAY_MS, interestDueAt, interestStartDay } from '../../protocol/rules/finance';
import { accrueFinance, runFinanceCommand, withFinance } from '../../server/domains/finance';
import { withLedger } from '../../server/ledger';
import { parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { translate } from '../../server/platform/i18n/messages';
import { apiChecks } from './api-checks';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

/**
 * Finance products over HTTP on every database (RULES "Finance"): buying holds the principal and moves the whole
 * promised yield out of the reserve, the accrual pays each day exactly once (repeated, caught up or run twice at
 * once), early redemption charges the SPEC 9 penalty, and nothing is sold that the reserve does not cover.
 */
describe.each(DATABASES)('finance on %s', (kind) => {
  let t: TestApp;
  let ledger: Ledger;
  // The app's own accrual job stays out of the way: the tests run the accrual at the times they choose.
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { financeAccrualMs: 3_600_000 },
  );
  beforeAll(() => {
    ledger = new Ledger(t.handle);
  });

  const services = () => ({ database: t.handle, ledger, now: t.clock.now });
  const accrue = (at: number) => accrueFinance(services(), { at });

  async function ops(...words: string[]) {
    const lines: string[] = [];
    const code = await runFinanceCommand(words, t.db, (line) => lines.push(line));
    return { code, lines };
  }

  async function addProduct(family: string, cycle: number, rate: string, min = '100', max = '100000') {
    const { code, lines } = await ops('add', family, 'USDT', String(cycle), rate, min, max, `Test ${family} ${cycle}d`);
    expect(code, lines.join('\n')).toBe(0);
    const row = await withFinance(t.db)
      .selectFrom('finance_products')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  let seeds = 0;
  async function user(trust?: string) {
    const session = await t.registerByEmail(uniqueEmail('fin'));
    if (trust === undefined) return { token: session.token, id: session.user.id };
    const parsed = parseAmount('USDT', trust);
    if (!parsed.ok) throw new Error(parsed.error);
    await ledger.credit({
      userId: session.user.id,
      requestId: `seed-${++seeds}`,
      kind: 'deposit',
      currency: 'USDT',
      amount: parsed.units,
      from: 'deposits_clearing',
      to: 'trust',
    });
    return { token: session.token, id: session.user.id };
  }

  const { ok, refused } = apiChecks(() => t);

  async function trust(userId: number) {
    const row = (await ledger.balances(userId, 'real')).find((b) => b.type === 'trust' && b.currency === 'USDT');
    return { balance: row?.balance ?? 0, available: row?.available ?? 0, held: row?.held ?? 0 };
  }

  async function platform(type: 'finance_reserve' | 'finance_yield' | 'penalties') {
    const row = await withLedger(t.db)
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('user_id', 'is', null)
      .where('type', '=', type)
      .where('currency', '=', 'USDT')
      .where('book', '=', 'real')
      .executeTakeFirst();
    return row?.balance ?? 0;
  }

  async function interestEntries(userId: number) {
    const rows = await withLedger(t.db)
      .selectFrom('ledger_entries')
      .select('request_id')
      .where('user_id', '=', userId)
      .where('kind', '=', 'interest')
      .execute();
    return rows.map((r) => r.request_id).sort();
  }

  let requests = 0;
  const rid = () => `f${++requests}-${kind}`;
  const buy = (product: number, amount: string, token: string, path: 'lh/deposit' | 'lh/send/order' = 'lh/deposit') =>
    ok(path, { product_id: String(product), amount, agree: '1', request_id: rid() }, token);

  async function expectConsistent() {
    const report = await checkLedger(t.db);
    expect(describeProblems(report)).toEqual([]);
    const reserve = await ops('reserve');
    expect(reserve.code, reserve.lines.join('\n')).toBe(0);
  }

  it('sells nothing before the reserve is funded: the product shows sold out and a buy is refused', async () => {
    const product = await addProduct('trust', 15, '0.004');
    const config = await ok('lh/deposit/config', {});
    const listed = config.products.find((p) => p.id === product);
    expect(listed).toMatchObject({ sold_out: true, capacity: '0.000000', apr: '1.46', cycle_days: 15 });
    expect(config.default_penalty).toEqual({ kind: 'ratio', value: '0.004' });
    const u = await user('1000');
    await refused(
      'lh/deposit',
      { product_id: String(product), amount: '500', agree: '1', request_id: rid() },
      u.token,
      'financeSoldOut',
    );
    expect(await trust(u.id)).toEqual({ balance: 1_000_000_000, available: 1_000_000_000, held: 0 });
  });

  it('pays a 15-day order 15 times exactly, once per day however often the job runs, then returns the principal', async () => {
    expect((await ops('fund', 'USDT', '100000')).code).toBe(0);
    const product = await addProduct('trust', 15, '0.004');
    const u = await user('10000');
    const reserveBefore = await platform('finance_reserve');
    const order = await buy(product, '10000', u.token);
    expect(order).toMatchObject({
      state: 'hosting',
      amount: '10000.000000',
      daily_interest: '40.000000',
      expected_income: '600.000000',
      days_left: 15,
      days_paid: 0,
    });
    const start = interestStartDay(t.clock.now());
    expect(order.interest_start).toBe(start * DAY_MS);
    expect(order.completion_time).toBe(interestDueAt(start, 15));
    expect(await trust(u.id)).toMatchObject({ balance: 10_000_000_000, available: 0, held: 10_000_000_000 });
    // The whole promise left the free reserve when it was sold.
    expect(reserveBefore - (await platform('finance_reserve'))).toBe(600_000_000);

    // Nothing is due before the first day has ended, even at 23:59 of it.
    await accrue(interestDueAt(start, 1) - 60_000);
    expect(await interestEntries(u.id)).toEqual([]);
    for (let day = 1; day <= 15; day++) {
      const due = interestDueAt(start, day);
      await accrue(due);
      await accrue(due + 3_600_000);
      const paid = await interestEntries(u.id);
      expect(paid).toHaveLength(day);
    }
    await accrue(interestDueAt(start, 40));
    expect(await interestEntries(u.id)).toHaveLength(15);
    const [done] = (await ok('lh/deposit/order', { state: 'completed' }, u.token)).orders;
    expect(done).toMatchObject({ id: order.id, state: 'completed', days_paid: 15, current_income: '600.000000' });
    expect(await trust(u.id)).toEqual({ balance: 10_600_000_000, available: 10_600_000_000, held: 0 });
    await expectConsistent();
  });

  it('catches up the days a stopped server missed, exactly', async () => {
    const product = await addProduct('hosting', 10, '0.001');
    const u = await user('5000');
    const order = await buy(product, '5000', u.token, 'lh/send/order');
    const start = interestStartDay(t.clock.now());
    await accrue(interestDueAt(start, 1));
    expect(await interestEntries(u.id)).toHaveLength(1);
    // Down for three days: the next round pays days 2, 3 and 4 at once, each as its own entry.
    await accrue(interestDueAt(start, 4) + 5_000);
    expect(await interestEntries(u.id)).toEqual([1, 2, 3, 4].map((d) => `finance-interest:${order.id}:${d}`).sort());
    const [running] = (await ok('lh/send/order_list', { state: 'hosting' }, u.token)).orders;
    expect(running).toMatchObject({ days_paid: 4, current_income: '20.000000' });
    expect(running?.next_interest_at).toBe(interestDueAt(start, 5));
  });

  it('never pays a day twice when two processes accrue at once', async () => {
    const product = await addProduct('trust', 5, '0.002');
    const users = await Promise.all([user('1000'), user('1000'), user('1000')]);
    for (const u of users) await buy(product, '1000', u.token);
    const start = interestStartDay(t.clock.now());
    const at = interestDueAt(start, 3);
    const other = new Ledger(t.handle);
    await Promise.all([
      accrueFinance(services(), { at }),
      accrueFinance({ database: t.handle, ledger: other, now: t.clock.now }, { at }),
      accrueFinance(services(), { at }),
    ]);
    for (const u of users) {
      expect(await interestEntries(u.id)).toHaveLength(3);
      expect((await trust(u.id)).balance).toBe(1_006_000_000);
    }
    await expectConsistent();
  });

  it('redeems early with the SPEC 9 penalty (10,000 with 15 days left → 600), shown before and charged once', async () => {
    const product = await addProduct('trust', 30, '0.004', '100', '20000');
    const u = await user('10000');
    const order = await buy(product, '10000', u.token);
    const start = interestStartDay(t.clock.now());
    expect(order.penalty).toBe('1200.000000');
    // 15 of 30 days are due (the job has not run yet): the redemption pays them first.
    t.clock.advance(interestDueAt(start, 15) + 1_000 - t.clock.now());
    const [shown] = (await ok('lh/deposit/order', { state: 'hosting' }, u.token)).orders;
    expect(shown).toMatchObject({ id: order.id, days_left: 15, penalty: '600.000000' });
    const penaltiesBefore = await platform('penalties');
    const reserveBefore = await platform('finance_reserve');
    const redeemed = await ok('lh/deposit/order/cancel', { id: String(order.id) }, u.token);
    expect(redeemed).toMatchObject({ state: 'redeemed', penalty: '600.000000', days_paid: 15 });
    expect(redeemed.current_income).toBe('600.000000');
    // 10,000 − 600 penalty + 15 × 40 interest.
    expect(await trust(u.id)).toEqual({ balance: 10_000_000_000, available: 10_000_000_000, held: 0 });
    expect((await platform('penalties')) - penaltiesBefore).toBe(600_000_000);
    // The yield promised for the 15 days left went back to the free reserve.
    expect((await platform('finance_reserve')) - reserveBefore).toBe(600_000_000);
    // A retry (its answer lost) gets the same redeemed order; nothing is charged twice.
    const again = await ok('lh/deposit/order/cancel', { id: String(order.id) }, u.token);
    expect(again).toMatchObject({ state: 'redeemed', penalty: '600.000000' });
    expect((await platform('penalties')) - penaltiesBefore).toBe(600_000_000);
    await accrue(interestDueAt(start, 30));
    expect(await interestEntries(u.id)).toHaveLength(15);
    await expectConsistent();
  });

  it('refuses to redeem a matured order the job has not completed yet, and the job then completes it', async () => {
    const product = await addProduct('trust', 3, '0.001');
    const u = await user('1000');
    const order = await buy(product, '1000', u.token);
    const start = interestStartDay(t.clock.now());
    t.clock.advance(interestDueAt(start, 3) - t.clock.now());
    await refused('lh/deposit/order/cancel', { id: String(order.id) }, u.token, 'financeOrderNotRunning');
    await accrue(interestDueAt(start, 3));
    const [done] = (await ok('lh/deposit/order', { state: 'completed' }, u.token)).orders;
    expect(done).toMatchObject({ id: order.id, days_paid: 3, current_income: '3.000000' });
  });

  it('keeps paying everyone when one order\u2019s payment is refused, and reports that one', async () => {
    const product = await addProduct('trust', 5, '0.002');
    const [a, b] = await Promise.all([user('1000'), user('1000')]);
    const first = await buy(product, '1000', a.token);
    await buy(product, '1000', b.token);
    const start = interestStartDay(t.clock.now());
    // The ledger already holds a different entry under the id of a's first day (it cannot come from a client: a
    // transfer's id is filed as transfer:<id>); the round must still pay b.
    await ledger.credit({
      userId: a.id,
      requestId: `finance-interest:${first.id}:1`,
      kind: 'adjustment',
      currency: 'USDT',
      amount: 1,
      from: 'deposits_clearing',
      to: 'coin',
    });
    await expect(accrue(interestDueAt(start, 1))).rejects.toThrow(/1 order/);
    expect(await interestEntries(b.id)).toHaveLength(1);
    expect(await interestEntries(a.id)).toHaveLength(0);
  });

  it('refuses bad input in the user\u2019s language and changes nothing', async () => {
    const product = await addProduct('trust', 7, '0.001', '100', '1000');
    const u = await user('2000');
    const base = { product_id: String(product), amount: '500', agree: '1', request_id: rid() };
    await refused('lh/deposit', { ...base, amount: '' }, u.token, 'financeAmountRequired', 'amount');
    await refused('lh/deposit', { ...base, amount: 'abc' }, u.token, 'amountInvalid', 'amount');
    await refused('lh/deposit', { ...base, agree: '' }, u.token, 'financeAgreeRequired', 'agree');
    await refused('lh/deposit', { ...base, amount: '1.0000001' }, u.token, 'amountTooPrecise', 'amount');
    await refused('lh/deposit', { ...base, amount: '99.99' }, u.token, 'financeAmountBelowMin', 'amount');
    await refused('lh/deposit', { ...base, amount: '1000.01' }, u.token, 'financeAmountAboveMax', 'amount');
    await refused('lh/deposit', { ...base, product_id: '999999' }, u.token, 'financeProductNotFound', 'product_id');
    // A trust product is not a hosting product.
    await refused('lh/send/order', base, u.token, 'financeProductNotFound', 'product_id');
    const poor = await user('50');
    await refused('lh/deposit', { ...base, request_id: rid() }, poor.token, 'insufficientBalance', 'amount');
    const { body } = await t.call('lh/deposit', { ...base, amount: ' ' }, { token: u.token, lang: 'de' });
    expect(body.message).toBe(translate('de', 'financeAmountRequired'));
    expect(body.message).not.toBe(translate('en', 'financeAmountRequired'));
    expect(await trust(u.id)).toEqual({ balance: 2_000_000_000, available: 2_000_000_000, held: 0 });
    expect((await ok('lh/deposit/order', { state: 'hosting' }, u.token)).orders).toHaveLength(0);
  });

  it('answers a retry with the same request id with the same order, and another body under it with a refusal', async () => {
    const product = await addProduct('trust', 7, '0.001');
    const u = await user('1000');
    const fields = { product_id: String(product), amount: '300', agree: '1', request_id: rid() };
    const first = await ok('lh/deposit', fields, u.token);
    const again = await ok('lh/deposit', fields, u.token);
    expect(again.id).toBe(first.id);
    await refused('lh/deposit', { ...fields, amount: '301' }, u.token, 'requestIdReused');
    expect(await trust(u.id)).toMatchObject({ held: 300_000_000 });
  });

  it('keeps every order to its owner', async () => {
    const product = await addProduct('trust', 7, '0.001');
    const owner = await user('1000');
    const stranger = await user('1000');
    const order = await buy(product, '200', owner.token);
    await refused('lh/deposit/order/cancel', { id: String(order.id) }, stranger.token, 'financeOrderNotFound');
    const seen = await ok('lh/deposit/order', { state: 'hosting' }, stranger.token);
    expect(seen.orders.map((o: FinanceOrder) => o.id)).not.toContain(order.id);
    expect((await t.call('lh/deposit/order', { state: 'hosting' })).body.type).not.toBe('ok');
    const report = await ok('lh/deposit/report', {}, owner.token);
    expect(report.currencies).toEqual([
      { currency: 'USDT', principal: '200.000000', income_total: '0.000000', income_yesterday: '0.000000', running: 1 },
    ]);
  });

  it('sells concurrent buys only while the reserve covers them', async () => {
    // A currency of its own, so the reserve is known: 80 USDC covers exactly 8 orders of 100 at 1% for 10 days.
    expect((await ops('fund', 'USDC', '80')).code).toBe(0);
    const { code } = await ops('add', 'trust', 'USDC', '10', '0.01', '100', '100', 'Capacity test');
    expect(code).toBe(0);
    const product = (await ok('lh/deposit/config', {})).products.find((p) => p.name === 'Capacity test')?.id ?? 0;
    const buyers = await Promise.all(Array.from({ length: 4 }, () => user()));
    for (const b of buyers) {
      await ledger.credit({
        userId: b.id,
        requestId: `seed-usdc-${b.id}`,
        kind: 'deposit',
        currency: 'USDC',
        amount: 1_000_000_000,
        from: 'deposits_clearing',
        to: 'trust',
      });
    }
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        t.call(
          'lh/deposit',
          { product_id: String(product), amount: '100', agree: '1', request_id: rid() },
          { token: buyers[i % buyers.length]?.token ?? '' },
        ),
      ),
    );
    expect(answers.filter((a) => a.body.type === 'ok')).toHaveLength(8);
    for (const a of answers.filter((x) => x.body.type !== 'ok')) {
      expect(a.body.message).toBe(translate('en', 'financeSoldOut'));
    }
    const reserve = await withLedger(t.db)
      .selectFrom('ledger_accounts')
      .select(['type', 'balance'])
      .where('user_id', 'is', null)
      .where('currency', '=', 'USDC')
      .where('type', 'in', ['finance_reserve', 'finance_yield'])
      .execute();
    expect(Object.fromEntries(reserve.map((r) => [r.type, r.balance]))).toEqual({
      finance_reserve: 0,
      finance_yield: 80_000_000,
    });
    const listed = (await ok('lh/deposit/config', {})).products.find((p) => p.id === product);
    expect(listed).toMatchObject({ sold_out: true, capacity: '0.000000' });
    await expectConsistent();
  });
});
