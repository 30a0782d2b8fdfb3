import { beforeAll, describe, expect, it } from 'vitest';
import { C2C_ORDER_EVENT, C2C_PAY_WINDOW_MS, type C2cOrder } from '../../protocol/c2c';
import {
  addMerchant,
  c2cServices,
  c2cTopic,
  expireC2cOrders,
  INTERNAL_OTC_URL,
  listAppeals,
  resolveAppeal,
  runC2cCommand,
  withC2c,
} from '../../server/domains/c2c';
import { withChat } from '../../server/domains/chat';
import { parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { translate } from '../../server/platform/i18n/messages';
import { apiChecks } from './api-checks';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

const SEPA = { type: 'sepa', name: 'Demo Merchant GmbH', account: 'DE89370400440532013000', note: 'Commerzbank' };
const PAYPAL = { type: 'paypal', name: 'Demo Merchant', account: 'pay@merchant.example', note: '' };

/**
 * C2C over HTTP on every database (RULES "C2C"): a merchant's ad, a buyer's order holding the merchant's coins in
 * escrow at once, paying within the 30-minute window on server time, the merchant releasing the coins to the buyer,
 * the buyer cancelling, the expiry returning the escrow, appeals decided by an operator (audited), and the races:
 * two orders for the last coins of an ad, a payment against the expiry. Bad input changes nothing; an order exists
 * only for its buyer and its merchant.
 */
describe.each(DATABASES)('c2c on %s', (kind) => {
  let t: TestApp;
  let ledger: Ledger;
  // The app's own expiry job stays out of the way: the tests run the expiry at the times they choose.
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { c2cExpiryMs: 3_600_000 },
  );
  beforeAll(() => {
    ledger = new Ledger(t.handle);
  });

  const money = () => ({ database: t.handle, ledger, now: t.clock.now });
  const expire = (at: number) => expireC2cOrders(money(), { at });
  /** The tests share one database: earlier tests' unpaid orders are expired first, so a round's count is exact. */
  const expireEarlierOrders = () => expire(t.clock.now() + 2 * C2C_PAY_WINDOW_MS);
  const { ok, refused } = apiChecks(() => t);

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

  async function user() {
    const session = await t.registerByEmail(uniqueEmail('c2c'));
    return { token: session.token, id: session.user.id };
  }

  let merchants = 0;
  async function merchant(btc = '1') {
    const u = await user();
    const result = await addMerchant(t.db, String(u.id), `Merchant ${kind} ${++merchants}`, { operator: 'test' });
    expect(result.ok).toBe(true);
    await fund(u.id, 'BTC', btc);
    return u;
  }

  async function ad(token: string, fields: Record<string, string> = {}) {
    return ok(
      'ctc/merchant/ad/save',
      {
        coin: 'BTC',
        fiat: 'EUR',
        price: '65000.50',
        amount: '0.5',
        min_fiat: '100',
        max_fiat: '50000',
        pay_methods: JSON.stringify([SEPA, PAYPAL]),
        note: 'Pay within 30 minutes',
        ...fields,
      },
      token,
    );
  }

  let requests = 0;
  const rid = () => `c${++requests}-${kind}`;
  const order = (adId: number, quantity: string, token: string, payType = 'sepa') =>
    ok('ctc/order/add', { ad_id: String(adId), quantity, pay_type: payType, request_id: rid() }, token);

  async function coin(userId: number, currency = 'BTC') {
    const row = (await ledger.balances(userId, 'real')).find((b) => b.type === 'coin' && b.currency === currency);
    return { balance: row?.balance ?? 0, held: row?.held ?? 0 };
  }

  const chatEvents = async (conversationId: number | null) =>
    (
      await withChat(t.db)
        .selectFrom('chat_messages')
        .select('text')
        .where('conversation_id', '=', conversationId ?? 0)
        .where('kind', '=', 'event')
        .orderBy('seq')
        .execute()
    ).map((r) => r.text);

  it('runs an order from ad to coins: escrow at once, paid in the window, released to the buyer', async () => {
    const m = await merchant();
    const b = await user();
    const listed = await ad(m.token);
    expect(listed).toMatchObject({
      coin: 'BTC',
      scale: 8,
      fiat: 'EUR',
      price: '65000.50',
      amount: '0.50000000',
      available: '0.50000000',
      deal_volume: '0.00000000',
      min_fiat: '100.00',
      max_fiat: '50000.00',
      pay_types: ['sepa', 'paypal'],
      pay_methods: [SEPA, PAYPAL],
      state: 'open',
    });
    // The ad is checked against the merchant's coins, but nothing is held for it.
    expect(await coin(m.id)).toEqual({ balance: 100_000_000, held: 0 });
    const publicAd = await ok('ctc/product/info', { id: String(listed.id) });
    expect(publicAd).not.toHaveProperty('pay_methods');
    expect((await ok('ctc/product/all', {})).coins).toContain('BTC');
    const listPage = await ok('ctc/product/list', { coin: 'BTC', fiat: 'EUR' });
    expect(listPage.ads.map((a) => a.id)).toContain(listed.id);

    const placed = await order(listed.id, '0.01', b.token);
    // 0.01 × 65,000.50 = 650.005, rounded up to the cent.
    expect(placed).toMatchObject({
      status: 1,
      role: 'buyer',
      quantity: '0.01000000',
      amount: '650.01',
      pay_type: 'sepa',
      pay_info: SEPA,
      merchant_nickname: expect.stringMatching(/^Merchant/),
      cancel_reason: null,
      appeal: null,
    });
    expect(placed.pay_until - placed.created_at).toBe(C2C_PAY_WINDOW_MS);
    expect(placed.sn).toMatch(/^C\d{8}$/);
    expect(await coin(m.id)).toEqual({ balance: 100_000_000, held: 1_000_000 });
    expect((await ok('ctc/product/info', { id: String(listed.id) })).available).toBe('0.49000000');
    const asMerchant = await ok('ctc/order/info', { id: String(placed.id) }, m.token);
    expect(asMerchant).toMatchObject({ role: 'merchant', buyer_nickname: expect.stringContaining('***') });
    expect((await ok('ctc/order/list', { side: 'merchant' }, m.token)).orders.map((o) => o.id)).toEqual([placed.id]);
    expect((await ok('ctc/order/list', {}, b.token)).orders.map((o) => o.id)).toEqual([placed.id]);
    expect((await ok('ctc/order/list', {}, m.token)).orders).toEqual([]);

    // Paying twice (a retry) marks it paid once; the merchant releases; the coins arrive.
    const paid = await ok('ctc/order/pay', { id: String(placed.id) }, b.token);
    expect(paid).toMatchObject({ status: 2, paid_at: t.clock.now() });
    expect((await ok('ctc/order/pay', { id: String(placed.id) }, b.token)).status).toBe(2);
    const released = await ok('ctc/order/release', { id: String(placed.id) }, m.token);
    expect(released).toMatchObject({ status: 3, role: 'merchant', completed_at: t.clock.now() });
    expect(await coin(b.id)).toEqual({ balance: 1_000_000, held: 0 });
    expect(await coin(m.id)).toEqual({ balance: 99_000_000, held: 0 });
    expect(await ok('ctc/product/info', { id: String(listed.id) })).toMatchObject({
      available: '0.49000000',
      deal_volume: '0.01000000',
    });
    expect(await chatEvents(placed.conversation_id)).toEqual(['c2c.event.paid', 'c2c.event.released']);
    const members = await withChat(t.db)
      .selectFrom('chat_members')
      .select(['user_id', 'role'])
      .where('conversation_id', '=', placed.conversation_id ?? 0)
      .orderBy('user_id')
      .execute();
    expect(members).toEqual(
      [
        { user_id: b.id, role: 'buyer' },
        { user_id: m.id, role: 'merchant' },
      ].sort((x, y) => x.user_id - y.user_id),
    );

    // Both sides got an event for every change (placed, paid, released), each with its own role.
    const events = await t.db
      .selectFrom('user_events')
      .select(['user_id', 'payload'])
      .where('kind', '=', C2C_ORDER_EVENT)
      .where('user_id', 'in', [b.id, m.id])
      .orderBy('id')
      .execute();
    const rolesOf = (id: number) =>
      events.filter((e) => e.user_id === id).map((e) => (JSON.parse(e.payload) as C2cOrder).role);
    expect(rolesOf(b.id)).toEqual(['buyer', 'buyer', 'buyer']);
    expect(rolesOf(m.id)).toEqual(['merchant', 'merchant', 'merchant']);
    // The payment details are sealed at rest: in the ad, the order and the events.
    const stored = [
      ...(
        await withC2c(t.db).selectFrom('c2c_ads').select('pay_methods_enc').where('id', '=', listed.id).execute()
      ).map((r) => r.pay_methods_enc),
      ...(
        await withC2c(t.db).selectFrom('c2c_orders').select('pay_info_enc').where('id', '=', placed.id).execute()
      ).map((r) => r.pay_info_enc),
      ...events.map((e) => e.payload),
    ];
    for (const text of stored) expect(text).not.toContain(SEPA.account);
    // The private topic opens them for its subscribers.
    const topic = c2cTopic(c2cServices({ database: t.handle, ledger, now: t.clock.now }));
    const last = events.at(-1);
    expect(topic.fromEvent(C2C_ORDER_EVENT, JSON.parse(last?.payload ?? 'null'))).toMatchObject({
      kind: 'order',
      order: { id: placed.id, status: 3, pay_info: SEPA },
    });
    expect(await topic.snapshot(b.id)).toEqual({ kind: 'snapshot', orders: [] });
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('lets the buyer cancel while paying: the escrow returns and the ad offers the coins again', async () => {
    const m = await merchant();
    const b = await user();
    const listed = await ad(m.token);
    const placed = await order(listed.id, '0.1', b.token, 'paypal');
    expect(placed.pay_info).toEqual(PAYPAL);
    const topic = c2cTopic(c2cServices({ database: t.handle, ledger, now: t.clock.now }));
    expect(await topic.snapshot(m.id)).toMatchObject({
      kind: 'snapshot',
      orders: [{ id: placed.id, role: 'merchant' }],
    });
    const cancelled = await ok('ctc/order/cancel', { id: String(placed.id) }, b.token);
    expect(cancelled).toMatchObject({ status: 5, cancel_reason: 'buyer', cancelled_at: t.clock.now() });
    // A retry answers the cancelled order; paying it is refused.
    expect((await ok('ctc/order/cancel', { id: String(placed.id) }, b.token)).status).toBe(5);
    await refused('ctc/order/pay', { id: String(placed.id) }, b.token, 'c2cWrongStatus');
    expect(await coin(m.id)).toEqual({ balance: 100_000_000, held: 0 });
    expect((await ok('ctc/product/info', { id: String(listed.id) })).available).toBe('0.50000000');
    expect(await chatEvents(placed.conversation_id)).toEqual(['c2c.event.cancelled']);
    // A new order on the same ad is possible again.
    expect((await order(listed.id, '0.1', b.token)).status).toBe(1);
    expect((await ok('ctc/order/list', { status: '5' }, b.token)).orders.map((o) => o.id)).toEqual([placed.id]);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('expires an unpaid order at the end of its window on server time, once', async () => {
    await expireEarlierOrders();
    const m = await merchant();
    const b = await user();
    const listed = await ad(m.token);
    const placed = await order(listed.id, '0.02', b.token);
    expect(await expire(placed.pay_until - 1)).toBe(0);
    // At pay_until the window is closed for paying, even before the job has run.
    t.clock.advance(placed.pay_until - t.clock.now());
    await refused('ctc/order/pay', { id: String(placed.id) }, b.token, 'c2cPayWindowClosed');
    expect(await expire(placed.pay_until)).toBe(1);
    expect(await expire(placed.pay_until)).toBe(0);
    const expired = await ok('ctc/order/info', { id: String(placed.id) }, b.token);
    expect(expired).toMatchObject({ status: 5, cancel_reason: 'expired', cancelled_at: placed.pay_until });
    await refused('ctc/order/pay', { id: String(placed.id) }, b.token, 'c2cPayWindowClosed');
    expect(await coin(m.id)).toEqual({ balance: 100_000_000, held: 0 });
    expect((await ok('ctc/product/info', { id: String(listed.id) })).available).toBe('0.50000000');
    expect(await chatEvents(placed.conversation_id)).toEqual(['c2c.event.expired']);
    const holds = (await ledger.holds(m.id)).filter((h) => h.kind === 'c2c_escrow');
    expect(holds.map((h) => h.state)).toEqual(['voided']);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('lets only as many orders as the ad has coins for win a race: available never below zero', async () => {
    const m = await merchant();
    const listed = await ad(m.token, { amount: '0.05', min_fiat: '10' });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => user()));
    const answers = await Promise.all(
      buyers.map((b) =>
        t.call(
          'ctc/order/add',
          { ad_id: String(listed.id), quantity: '0.01', pay_type: 'sepa', request_id: rid() },
          { token: b.token },
        ),
      ),
    );
    const won = answers.filter((a) => a.body.type === 'ok');
    expect(won).toHaveLength(5);
    for (const a of answers.filter((x) => x.body.type !== 'ok')) {
      expect(a.body.message).toBe(translate('en', 'c2cSoldOut'));
    }
    const row = await withC2c(t.db)
      .selectFrom('c2c_ads')
      .selectAll()
      .where('id', '=', listed.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ amount: 5_000_000, taken: 5_000_000 });
    expect((await ok('ctc/product/info', { id: String(listed.id) })).available).toBe('0.00000000');
    expect(await coin(m.id)).toEqual({ balance: 100_000_000, held: 5_000_000 });
    // Sold out: gone from the list, and one more order is refused.
    expect((await ok('ctc/product/list', { coin: 'BTC' })).ads.map((a) => a.id)).not.toContain(listed.id);
    const late = await user();
    await refused(
      'ctc/order/add',
      { ad_id: String(listed.id), quantity: '0.01', pay_type: 'sepa', request_id: rid() },
      late.token,
      'c2cSoldOut',
    );
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('settles a payment racing the expiry one way or the other, never both', async () => {
    await expireEarlierOrders();
    const m = await merchant('5');
    const listed = await ad(m.token, { amount: '5', max_fiat: '1000000' });
    const outcomes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const b = await user();
      const placed = await order(listed.id, '0.01', b.token);
      // The buyer's request is the last moment of the window on the server's clock; the job judges the end.
      t.clock.advance(placed.pay_until - 1 - t.clock.now());
      const [paid, expired] = await Promise.all([
        t.call('ctc/order/pay', { id: String(placed.id) }, { token: b.token }),
        expire(placed.pay_until),
      ]);
      const final = await ok('ctc/order/info', { id: String(placed.id) }, b.token);
      if (paid.body.type === 'ok') {
        expect(expired).toBe(0);
        expect(final).toMatchObject({ status: 2, cancel_reason: null });
      } else {
        expect(paid.body.message).toBe(translate('en', 'c2cPayWindowClosed'));
        expect(expired).toBe(1);
        expect(final).toMatchObject({ status: 5, cancel_reason: 'expired' });
      }
      outcomes.push(final.status);
      const hold = (await ledger.holds(m.id)).find((h) => h.ref === `c2c ${placed.sn}`);
      expect(hold?.state).toBe(final.status === 2 ? 'open' : 'voided');
    }
    const row = await withC2c(t.db)
      .selectFrom('c2c_ads')
      .selectAll()
      .where('id', '=', listed.id)
      .executeTakeFirstOrThrow();
    expect(row.taken).toBe(outcomes.filter((s) => s === 2).length * 1_000_000);
    expect((await coin(m.id)).held).toBe(row.taken);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('keeps an order to its buyer and merchant: anyone else cannot see, pay, cancel, release or appeal it', async () => {
    const m = await merchant();
    const b = await user();
    const other = await user();
    const listed = await ad(m.token);
    const placed = await order(listed.id, '0.01', b.token);
    const id = { id: String(placed.id) };
    for (const path of ['ctc/order/info', 'ctc/order/pay', 'ctc/order/cancel', 'ctc/order/release'] as const) {
      await refused(path, id, other.token, 'c2cOrderNotFound', 'id');
    }
    await refused('ctc/order/appeal', { ...id, reason: 'mine' }, other.token, 'c2cOrderNotFound');
    // Each side does only its own part: the merchant cannot pay or cancel for the buyer, the buyer cannot release.
    await refused('ctc/order/pay', id, m.token, 'c2cOrderNotFound');
    await refused('ctc/order/cancel', id, m.token, 'c2cOrderNotFound');
    await refused('ctc/order/release', id, b.token, 'c2cOrderNotFound');
    // Releasing before payment is refused.
    await refused('ctc/order/release', id, m.token, 'c2cWrongStatus');
    await refused('ctc/order/appeal', { ...id, reason: 'early' }, b.token, 'c2cWrongStatus');
    expect((await ok('ctc/order/list', {}, other.token)).orders).toEqual([]);
    expect((await ok('ctc/order/list', { side: 'merchant' }, other.token)).orders).toEqual([]);
    // Another merchant's ad cannot be edited or closed.
    const rival = await merchant();
    await refused('ctc/merchant/ad/close', { id: String(listed.id) }, rival.token, 'c2cAdNotFound');
    const edit = {
      id: String(listed.id),
      coin: 'BTC',
      fiat: 'EUR',
      price: '1',
      amount: '0.5',
      min_fiat: '100',
      max_fiat: '50000',
      pay_methods: JSON.stringify([SEPA]),
    };
    await refused('ctc/merchant/ad/save', edit, rival.token, 'c2cAdNotFound');
    expect((await ok('ctc/order/info', id, b.token)).status).toBe(1);
    expect((await ok('ctc/product/info', { id: String(listed.id) })).price).toBe('65000.50');
    expect((await t.call('ctc/order/info', id)).body.type).not.toBe('ok');
  });

  it('lets an operator decide an appeal either way, with a reason, audited with the money', async () => {
    const m = await merchant();
    const [b1, b2] = await Promise.all([user(), user()]);
    const listed = await ad(m.token);
    const first = await order(listed.id, '0.01', b1.token);
    const second = await order(listed.id, '0.02', b2.token);
    for (const [o, token] of [
      [first, b1.token],
      [second, b2.token],
    ] as const) {
      await ok('ctc/order/pay', { id: String(o.id) }, token);
    }
    await refused('ctc/order/appeal', { id: String(first.id), reason: '  ' }, b1.token, 'c2cReasonRequired', 'reason');
    const appealed = await ok('ctc/order/appeal', { id: String(first.id), reason: 'Paid, not released' }, b1.token);
    expect(appealed).toMatchObject({
      status: 4,
      appeal: { by: 'buyer', reason: 'Paid, not released', decision: null, decided_at: null },
    });
    await ok('ctc/order/appeal', { id: String(second.id), reason: 'No payment arrived' }, m.token);
    // In an appeal only an operator moves the coins.
    await refused('ctc/order/release', { id: String(first.id) }, m.token, 'c2cWrongStatus');
    const open = (await listAppeals(t.db)).filter((a) => a.merchant_id === m.id);
    expect(open.map((a) => [a.id, a.by])).toEqual([
      [first.id, 'buyer'],
      [second.id, 'merchant'],
    ]);

    expect(await resolveAppeal(money(), first.id, 'release', '', 'op-anna')).toEqual({
      ok: false,
      problem: 'a decision needs a reason',
    });
    const released = await resolveAppeal(money(), first.id, 'release', 'Bank statement shows the payment', 'op-anna');
    expect(released).toMatchObject({ ok: true, order: { status: 3, appeal_decision: 'release' } });
    expect(await coin(b1.id)).toEqual({ balance: 1_000_000, held: 0 });
    const lines: string[] = [];
    expect(
      await runC2cCommand(['resolve', String(second.id), 'cancel', 'No', 'payment', 'shown'], t.db, (l) =>
        lines.push(l),
      ),
    ).toBe(0);
    const cancelled = await ok('ctc/order/info', { id: String(second.id) }, b2.token);
    expect(cancelled).toMatchObject({
      status: 5,
      cancel_reason: 'appeal',
      appeal: { by: 'merchant', decision: 'cancel', decision_reason: 'No payment shown' },
    });
    expect(await coin(b2.id)).toEqual({ balance: 0, held: 0 });
    expect(await coin(m.id)).toEqual({ balance: 99_000_000, held: 0 });
    // Decided once: a second decision is refused.
    expect(await resolveAppeal(money(), first.id, 'cancel', 'again', 'op-anna')).toMatchObject({ ok: false });
    const audit = await t.db
      .selectFrom('ops_audit')
      .selectAll()
      .where('action', '=', 'c2c_appeal.resolve')
      .where('subject_id', 'in', [String(first.id), String(second.id)])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.subject_id, JSON.parse(a.detail).decision])).toEqual([
      [String(first.id), 'release'],
      [String(second.id), 'cancel'],
    ]);
    expect(audit[0]?.operator).toBe('op-anna');
    expect(await chatEvents(first.conversation_id)).toEqual([
      'c2c.event.paid',
      'c2c.event.appealed',
      'c2c.event.resolved',
    ]);
    expect((await listAppeals(t.db)).filter((a) => a.merchant_id === m.id)).toEqual([]);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('refuses bad input in the user\u2019s language and changes nothing', async () => {
    const m = await merchant();
    const b = await user();
    const listed = await ad(m.token, { min_fiat: '100', max_fiat: '1000', pay_methods: JSON.stringify([SEPA]) });
    const eventsBefore = await t.db.selectFrom('user_events').select('id').execute();
    const base = { ad_id: String(listed.id), quantity: '0.01', pay_type: 'sepa', request_id: rid() };
    await refused('ctc/order/add', { ...base, quantity: '' }, b.token, 'c2cQuantityRequired', 'quantity');
    await refused('ctc/order/add', { ...base, quantity: 'ten' }, b.token, 'amountInvalid', 'quantity');
    await refused('ctc/order/add', { ...base, quantity: '0.000000001' }, b.token, 'amountTooPrecise', 'quantity');
    await refused('ctc/order/add', { ...base, quantity: '0' }, b.token, 'amountNotPositive', 'quantity');
    // 0.0015 × 65,000.50 = 97.50 < 100; 0.02 × 65,000.50 = 1,300.01 > 1,000.
    await refused('ctc/order/add', { ...base, quantity: '0.0015' }, b.token, 'c2cBelowMin', 'quantity');
    await refused('ctc/order/add', { ...base, quantity: '0.02' }, b.token, 'c2cAboveMax', 'quantity');
    await refused('ctc/order/add', { ...base, pay_type: 'paypal' }, b.token, 'c2cPayTypeInvalid', 'pay_type');
    await refused('ctc/order/add', { ...base, pay_type: 'cash' }, b.token, 'c2cPayTypeInvalid', 'pay_type');
    await refused('ctc/order/add', { ...base, ad_id: '999999' }, b.token, 'c2cAdNotFound', 'ad_id');
    await refused('ctc/order/add', { ...base, request_id: '' }, b.token, 'requestIdInvalid');
    await refused('ctc/order/add', base, m.token, 'c2cOwnAd', 'ad_id');
    const { body } = await t.call('ctc/order/add', { ...base, quantity: '0.0015' }, { token: b.token, lang: 'de' });
    expect(body.message).toBe(translate('de', 'c2cBelowMin'));
    expect(body.message).not.toBe(translate('en', 'c2cBelowMin'));
    expect((await t.call('ctc/order/add', base)).body.type).not.toBe('ok');
    expect(await withC2c(t.db).selectFrom('c2c_orders').select('id').where('ad_id', '=', listed.id).execute()).toEqual(
      [],
    );
    expect(await coin(m.id)).toEqual({ balance: 100_000_000, held: 0 });
    expect(await t.db.selectFrom('user_events').select('id').execute()).toEqual(eventsBefore);

    // One open order per buyer and ad; a closed ad takes no orders (its open orders still finish).
    const placed = await order(listed.id, '0.01', b.token);
    await refused('ctc/order/add', { ...base, request_id: rid() }, b.token, 'c2cOrderOpen');
    const closed = await ok('ctc/merchant/ad/close', { id: String(listed.id) }, m.token);
    expect(closed.state).toBe('closed');
    const other = await user();
    await refused('ctc/order/add', { ...base, request_id: rid() }, other.token, 'c2cAdNotFound');
    expect((await ok('ctc/order/pay', { id: String(placed.id) }, b.token)).status).toBe(2);

    // Ads: merchants only, every field checked.
    const adFields = {
      coin: 'BTC',
      fiat: 'EUR',
      price: '65000',
      amount: '0.1',
      min_fiat: '10',
      max_fiat: '100',
      pay_methods: JSON.stringify([SEPA]),
    };
    await refused('ctc/merchant/ad/save', adFields, b.token, 'c2cNotMerchant');
    await refused('ctc/merchant/ad/save', { ...adFields, price: '' }, m.token, 'c2cPriceRequired', 'price');
    await refused('ctc/merchant/ad/save', { ...adFields, amount: '' }, m.token, 'c2cAmountRequired', 'amount');
    await refused('ctc/merchant/ad/save', { ...adFields, min_fiat: '' }, m.token, 'c2cLimitRequired', 'min_fiat');
    await refused('ctc/merchant/ad/save', { ...adFields, min_fiat: '200' }, m.token, 'c2cLimitOrder', 'min_fiat');
    await refused('ctc/merchant/ad/save', { ...adFields, max_fiat: '1.001' }, m.token, 'amountTooPrecise', 'max_fiat');
    await refused('ctc/merchant/ad/save', { ...adFields, price: '0' }, m.token, 'amountNotPositive', 'price');
    await refused('ctc/merchant/ad/save', { ...adFields, coin: 'NOPE' }, m.token, 'currencyUnsupported', 'coin');
    await refused('ctc/merchant/ad/save', { ...adFields, fiat: 'JPY' }, m.token, 'invalidInput', 'fiat');
    await refused('ctc/merchant/ad/save', { ...adFields, amount: '2' }, m.token, 'insufficientBalance', 'amount');
    await refused('ctc/merchant/ad/save', { ...adFields, pay_methods: '' }, m.token, 'c2cPayMethodsRequired');
    await refused('ctc/merchant/ad/save', { ...adFields, pay_methods: '[]' }, m.token, 'c2cPayMethodsRequired');
    await refused('ctc/merchant/ad/save', { ...adFields, pay_methods: '{' }, m.token, 'c2cPayMethodInvalid');
    const noAccount = JSON.stringify([{ ...SEPA, account: ' ' }]);
    await refused('ctc/merchant/ad/save', { ...adFields, pay_methods: noAccount }, m.token, 'c2cPayMethodInvalid');
    const twice = JSON.stringify([SEPA, SEPA]);
    await refused('ctc/merchant/ad/save', { ...adFields, pay_methods: twice }, m.token, 'c2cPayMethodInvalid');
    const cash = JSON.stringify([{ ...SEPA, type: 'cash' }]);
    await refused('ctc/merchant/ad/save', { ...adFields, pay_methods: cash }, m.token, 'c2cPayTypeInvalid');
    // An edit keeps coin and currency and cannot go below what orders took.
    const mine = await ad(m.token, { amount: '0.1', min_fiat: '10' });
    await order(mine.id, '0.01', other.token);
    const edit = { ...adFields, id: String(mine.id) };
    await refused('ctc/merchant/ad/save', { ...edit, fiat: 'USD' }, m.token, 'c2cAdCoinFixed', 'fiat');
    await refused('ctc/merchant/ad/save', { ...edit, amount: '0.009' }, m.token, 'c2cAmountBelowOrdered', 'amount');
    const edited = await ok('ctc/merchant/ad/save', { ...edit, price: '64000', amount: '0.2' }, m.token);
    expect(edited).toMatchObject({ id: mine.id, price: '64000.00', amount: '0.20000000', available: '0.19000000' });
    expect((await ok('ctc/merchant/ads', {}, m.token)).ads.map((a) => a.id)).toEqual([mine.id, listed.id]);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  it('applies a retried order once: the same request id gives the same order, other details are refused', async () => {
    const m = await merchant();
    const b = await user();
    const listed = await ad(m.token);
    const fields = { ad_id: String(listed.id), quantity: '0.01', pay_type: 'sepa', request_id: rid() };
    const answers = await Promise.all([0, 1, 2].map(() => t.call('ctc/order/add', fields, { token: b.token })));
    const ids = answers.map((a) => (a.body.data as { id?: number } | undefined)?.id);
    expect(answers.map((a) => a.body.type)).toEqual(['ok', 'ok', 'ok']);
    expect(new Set(ids).size).toBe(1);
    expect((await ok('ctc/order/add', fields, b.token)).id).toBe(ids[0]);
    await refused('ctc/order/add', { ...fields, quantity: '0.02' }, b.token, 'requestIdReused');
    expect(await coin(m.id)).toEqual({ balance: 100_000_000, held: 1_000_000 });
    expect((await ledger.holds(m.id)).filter((h) => h.kind === 'c2c_escrow')).toHaveLength(1);
  });

  it('keeps merchants and the C2C address to operators, audited', async () => {
    const u = await user();
    const out: string[] = [];
    const run = (...words: string[]) => runC2cCommand(words, t.db, (l) => out.push(l));
    expect((await ok('ctc/merchant/me', {}, u.token)).merchant).toBe(false);
    expect(await run('merchant', 'add', String(u.id), 'x')).toBe(1);
    expect(await run('merchant', 'add', String(u.id), `Ops ${kind} Trader`)).toBe(0);
    expect(await ok('ctc/merchant/me', {}, u.token)).toEqual({ merchant: true, nickname: `Ops ${kind} Trader` });
    const other = await user();
    expect(await run('merchant', 'add', String(other.id), `ops ${kind} trader`)).toBe(1);
    expect(out.at(-1)).toBe('nickname taken');
    expect(await run('merchants')).toBe(0);
    expect(out.some((l) => l.includes(`Ops ${kind} Trader`))).toBe(true);
    await fund(u.id, 'BTC', '1');
    const listed = await ad(u.token);
    expect(await run('merchant', 'remove', String(u.id))).toBe(0);
    expect((await ok('ctc/product/info', { id: String(listed.id) })).state).toBe('closed');
    expect((await ok('ctc/merchant/me', {}, u.token)).merchant).toBe(false);
    const again = {
      id: String(listed.id),
      coin: 'BTC',
      fiat: 'EUR',
      price: '1',
      amount: '0.1',
      min_fiat: '10',
      max_fiat: '100',
      pay_methods: JSON.stringify([SEPA]),
    };
    await refused('ctc/merchant/ad/save', again, u.token, 'c2cNotMerchant');
    expect(await run('merchant', 'remove', String(u.id))).toBe(1);

    expect(await ok('set/get_otc_url', {})).toEqual({ url: INTERNAL_OTC_URL, internal: true });
    expect(await run('otc-url', 'set', 'http://example.com')).toBe(1);
    expect(await run('otc-url', 'set', 'https://otc.example.com/buy')).toBe(0);
    expect(await ok('set/get_otc_url', {})).toEqual({ url: 'https://otc.example.com/buy', internal: false });
    expect(await run('otc-url', 'clear')).toBe(0);
    expect((await ok('set/get_otc_url', {})).internal).toBe(true);
    const actions = (
      await t.db
        .selectFrom('ops_audit')
        .select(['action', 'subject_id'])
        .where('action', 'in', ['c2c_merchant.add', 'c2c_merchant.remove', 'c2c_otc_url.set'])
        .orderBy('id')
        .execute()
    ).filter((a) => a.subject_id === String(u.id) || a.action === 'c2c_otc_url.set');
    expect(actions.map((a) => a.action)).toEqual([
      'c2c_merchant.add',
      'c2c_merchant.remove',
      'c2c_otc_url.set',
      'c2c_otc_url.set',
    ]);
  });
});
