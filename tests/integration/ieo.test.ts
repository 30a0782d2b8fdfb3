import { beforeAll, describe, expect, it } from 'vitest';
import { runIeoCommand, runIeoSteps, withIeo } from '../../server/domains/ieo';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { translate } from '../../server/platform/i18n/messages';
import { apiChecks } from './api-checks';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

const HOUR = 3_600_000;

/**
 * IEO subscriptions over HTTP on every database (RULES "IEO"): subscribing in the window within the cap, the allotment
 * by the published rule at its time, paying once within the payment window, unpaid allotments lapsing, coins credited
 * locked at listing and unlocked at the unlock time, all through the ledger. Bad input changes nothing; another
 * user's subscription does not exist for them.
 */
describe.each(DATABASES)('ieo on %s', (kind) => {
  let t: TestApp;
  let ledger: Ledger;
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { ieoStepsMs: 3_600_000 },
  );
  beforeAll(() => {
    ledger = new Ledger(t.handle);
  });

  const services = () => ({ database: t.handle, ledger, now: t.clock.now });
  const steps = (at: number) => runIeoSteps(services(), { at });

  let coins = 0;
  async function project(fields: Record<string, string | number> = {}) {
    const now = t.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const coin = `IEO${kind === 'sqlite' ? 'S' : 'P'}${++coins}`;
    const words = {
      coin,
      name: `${coin} Token`,
      price: '0.05',
      listing: '0.08',
      supply: '1000',
      cap: '500',
      total: '100000000',
      circulating: '20000000',
      start: iso(now - 1_000),
      end: iso(now + HOUR),
      allot: iso(now + HOUR),
      pay: iso(now + 2 * HOUR),
      list: iso(now + 3 * HOUR),
      unlock: iso(now + 24 * HOUR),
      desc: 'A test project',
      ...fields,
    };
    const lines: string[] = [];
    const code = await runIeoCommand(
      ['create', ...Object.entries(words).map(([k, v]) => `${k}=${typeof v === 'number' ? iso(v) : v}`)],
      t.db,
      (l) => lines.push(l),
    );
    expect(code, lines.join('\n')).toBe(0);
    const row = await withIeo(t.db)
      .selectFrom('ieo_projects')
      .selectAll()
      .where('coin', '=', coin)
      .executeTakeFirstOrThrow();
    return row;
  }

  let seeds = 0;
  async function user(usdt?: number) {
    const session = await t.registerByEmail(uniqueEmail('ieo'));
    if (usdt) {
      await ledger.credit({
        userId: session.user.id,
        requestId: `seed-${++seeds}`,
        kind: 'deposit',
        currency: 'USDT',
        amount: usdt * 1_000_000,
        from: 'deposits_clearing',
        to: 'coin',
      });
    }
    return { token: session.token, id: session.user.id };
  }

  const { ok, refused } = apiChecks(() => t);

  async function coinAccount(userId: number, currency: string) {
    const row = (await ledger.balances(userId, 'real')).find((b) => b.type === 'coin' && b.currency === currency);
    return { balance: row?.balance ?? 0, held: row?.held ?? 0 };
  }

  let requests = 0;
  const rid = () => `i${++requests}-${kind}`;
  const apply = (projectId: number, quantity: string, token: string) =>
    ok('ieo/apply', { project_id: String(projectId), quantity, request_id: rid() }, token);

  it('runs a project from subscription to unlocked coins: allotment by the rule, one payment, lapse, lock, unlock', async () => {
    const p = await project();
    const [a, b, c] = await Promise.all([user(100), user(100), user(100)]);
    if (!a || !b || !c) throw new Error('users');
    const listed = async () => (await ok('ieo/list', {})).projects.find((x) => x.id === p.id);
    expect(await listed()).toMatchObject({ state: 'subscribing', supply: '1000.00000000', subscribed: '0.00000000' });

    const first = await apply(p.id, '500', a.token);
    expect(first).toMatchObject({
      ipo_status: 1,
      phase: 'subscribed',
      quantity: '500.00000000',
      allotment_quantity: null,
    });
    await apply(p.id, '500', b.token);
    await apply(p.id, '500', c.token);
    expect(await listed()).toMatchObject({ subscribed: '1500.00000000' });

    // The window closes: under review until the allotment runs at its time.
    t.clock.advance(HOUR);
    expect(await listed()).toMatchObject({ state: 'under_review' });
    expect(await steps(p.allot_at - 1)).toEqual({ allotted: 0, lapsed: 0, listed: 0, unlocked: 0 });
    expect(await steps(p.allot_at)).toMatchObject({ allotted: 1 });
    expect(await steps(p.allot_at)).toMatchObject({ allotted: 0 });
    // 1000 × 500 / 1500 = 333.33333333…, the spare unit to the lowest id (RULES, protocol/rules/ieo.ts).
    const mine = async (token: string) => (await ok('ieo/myApply', {}, token)).orders[0];
    expect(await mine(a.token)).toMatchObject({
      ipo_status: 3,
      allotment_quantity: '333.33333334',
      pending_quantity: '166.66666666',
      payment: '16.666667',
    });
    expect(await mine(b.token)).toMatchObject({ allotment_quantity: '333.33333333', payment: '16.666667' });
    expect(await listed()).toMatchObject({ state: 'sold_out' });

    // Paying twice at once pays once.
    const order = (await mine(a.token))?.id ?? 0;
    const both = await Promise.all([
      t.call('ieo/pay', { id: String(order) }, { token: a.token }),
      t.call('ieo/pay', { id: String(order) }, { token: a.token }),
    ]);
    for (const answer of both) expect(answer.body).toMatchObject({ type: 'ok', data: { ipo_status: 4 } });
    expect(await coinAccount(a.id, 'USDT')).toEqual({ balance: 100_000_000, held: 16_666_667 });
    const holds = await ledger.holds(a.id);
    expect(holds.filter((h) => h.kind === 'ieo_payment')).toHaveLength(1);
    // Another user's subscription does not exist for them.
    await refused('ieo/pay', { id: String(order) }, b.token, 'ieoOrderNotFound');
    await refused('ieo/order', { id: String(order) }, b.token, 'ieoOrderNotFound');
    await ok('ieo/pay', { id: String((await mine(b.token))?.id ?? 0) }, b.token);

    // c never pays: the allotment lapses when the window ends, and c can no longer pay.
    await steps(p.pay_until);
    const lapsed = await mine(c.token);
    expect(lapsed).toMatchObject({ phase: 'lapsed', ipo_status: 3 });
    await refused('ieo/pay', { id: String(lapsed?.id ?? 0) }, c.token, 'ieoNotPayable');

    // Listing: payments posted, coins credited and locked.
    expect(await steps(p.list_at)).toMatchObject({ listed: 1 });
    expect(await mine(a.token)).toMatchObject({ ipo_status: 5, phase: 'locked', success_pay: '16.666667' });
    expect(await coinAccount(a.id, 'USDT')).toEqual({ balance: 83_333_333, held: 0 });
    expect(await coinAccount(a.id, p.coin)).toEqual({ balance: 33_333_333_334, held: 33_333_333_334 });
    expect(await coinAccount(c.id, p.coin)).toEqual({ balance: 0, held: 0 });
    expect(await steps(p.list_at)).toMatchObject({ listed: 0 });

    // Unlock: the coins become available.
    expect(await steps(p.unlock_at)).toMatchObject({ unlocked: 1 });
    expect(await mine(b.token)).toMatchObject({ ipo_status: 6, phase: 'unlocked' });
    expect(await coinAccount(b.id, p.coin)).toEqual({ balance: 33_333_333_333, held: 0 });
    const detail = await ok('ieo/detail', { id: String(p.id) }, a.token);
    expect(detail.order?.ipo_status).toBe(6);
    expect(detail.project).toMatchObject({ coin: p.coin, state: 'sold_out' });
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('refuses bad subscriptions in the user\u2019s language and changes nothing', async () => {
    const p = await project();
    const now = t.clock.now();
    const later = await project({
      start: now + HOUR,
      end: now + 2 * HOUR,
      allot: now + 2 * HOUR,
      pay: now + 3 * HOUR,
      list: now + 3 * HOUR,
    });
    const u = await user();
    const base = { project_id: String(p.id), quantity: '10', request_id: rid() };
    await refused('ieo/apply', { ...base, quantity: '' }, u.token, 'ieoQuantityRequired', 'quantity');
    await refused('ieo/apply', { ...base, quantity: 'ten' }, u.token, 'amountInvalid', 'quantity');
    await refused('ieo/apply', { ...base, quantity: '1.000000001' }, u.token, 'amountTooPrecise', 'quantity');
    await refused('ieo/apply', { ...base, quantity: '0' }, u.token, 'amountNotPositive', 'quantity');
    await refused('ieo/apply', { ...base, quantity: '500.00000001' }, u.token, 'ieoAboveCap', 'quantity');
    await refused('ieo/apply', { ...base, project_id: '999999' }, u.token, 'ieoProjectNotFound', 'project_id');
    await refused('ieo/apply', { ...base, project_id: String(later.id) }, u.token, 'ieoNotSubscribing');
    const { body } = await t.call('ieo/apply', { ...base, quantity: '' }, { token: u.token, lang: 'de' });
    expect(body.message).toBe(translate('de', 'ieoQuantityRequired'));
    expect((await ok('ieo/myApply', {}, u.token)).orders).toEqual([]);
    await apply(p.id, '10', u.token);
    await refused('ieo/apply', { ...base, request_id: rid() }, u.token, 'ieoAlreadySubscribed');
    await refused(
      'ieo/pay',
      { id: String((await ok('ieo/myApply', {}, u.token)).orders[0]?.id) },
      u.token,
      'ieoNotPayable',
    );
    expect((await t.call('ieo/myApply', {})).body.type).not.toBe('ok');
  });

  it('closes the payment window at its end: a payment then is refused and the allotment lapses; a late apply is refused', async () => {
    const p = await project();
    const [a, late] = await Promise.all([user(100), user(100)]);
    await apply(p.id, '10', a.token);
    t.clock.advance(HOUR);
    await steps(p.allot_at);
    // After the allotment the window is closed even where the clock says otherwise (another process's clock).
    await refused(
      'ieo/apply',
      { project_id: String(p.id), quantity: '1', request_id: rid() },
      late.token,
      'ieoNotSubscribing',
    );
    const order = (await ok('ieo/myApply', {}, a.token)).orders[0]?.id ?? 0;
    t.clock.advance(p.pay_until - t.clock.now());
    await refused('ieo/pay', { id: String(order) }, a.token, 'ieoPayWindowClosed');
    await steps(p.pay_until);
    expect((await ok('ieo/order', { id: String(order) }, a.token)).phase).toBe('lapsed');
    expect((await ledger.holds(a.id)).filter((h) => h.kind === 'ieo_payment')).toEqual([]);
  });

  it('refuses projects that could never list, and one failing project does not stop the others', async () => {
    const lines: string[] = [];
    const base = ['create', 'name=X', 'price=0.05', 'total=1', 'circulating=1', 'start=+0m', 'end=+1h', 'allot=+1h'];
    const times = ['pay=+2h', 'list=+2h', 'unlock=+3h'];
    const tries = [
      ['coin=AAPL', 'listing=1', 'supply=100', 'cap=10'],
      ['coin=ZEROL', 'listing=0', 'supply=100', 'cap=10'],
      ['coin=BIGCAP', 'listing=1', 'supply=100', 'cap=1000'],
      ['coin=HUGE', 'listing=1', 'supply=100000000', 'cap=10'],
    ];
    for (const words of tries) {
      expect(await runIeoCommand([...base, ...words, ...times], t.db, (l) => lines.push(l))).toBe(1);
    }
    expect(
      await withIeo(t.db)
        .selectFrom('ieo_projects')
        .select('id')
        .where('coin', 'in', ['AAPL', 'ZEROL', 'BIGCAP', 'HUGE'])
        .execute(),
    ).toEqual([]);
  });

  it('lets only one of two simultaneous subscriptions of one user in', async () => {
    const p = await project();
    const u = await user();
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        t.call('ieo/apply', { project_id: String(p.id), quantity: '5', request_id: rid() }, { token: u.token }),
      ),
    );
    expect(answers.filter((a) => a.body.type === 'ok')).toHaveLength(1);
    const rows = await withIeo(t.db)
      .selectFrom('ieo_subscriptions')
      .select('id')
      .where('project_id', '=', p.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('fails an allotment that gets nothing (status 2) and passes a project with supply left', async () => {
    const tiny = await project({ supply: '0.00000002', cap: '0.00000002' });
    const users = await Promise.all([user(), user(), user()]);
    for (const u of users) await apply(tiny.id, '0.00000001', u.token);
    await steps(tiny.allot_at);
    const statuses = await Promise.all(users.map(async (u) => (await ok('ieo/myApply', {}, u.token)).orders[0]));
    expect(statuses.map((s) => s?.ipo_status)).toEqual([3, 3, 2]);
    expect(statuses[2]).toMatchObject({ phase: 'failed', allotment_quantity: '0.00000000', payment: null });

    const roomy = await project();
    const u = await user();
    await apply(roomy.id, '10', u.token);
    await steps(roomy.allot_at);
    t.clock.advance(HOUR);
    expect((await ok('ieo/detail', { id: String(roomy.id) })).project.state).toBe('passed');
    expect((await ok('ieo/myApply', {}, u.token)).orders[0]).toMatchObject({ allotment_quantity: '10.00000000' });
  });
});
