import { beforeAll, describe, expect, it } from 'vitest';
import { okEnvelope } from '../../protocol';
import { type CallData, type CallPath, calls } from '../../server/domains';
import { formatValue, valueAt } from '../../server/domains/wallet/valuation';
import { withLedger } from '../../server/ledger';
import { parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { translate } from '../../server/platform/i18n/messages';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

/**
 * Assets and transfers over HTTP (wallet/list, detail, legal_log, change, hzhistory) on every database: each user
 * sees and moves only their own money, bad input is refused with a translated message and changes nothing, and a
 * request id applies once.
 */
describe.each(DATABASES)('wallet calls on %s', (kind) => {
  let t: TestApp;
  let ledger: Ledger;
  const T0 = Date.UTC(2024, 5, 4, 12);
  const sim = new MarketSimulator({ seed: 'wallet', now: () => T0, backfillDays: 0, alwaysOpen: true });
  const feed = new MarketFeed(sim, () => T0);
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { market: { feed, record: false } },
  );
  beforeAll(() => {
    sim.advanceTo(T0 + 5_000);
    ledger = new Ledger(t.handle);
  });

  let seeds = 0;
  /** Test set-up only: money for a user straight through the ledger, as an approved deposit would bring it. */
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

  async function ok<P extends CallPath>(path: P, fields: Record<string, string>, token: string) {
    const { status, body } = await t.call(path, fields, { token });
    expect(status).toBe(200);
    expect(body, JSON.stringify(body)).toMatchObject({ type: 'ok' });
    return okEnvelope(calls[path].response).parse(body).data as CallData<P>;
  }

  async function newUser(usdt?: string) {
    const session = await t.registerByEmail(uniqueEmail('wallet'));
    if (usdt) await fund(session.user.id, 'USDT', usdt);
    return session;
  }

  /** Everything of a user's money that could change: the balances of every account and the entries count. */
  async function snapshot(userId: number) {
    // A refused request may leave an empty account behind (the ledger creates accounts outside the transaction).
    const balances = (await ledger.balances(userId)).filter((b) => b.balance !== 0 || b.held !== 0);
    const entries = await withLedger(t.db)
      .selectFrom('ledger_entries')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    return { balances, entries: entries.length };
  }

  async function expectLedgerSound() {
    const report = await checkLedger(t.db);
    expect(describeProblems(report)).toEqual([]);
  }

  const available = async (token: string, type: string, currency: string) => {
    const list = await ok('wallet/list', {}, token);
    return list.accounts.find((a) => a.type === type)?.rows.find((r) => r.currency === currency)?.available;
  };

  describe('reading balances', () => {
    it('needs a session', async () => {
      for (const path of [
        'wallet/list',
        'wallet/detail',
        'wallet/legal_log',
        'wallet/change',
        'wallet/hzhistory',
      ] as const) {
        const { body } = await t.call(path, { currency: 'USDT' });
        expect(body).toMatchObject({ type: 999, code: 0 });
      }
    });

    it('wallet/list values each balance at the last price and says which price it used', async () => {
      const { token, user } = await newUser('250.5');
      await fund(user.id, 'BTC', '0.125');
      const list = await ok('wallet/list', {}, token);
      const btcQuote = feed.quote('BTC');
      expect(btcQuote).toBeDefined();
      const coin = list.accounts.find((a) => a.type === 'coin');
      const btc = coin?.rows.find((r) => r.currency === 'BTC');
      expect(btc).toMatchObject({
        total: '0.12500000',
        price: btcQuote?.last,
        price_source: 'last',
        price_ts: btcQuote?.ts,
      });
      const btcValue = valueAt(12_500_000, 8, btcQuote?.last ?? '0');
      expect(btc?.valuation).toBe(formatValue(btcValue));
      const usdtValue = valueAt(250_500_000, 6, '1');
      expect(coin?.valuation).toBe(formatValue(btcValue + usdtValue));
      expect(list.valuation).toBe(coin?.valuation);
      expect(list.basis).toEqual({ kind: 'last', quote: 'USDT', priced_at: btcQuote?.ts });
      expect(list.unpriced).toBe(false);
      expect(list.accounts.map((a) => a.type)).toEqual(['coin', 'option', 'contract', 'trust']);
      const only = await ok('wallet/list', { type: 'contract' }, token);
      expect(only.accounts.map((a) => a.type)).toEqual(['contract']);
      const bad = await t.call('wallet/list', { type: 'savings' }, { token, lang: 'de' });
      expect(bad.body).toMatchObject({ type: 'error', field: 'type', message: translate('de', 'accountTypeInvalid') });
    });

    it('a user cannot read another user’s balances or records by changing an id', async () => {
      const alice = await newUser('100');
      const bob = await newUser('7');
      await ok(
        'wallet/change',
        { currency: 'USDT', from: 'coin', to: 'trust', amount: '60', request_id: 'alice-1' },
        alice.token,
      );
      const aliceLog = await ok('wallet/legal_log', {}, alice.token);
      const aliceTop = aliceLog.items[0]?.id ?? 0;
      // No call has a field naming a user; sending one changes nothing.
      for (const field of ['user_id', 'uid', 'userId', 'id']) {
        const list = await ok('wallet/list', { [field]: String(alice.user.id) }, bob.token);
        expect(list.valuation).toBe('7');
        expect(list.accounts.find((a) => a.type === 'trust')?.valuation).toBe('0');
      }
      // Bob paging from Alice's newest posting id sees only his own rows.
      const bobLog = await ok('wallet/legal_log', { before_id: String(aliceTop + 1) }, bob.token);
      expect(bobLog.items.map((l) => l.amount)).toEqual(['7.000000']);
      const bobTransfers = await t.call('wallet/hzhistory', { before_id: String(aliceTop + 1) }, { token: bob.token });
      expect(bobTransfers.body).toMatchObject({ type: 'ok', data: { items: [], next_before_id: null } });
      const bobDetail = await ok('wallet/detail', { currency: 'USDT', user_id: String(alice.user.id) }, bob.token);
      expect(bobDetail.total).toBe('7.000000');
      expect(bobDetail.history.map((l) => l.amount)).toEqual(['7.000000']);
      // Request ids are per user: Bob's "alice-1" is his own request, not a replay of Alice's.
      const bobMove = await ok(
        'wallet/change',
        { currency: 'USDT', from: 'coin', to: 'trust', amount: '2', request_id: 'alice-1' },
        bob.token,
      );
      expect(bobMove).toMatchObject({ replayed: false, from: { available: '5.000000' } });
      expect(await available(alice.token, 'coin', 'USDT')).toBe('40.000000');
      expect(await available(alice.token, 'trust', 'USDT')).toBe('60.000000');
      await expectLedgerSound();
    });

    it('wallet/detail and wallet/legal_log filter and page the user’s history', async () => {
      const { token } = await newUser('30');
      for (let i = 1; i <= 3; i++) {
        await ok(
          'wallet/change',
          { currency: 'USDT', from: 'coin', to: 'option', amount: `${i}`, request_id: `p${i}` },
          token,
        );
      }
      const first = await ok('wallet/legal_log', { limit: '4' }, token);
      expect(first.items.map((l) => `${l.kind}:${l.type}:${l.amount}`)).toEqual([
        'transfer:option:3.000000',
        'transfer:coin:-3.000000',
        'transfer:option:2.000000',
        'transfer:coin:-2.000000',
      ]);
      expect(first.next_before_id).not.toBeNull();
      const rest = await ok('wallet/legal_log', { limit: '4', before_id: String(first.next_before_id) }, token);
      expect(rest.items.map((l) => l.amount)).toEqual(['1.000000', '-1.000000', '30.000000']);
      expect(rest.next_before_id).toBeNull();
      const options = await ok('wallet/legal_log', { type: 'option', currency: 'usdt' }, token);
      expect(options.items).toHaveLength(3);
      const none = await ok('wallet/legal_log', { currency: 'BTC' }, token);
      expect(none.items).toEqual([]);
      const detail = await ok('wallet/detail', { currency: 'USDT', type: 'option' }, token);
      expect(detail.accounts.find((a) => a.type === 'option')).toMatchObject({ available: '6.000000' });
      expect(detail.history).toHaveLength(3);
      for (const [fields, field] of [
        [{ limit: '0' }, 'limit'],
        [{ limit: '101' }, 'limit'],
        [{ before_id: '-1' }, 'before_id'],
        [{ currency: 'NOPE' }, 'currency'],
      ] as const) {
        const { body } = await t.call('wallet/legal_log', fields, { token });
        expect(body).toMatchObject({ type: 'error', field });
      }
    });
  });

  describe('transfers', () => {
    it('coin → contract moves the amount, answers with both balances and shows in hzhistory', async () => {
      const { token } = await newUser('100');
      const moved = await ok(
        'wallet/change',
        { currency: 'USDT', from: 'coin', to: 'contract', amount: '12.5', request_id: 'c-1' },
        token,
      );
      expect(moved).toMatchObject({
        replayed: false,
        currency: 'USDT',
        amount: '12.500000',
        from: { type: 'coin', available: '87.500000', total: '87.500000', frozen: '0.000000' },
        to: { type: 'contract', available: '12.500000' },
      });
      const { body } = await t.call('wallet/hzhistory', {}, { token });
      expect(body).toMatchObject({
        type: 'ok',
        data: { items: [{ id: moved.entry_id, currency: 'USDT', amount: '12.500000', from: 'coin', to: 'contract' }] },
      });
      await expectLedgerSound();
    });

    const BAD: ReadonlyArray<[string, Record<string, string>, string, string | undefined]> = [
      ['zero', { amount: '0' }, 'amountNotPositive', 'amount'],
      ['zero with decimals', { amount: '0.000000' }, 'amountNotPositive', 'amount'],
      ['negative', { amount: '-5' }, 'amountNotPositive', 'amount'],
      ['NaN', { amount: 'NaN' }, 'amountInvalid', 'amount'],
      ['exponent', { amount: '1e3' }, 'amountInvalid', 'amount'],
      ['comma decimal', { amount: '1,5' }, 'amountInvalid', 'amount'],
      ['empty', { amount: '' }, 'amountRequired', 'amount'],
      ['too precise', { amount: '1.0000001' }, 'amountTooPrecise', 'amount'],
      ['too large', { amount: '1000000001' }, 'amountTooLarge', 'amount'],
      ['absurdly large', { amount: '9'.repeat(40) }, 'amountTooLarge', 'amount'],
      ['more than available', { amount: '50.000001' }, 'insufficientBalance', 'amount'],
      ['same from and to', { to: 'coin' }, 'transferSameAccount', 'to'],
      ['unknown from', { from: 'savings' }, 'accountTypeInvalid', 'from'],
      ['unknown to', { to: 'margin' }, 'accountTypeInvalid', 'to'],
      ['unknown currency', { currency: 'DOGGY' }, 'currencyUnsupported', 'currency'],
      ['malformed currency', { currency: 'US DT' }, 'currencyUnsupported', 'currency'],
      ['a stock is no currency', { currency: 'AAPL' }, 'currencyUnsupported', 'currency'],
      ['missing request id', { request_id: '' }, 'requestIdInvalid', 'request_id'],
      ['request id too long', { request_id: 'x'.repeat(65) }, 'requestIdInvalid', 'request_id'],
    ];

    it.each(BAD)('refuses %s with a translated message and changes nothing', async (_name, change, key, field) => {
      const { token, user } = await newUser('50');
      const before = await snapshot(user.id);
      const fields = {
        currency: 'USDT',
        from: 'coin',
        to: 'option',
        amount: '1',
        request_id: `bad-${seeds}`,
        ...change,
      };
      for (const lang of ['en', 'de'] as const) {
        const { status, body } = await t.call('wallet/change', fields, { token, lang });
        expect(status).toBe(200);
        expect(body).toMatchObject({ type: 'error', code: 0, message: translate(lang, key) });
        expect(body.message).not.toBe(translate(lang, 'invalidInput'));
        if (field) expect(body.field).toBe(field);
      }
      expect(await snapshot(user.id)).toEqual(before);
      await expectLedgerSound();
    });

    it('refuses more than the available part when some is frozen', async () => {
      const { token, user } = await newUser('10');
      await ledger.placeHold({
        userId: user.id,
        requestId: 'frozen-1',
        kind: 'withdrawal',
        currency: 'USDT',
        type: 'coin',
        amount: 8_000_000,
      });
      const before = await snapshot(user.id);
      const { body } = await t.call(
        'wallet/change',
        { currency: 'USDT', from: 'coin', to: 'trust', amount: '2.5', request_id: 'f-1' },
        { token },
      );
      expect(body).toMatchObject({ type: 'error', message: translate('en', 'insufficientBalance'), field: 'amount' });
      expect(await snapshot(user.id)).toEqual(before);
      const list = await ok('wallet/list', { type: 'coin' }, token);
      expect(list.accounts[0]?.rows.find((r) => r.currency === 'USDT')).toMatchObject({
        available: '2.000000',
        frozen: '8.000000',
        total: '10.000000',
      });
    });
  });

  describe('idempotency', () => {
    it('the same request id twice applies once', async () => {
      const { token, user } = await newUser('20');
      const fields = { currency: 'USDT', from: 'coin', to: 'contract', amount: '5', request_id: crypto.randomUUID() };
      const first = await ok('wallet/change', fields, token);
      const after = await snapshot(user.id);
      const second = await ok('wallet/change', fields, token);
      expect(second).toMatchObject({ replayed: true, entry_id: first.entry_id, created_at: first.created_at });
      expect(second.from.available).toBe('15.000000');
      expect(await snapshot(user.id)).toEqual(after);
      const history = await ok('wallet/hzhistory', {}, token);
      expect(history.items).toHaveLength(1);
      await expectLedgerSound();
    });

    it('the same request id with another body is refused and changes nothing', async () => {
      const { token, user } = await newUser('20');
      const fields = { currency: 'USDT', from: 'coin', to: 'contract', amount: '5', request_id: 'same-id' };
      await ok('wallet/change', fields, token);
      const after = await snapshot(user.id);
      for (const change of [{ amount: '6' }, { to: 'trust' }, { from: 'option', to: 'coin' }]) {
        const { body } = await t.call('wallet/change', { ...fields, ...change }, { token, lang: 'de' });
        expect(body).toMatchObject({ type: 'error', message: translate('de', 'requestIdReused') });
      }
      expect(await snapshot(user.id)).toEqual(after);
      await expectLedgerSound();
    });

    it('a refused request does not use up its id: after funding, the same id applies', async () => {
      const { token, user } = await newUser('1');
      const fields = { currency: 'USDT', from: 'coin', to: 'trust', amount: '3', request_id: 'retry-later' };
      const refused = await t.call('wallet/change', fields, { token });
      expect(refused.body).toMatchObject({ type: 'error', message: translate('en', 'insufficientBalance') });
      await fund(user.id, 'USDT', '5');
      const applied = await ok('wallet/change', fields, token);
      expect(applied).toMatchObject({
        replayed: false,
        from: { available: '3.000000' },
        to: { available: '3.000000' },
      });
    });

    it('simultaneous retries of one request apply once', async () => {
      const { token, user } = await newUser('10');
      const fields = { currency: 'USDT', from: 'coin', to: 'option', amount: '4', request_id: 'burst' };
      const answers = await Promise.all(Array.from({ length: 6 }, () => t.call('wallet/change', fields, { token })));
      expect(answers.every((a) => a.body.type === 'ok')).toBe(true);
      const fresh = answers.filter((a) => (a.body.data as { replayed: boolean }).replayed === false);
      expect(fresh).toHaveLength(1);
      const balances = await ledger.balances(user.id);
      expect(balances.find((b) => b.type === 'option')?.balance).toBe(4_000_000);
      await expectLedgerSound();
    });
  });
});
