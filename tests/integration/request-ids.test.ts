import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import { COMMAND_EVENT, type CommandAnswer } from '../../protocol/realtime';
import { type CallPath, calls } from '../../server/domains';
import { addMerchant } from '../../server/domains/c2c';
import { withChat } from '../../server/domains/chat';
import { runFinanceCommand, withFinance } from '../../server/domains/finance';
import { setDepositAddress } from '../../server/domains/funding';
import { approveVerification } from '../../server/domains/identity';
import { runIeoCommand, withIeo } from '../../server/domains/ieo';
import { withWalletAddresses } from '../../server/domains/wallet-addresses';
import { withLedger } from '../../server/ledger';
import { parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { MarketFeed } from '../../server/market/feed';
import { translate } from '../../server/platform/i18n/messages';
import { releaseRequestId, takesRequestId } from '../../server/platform/request-ids';
import { HandMarket } from './hand-market';
import { appPerSuite, DATABASES, startTestApp, type TestApp, uniqueEmail } from './harness';
import { uploadedId } from './uploads-helpers';

/**
 * Issue 24: one idempotency mechanism for every call that takes a `request_id`. The same id with the same arguments
 * is a retry (the first answer again, nothing applied twice); the same id with other arguments, or sent to another
 * call, is refused with `requestIdReused` and moves no money. The walk below takes the calls from the protocol's
 * table, so a money call added later fails here until it has an argument builder (and so is looked at).
 */

const FUND = '246810';
const USER_ERC20 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const PLATFORM_ERC20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const REQUEST_ID_CALLS = (Object.keys(calls) as CallPath[]).filter((p) => takesRequestId(calls[p].request)).sort();

interface Envelope {
  type: string | number;
  message: string;
  data?: unknown;
}

describe.each(DATABASES)('request ids on %s', (kind) => {
  const market = new HandMarket(['BTC', 'ETH']);
  const feed = new MarketFeed(market);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-request-ids-'));
  let t: TestApp;
  let ledger: Ledger;
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { market: { feed, record: { flushMs: 50 } }, uploadsDir: dir },
  );
  const sockets: Socket[] = [];
  afterAll(() => {
    for (const socket of sockets) socket.disconnect();
    feed.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const trade = (symbol: string, price: string) => {
    t.clock.advance(1_000);
    return market.trade(symbol, price, t.clock.now());
  };
  let requests = 0;
  const rid = () => `rid${++requests}-${kind}`;
  let seeds = 0;
  async function fund(userId: number, currency: string, amount: string, to: 'coin' | 'contract' | 'option' | 'trust') {
    const parsed = parseAmount(currency, amount);
    if (!parsed.ok) throw new Error(parsed.error);
    await ledger.credit({
      userId,
      requestId: `seed-${++seeds}`,
      kind: 'deposit',
      currency,
      amount: parsed.units,
      from: 'deposits_clearing',
      to,
    });
  }
  const send = async (p: CallPath, fields: Record<string, string>, token: string) =>
    (await t.call(p, fields, { token })).body as Envelope;
  async function ok<T = unknown>(p: CallPath, fields: Record<string, string>, token: string): Promise<T> {
    const body = await send(p, fields, token);
    expect(body.type, `${p}: ${JSON.stringify(body)}`).toBe('ok');
    return body.data as T;
  }
  const reused = translate('en', 'requestIdReused');

  /** A verified user with a fund password, money in every account type a call takes from. */
  async function trader() {
    const session = await t.registerByEmail(uniqueEmail('rid'));
    const id = session.user.id;
    const token = session.token;
    const submitted = await ok<{ id: number }>(
      'user/real_name',
      { country: 'DE', name: 'Test Trader', id_number: 'T0000001', address: 'Street 1', consent: '1' },
      token,
    );
    const review = await approveVerification(t.db, submitted.id, { operator: 'test' });
    if (!review.ok) throw new Error(review.problem);
    await ok('user/e_pwd', { mode: 'password', login_password: 'secret1', password: FUND, repassword: FUND }, token);
    await fund(id, 'USDT', '100000', 'coin');
    await fund(id, 'USDT', '10000', 'contract');
    await fund(id, 'USDT', '1000', 'option');
    await fund(id, 'USDT', '10000', 'trust');
    return { id, token };
  }

  /** An isolated 10x BTC long of `token`'s user, open (holding). */
  async function holding(token: string): Promise<LeverPosition> {
    const placed = await ok<LeverPosition>(
      'lever/submit',
      {
        symbol: 'BTC',
        side: 'long',
        type: 'market',
        margin_mode: 'isolated',
        lots: '10',
        leverage: '10',
        account: 'real',
        request_id: rid(),
      },
      token,
    );
    trade('BTC', '60000.00');
    let open: LeverPosition | undefined;
    await vi.waitFor(
      async () => {
        open = await ok<LeverPosition>('lever/info', { id: String(placed.id) }, token);
        expect(open.phase).toBe('holding');
      },
      { timeout: 10_000, interval: 30 },
    );
    return open as LeverPosition;
  }

  /** Every balance of the user in both books, and the number of ledger entries (any money moved makes a new one). */
  async function money(userId: number) {
    const balances = [...(await ledger.balances(userId, 'real')), ...(await ledger.balances(userId, 'simulator'))];
    const entries = await withLedger(t.db)
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { balances, entries: Number(entries.n) };
  }

  /** The claim of a request id (platform/request-ids), as stored. */
  const claimOf = (userId: number, requestId: string) =>
    t.db
      .selectFrom('request_ids')
      .select(['call_path', 'request_digest', 'applied'])
      .where('user_id', '=', userId)
      .where('request_id', '=', requestId)
      .executeTakeFirst();

  /**
   * What a refused twin of a request does to the claim after the request succeeded (two requests with one id and the
   * same arguments at once: the first refused, the other applied): it releases the claim it believes it made.
   */
  async function releaseAsRefusedTwin(userId: number, requestId: string) {
    const claim = await claimOf(userId, requestId);
    if (!claim) return;
    await releaseRequestId(t.db, {
      userId,
      requestId,
      path: claim.call_path,
      digest: claim.request_digest,
      at: t.clock.now(),
    });
  }

  interface Built {
    /** A valid request (request_id included) that succeeds. */
    fields: Record<string, string>;
    /** The same request with one argument changed (same request_id). */
    changed: Record<string, string>;
  }
  type Builder = (user: { id: number; token: string }) => Promise<Built>;

  /**
   * One valid request per call that takes a request id, and a variant with another argument. A call missing here
   * fails the walk: a new money call must be added (and so checked) before it can ship.
   */
  const builders: Record<string, Builder> = {
    'coin/trade': async () => {
      const fields = { symbol: 'BTC', side: 'buy', type: 'market', qty: '0.01', request_id: rid() };
      return { fields, changed: { ...fields, qty: '0.02' } };
    },
    'microtrade/submit': async () => {
      const fields = {
        symbol: 'BTC',
        direction: 'up',
        seconds: '60',
        stake: '10',
        currency: 'USDT',
        account: 'real',
        request_id: rid(),
      };
      return { fields, changed: { ...fields, direction: 'down' } };
    },
    'lever/submit': async () => {
      const fields = {
        symbol: 'BTC',
        side: 'long',
        type: 'market',
        margin_mode: 'isolated',
        lots: '10',
        leverage: '10',
        account: 'real',
        request_id: rid(),
      };
      return { fields, changed: { ...fields, lots: '11' } };
    },
    'lever/add_margin': async (u) => {
      const open = await holding(u.token);
      const fields = { id: String(open.id), amount: '1', request_id: rid() };
      return { fields, changed: { ...fields, amount: '5' } };
    },
    'lever/close': async (u) => {
      const open = await holding(u.token);
      const fields = { id: String(open.id), lots: '3', request_id: rid() };
      return { fields, changed: { ...fields, lots: '4' } };
    },
    'lever/reverse': async (u) => {
      const open = await holding(u.token);
      const another = await holding(u.token);
      const fields = { id: String(open.id), request_id: rid() };
      return { fields, changed: { ...fields, id: String(another.id) } };
    },
    'wallet/change': async () => {
      const fields = { currency: 'USDT', from: 'coin', to: 'contract', amount: '1', request_id: rid() };
      return { fields, changed: { ...fields, amount: '2' } };
    },
    'wallet/charge_req': async (u) => {
      const proof = String(await uploadedId(t, u.token));
      const fields = {
        method: 'crypto',
        coin: 'USDT',
        chain: 'ERC20',
        hash: `0x${String(++requests).padStart(64, 'c')}`,
        amount: '100',
        proof,
        request_id: rid(),
      };
      return { fields, changed: { ...fields, amount: '200' } };
    },
    'wallet/out': async (u) => {
      const address = await withWalletAddresses(t.db)
        .insertInto('withdraw_addresses')
        .values({
          user_id: u.id,
          coin: 'USDT',
          chain: 'ERC20',
          address: USER_ERC20,
          label: null,
          created_at: t.clock.now(),
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const fields = {
        coin: 'USDT',
        chain: 'ERC20',
        address_id: String(address.id),
        amount: '20',
        fund_password: FUND,
        request_id: rid(),
      };
      return { fields, changed: { ...fields, amount: '30' } };
    },
    'lh/deposit': async () => {
      const product = await financeProduct('trust');
      const fields = { product_id: String(product), amount: '500', agree: '1', request_id: rid() };
      return { fields, changed: { ...fields, amount: '600' } };
    },
    'lh/send/order': async () => {
      const product = await financeProduct('hosting');
      const fields = { product_id: String(product), amount: '500', agree: '1', request_id: rid() };
      return { fields, changed: { ...fields, amount: '600' } };
    },
    'ieo/apply': async () => {
      const project = await ieoProject();
      const fields = { project_id: String(project), quantity: '100', request_id: rid() };
      return { fields, changed: { ...fields, quantity: '200' } };
    },
    'ctc/order/add': async () => {
      const ad = await c2cAd();
      const fields = { ad_id: String(ad), quantity: '0.01', pay_type: 'sepa', request_id: rid() };
      return { fields, changed: { ...fields, quantity: '0.02' } };
    },
  };

  let financeReady = false;
  async function financeProduct(family: 'trust' | 'hosting') {
    const lines: string[] = [];
    const run = async (...words: string[]) =>
      expect(await runFinanceCommand(words, t.db, (l) => lines.push(l)), lines.join('\n')).toBe(0);
    if (!financeReady) await run('fund', 'USDT', '1000000');
    financeReady = true;
    await run('add', family, 'USDT', '30', '0.0003', '100', '50000', `Test ${family}`);
    return (
      await withFinance(t.db)
        .selectFrom('finance_products')
        .select('id')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async function ieoProject() {
    const now = t.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const coin = kind === 'sqlite' ? 'RIDS' : 'RIDP';
    // One project per suite (a coin is listed once); each trader subscribes to it once.
    const listed = await withIeo(t.db)
      .selectFrom('ieo_projects')
      .select('id')
      .where('coin', '=', coin)
      .executeTakeFirst();
    if (listed) return listed.id;
    const words = {
      coin,
      name: `${coin} Token`,
      price: '0.05',
      listing: '0.08',
      supply: '1000000',
      cap: '20000',
      total: '100000000',
      circulating: '20000000',
      start: iso(now - 1_000),
      end: iso(now + 3_600_000),
      allot: iso(now + 3_600_000),
      pay: iso(now + 7_200_000),
      list: iso(now + 10_800_000),
      unlock: iso(now + 86_400_000),
      desc: 'A test project',
    };
    const lines: string[] = [];
    const code = await runIeoCommand(['create', ...Object.entries(words).map(([k, v]) => `${k}=${v}`)], t.db, (l) =>
      lines.push(l),
    );
    expect(code, lines.join('\n')).toBe(0);
    return (
      await withIeo(t.db).selectFrom('ieo_projects').select('id').where('coin', '=', coin).executeTakeFirstOrThrow()
    ).id;
  }

  async function c2cAd() {
    const session = await t.registerByEmail(uniqueEmail('merchant'));
    const marked = await addMerchant(t.db, String(session.user.id), `Merchant ${kind} ${++requests}`, {
      operator: 'test',
    });
    expect(marked.ok).toBe(true);
    await fund(session.user.id, 'BTC', '1', 'coin');
    const sepa = { type: 'sepa', name: 'Demo Merchant GmbH', account: 'DE89370400440532013000', note: '' };
    const ad = await ok<{ id: number }>(
      'ctc/merchant/ad/save',
      {
        coin: 'BTC',
        fiat: 'EUR',
        price: '65000.50',
        amount: '0.5',
        min_fiat: '100',
        max_fiat: '50000',
        pay_methods: JSON.stringify([sepa]),
        note: 'Pay within 30 minutes',
      },
      session.token,
    );
    return ad.id;
  }

  beforeAll(async () => {
    ledger = new Ledger(t.handle);
    trade('BTC', '60000.00');
    trade('ETH', '3000.00');
    const set = await setDepositAddress(t.db, 'USDT', 'ERC20', PLATFORM_ERC20, { operator: 'test' });
    if (!set.ok) throw new Error(set.problem);
    await t.engineRounds('lever-engine');
  });

  it('finds the calls that take a request id in the protocol table', () => {
    // The money calls of today; the walk below covers whatever the table holds.
    expect(REQUEST_ID_CALLS).toEqual(
      expect.arrayContaining(['coin/trade', 'lever/add_margin', 'lever/submit', 'microtrade/submit', 'wallet/out']),
    );
    expect(REQUEST_ID_CALLS.every((p) => calls[p].auth)).toBe(true);
  });

  it.each(REQUEST_ID_CALLS)('%s: a retry answers once; the same id with other arguments moves no money', async (p) => {
    const build = builders[p];
    if (!build) {
      throw new Error(`${p} takes a request_id but has no argument builder in request-ids.test.ts: add one`);
    }
    const u = await trader();
    const { fields, changed } = await build(u);
    const first = await ok<{ id?: number }>(p, fields, u.token);
    // The effect committed with its claim confirmed: a refused twin's release cannot free the id for other arguments.
    expect(await claimOf(u.id, String(fields.request_id))).toMatchObject({ call_path: p, applied: 1 });
    await releaseAsRefusedTwin(u.id, String(fields.request_id));
    const again = await ok<{ id?: number }>(p, fields, u.token);
    if (first && typeof first === 'object' && 'id' in first) expect(again.id).toBe(first.id);

    // The same id sent to another call that takes one is another request too (a cheap one, built before counting).
    const elsewhere: CallPath = p === 'wallet/change' ? 'coin/trade' : 'wallet/change';
    const foreign = { ...(await builders[elsewhere]?.(u))?.fields, request_id: String(fields.request_id) };
    const before = await money(u.id);
    const other = await send(p, changed, u.token);
    expect(other.type, JSON.stringify(other)).not.toBe('ok');
    expect(other.message).toBe(reused);
    const refusedElsewhere = await send(elsewhere, foreign, u.token);
    expect(refusedElsewhere.message, JSON.stringify(refusedElsewhere)).toBe(reused);
    expect(await money(u.id)).toEqual(before);
  });

  // A request made before the claims existed has its product row (with that service's own digest) and no claim:
  // the services keep their per-row digests as they were, so its retry still answers and other arguments are still
  // refused. lever/add_margin has no row digest (its id was checked alone before the claims; nothing to keep), and
  // lever/close took no request id before the claims existed, and lever/reverse came after them.
  it.each(REQUEST_ID_CALLS.filter((p) => p !== 'lever/add_margin' && p !== 'lever/close' && p !== 'lever/reverse'))(
    '%s: a retry of a request from before the claims still answers; other arguments are still refused',
    async (p) => {
      const build = builders[p];
      if (!build) throw new Error(`${p} has no argument builder`);
      const u = await trader();
      const { fields, changed } = await build(u);
      const first = await ok<{ id?: number }>(p, fields, u.token);
      await t.db.deleteFrom('request_ids').where('user_id', '=', u.id).execute();
      const before = await money(u.id);
      const other = await send(p, changed, u.token);
      // ieo/apply answers by its own rule first (one subscription per project): refused either way.
      const refusal = p === 'ieo/apply' ? translate('en', 'ieoAlreadySubscribed') : reused;
      expect(other.message, JSON.stringify(other)).toBe(refusal);
      expect(await money(u.id)).toEqual(before);
      const again = await ok<{ id?: number }>(p, fields, u.token);
      if (first && typeof first === 'object' && 'id' in first) expect(again.id).toBe(first.id);
      expect(await money(u.id)).toEqual(before);
    },
  );

  it('lever/add_margin: the same id for another amount or another position is refused, not a silent OK', async () => {
    const u = await trader();
    const P = await holding(u.token);
    const Q = await holding(u.token);
    const X = rid();
    const added = await ok<LeverPosition>(
      'lever/add_margin',
      { id: String(P.id), amount: '1', request_id: X },
      u.token,
    );
    expect(added.additional_margin).toBe('1.000000');
    const before = await money(u.id);

    const more = await send('lever/add_margin', { id: String(P.id), amount: '5', request_id: X }, u.token);
    expect(more.message, JSON.stringify(more)).toBe(reused);
    const moved = await send('lever/add_margin', { id: String(Q.id), amount: '1', request_id: X }, u.token);
    expect(moved.message, JSON.stringify(moved)).toBe(reused);

    expect((await ok<LeverPosition>('lever/info', { id: String(P.id) }, u.token)).additional_margin).toBe('1.000000');
    expect((await ok<LeverPosition>('lever/info', { id: String(Q.id) }, u.token)).additional_margin).toBe('0.000000');
    expect(await money(u.id)).toEqual(before);
    // The retry of the first request still answers with the position it changed.
    const retry = await ok<LeverPosition>(
      'lever/add_margin',
      { id: String(P.id), amount: '1', request_id: X },
      u.token,
    );
    expect(retry).toMatchObject({ id: P.id, additional_margin: '1.000000' });
  });

  it('a refused request keeps no hold on its id: the same id goes through once the request is right', async () => {
    const u = await trader();
    const fields = { currency: 'USDT', from: 'contract', to: 'coin', amount: '20000', request_id: rid() };
    const poor = await send('wallet/change', fields, u.token);
    expect(poor.message).toBe(translate('en', 'insufficientBalance'));
    await fund(u.id, 'USDT', '10000', 'contract');
    await ok('wallet/change', fields, u.token);
    let contract = (await ledger.balances(u.id, 'real')).find((b) => b.type === 'contract' && b.currency === 'USDT');
    expect(contract?.balance).toBe(0);
    // Refused for its amount, then sent again corrected under the same id: each answer is about the request itself.
    const X = rid();
    const tooMuch = await send(
      'wallet/change',
      { ...fields, from: 'coin', to: 'contract', amount: '200000', request_id: X },
      u.token,
    );
    expect(tooMuch.message).toBe(translate('en', 'insufficientBalance'));
    await ok('wallet/change', { ...fields, from: 'coin', to: 'contract', amount: '5', request_id: X }, u.token);
    contract = (await ledger.balances(u.id, 'real')).find((b) => b.type === 'contract' && b.currency === 'USDT');
    expect(contract?.balance).toBe(5_000_000);
  });

  it('two requests with one id at the same time: one effect; with other arguments, one of them is refused', async () => {
    const u = await trader();
    const P = await holding(u.token);
    const X = rid();
    const same = { id: String(P.id), amount: '1', request_id: X };
    const answers = await Promise.all([0, 1, 2].map(() => send('lever/add_margin', same, u.token)));
    expect(answers.map((a) => a.type)).toEqual(['ok', 'ok', 'ok']);
    expect((await ok<LeverPosition>('lever/info', { id: String(P.id) }, u.token)).additional_margin).toBe('1.000000');

    const Y = rid();
    const race = await Promise.all(
      ['2', '3'].map((amount) => send('lever/add_margin', { id: String(P.id), amount, request_id: Y }, u.token)),
    );
    expect(race.filter((a) => a.type === 'ok')).toHaveLength(1);
    expect(race.filter((a) => a.message === reused)).toHaveLength(1);
    const after = await ok<LeverPosition>('lever/info', { id: String(P.id) }, u.token);
    expect(['3.000000', '4.000000']).toContain(after.additional_margin);
    expect(describeProblems(await checkLedger(t.db))).toEqual([]);
  });

  describe('socket commands', () => {
    /** A second server process on the same database (its own answers in memory; the claims are shared). */
    let other: TestApp;
    const urls: string[] = [];
    beforeAll(async () => {
      other = await startTestApp(t.handle);
      for (const app of [t, other]) {
        await app.app.listen({ host: '127.0.0.1', port: 0 });
        urls.push(`http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`);
      }
    });
    afterAll(async () => {
      for (const socket of sockets) socket.disconnect();
      await other?.close();
    });

    async function open(url: string, token: string): Promise<Socket> {
      const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      return socket;
    }
    const command = (socket: Socket, name: string, id: string, args: unknown) =>
      socket.emitWithAck(COMMAND_EVENT, { name, id, args }) as Promise<CommandAnswer>;

    /** A valid command and a variant with another argument, per command: a new command fails the walk until added. */
    const commandBuilders: Record<string, (conversationId: number) => { args: unknown; changed: unknown }> = {
      'chat.send': (conversation_id) => ({
        args: { conversation_id, text: 'Where is my deposit?' },
        changed: { conversation_id, text: 'Never mind, it arrived.' },
      }),
      'chat.read': (conversation_id) => ({
        args: { conversation_id, seq: 0 },
        changed: { conversation_id, seq: 1 },
      }),
    };

    it('every command: the same id with other arguments is refused, on this process and on another', async () => {
      const names = t.app.channels.commandNames();
      expect(names).toEqual(expect.arrayContaining(['chat.send', 'chat.read']));
      for (const name of names) {
        const build = commandBuilders[name];
        if (!build) throw new Error(`command ${name} has no argument builder in request-ids.test.ts: add one`);
        const u = await trader();
        const opened = await ok<{ id: number }>('chat/support/open', { topic: 'other' }, u.token);
        const here = await open(urls[0] as string, u.token);
        const there = await open(urls[1] as string, u.token);
        const { args, changed } = build(opened.id);
        const X = rid();
        const first = await command(here, name, X, args);
        expect(first.ok, `${name}: ${JSON.stringify(first)}`).toBe(true);
        // The retry gets the first answer, here and on the other process.
        expect(await command(here, name, X, args)).toEqual(first);
        expect((await command(there, name, X, args)).ok).toBe(true);
        expect(await claimOf(u.id, X)).toMatchObject({ call_path: name, applied: 1 });

        for (const socket of [here, there]) {
          expect(await command(socket, name, X, changed), name).toEqual({ ok: false, error: 'requestIdReused' });
        }
        // Another command, or a call, under the id is another request too.
        const elsewhere = names.find((n) => n !== name);
        if (elsewhere) {
          const foreign = commandBuilders[elsewhere]?.(opened.id).args;
          expect(await command(there, elsewhere, X, foreign)).toEqual({ ok: false, error: 'requestIdReused' });
        }
        const transfer = { currency: 'USDT', from: 'coin', to: 'contract', amount: '1', request_id: X };
        expect((await send('wallet/change', transfer, u.token)).message).toBe(reused);
        // And the id of a call is not free for a command.
        const Y = rid();
        await ok('wallet/change', { ...transfer, request_id: Y }, u.token);
        expect(await command(there, name, Y, args)).toEqual({ ok: false, error: 'requestIdReused' });
      }
    });

    it('chat.send: one message for the first request, none for the same id with another text', async () => {
      const u = await trader();
      const opened = await ok<{ id: number }>('chat/support/open', { topic: 'other' }, u.token);
      const there = await open(urls[1] as string, u.token);
      const here = await open(urls[0] as string, u.token);
      const X = rid();
      const sent = await command(here, 'chat.send', X, { conversation_id: opened.id, text: 'first' });
      expect(sent.ok).toBe(true);
      await releaseAsRefusedTwin(u.id, X);
      const changed = await command(there, 'chat.send', X, { conversation_id: opened.id, text: 'second' });
      expect(changed).toEqual({ ok: false, error: 'requestIdReused' });
      const texts = await withChat(t.db)
        .selectFrom('chat_messages')
        .select('text')
        .where('conversation_id', '=', opened.id)
        .where('client_id', '=', X)
        .execute();
      expect(texts).toEqual([{ text: 'first' }]);
    });
  });
});
