import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPS_DEPOSIT_PROOF_PATH,
  OPS_KYC_PHOTO_PATH,
  OPS_TOKEN_HEADER,
  type OpsCallSpec,
  opsConsoleCalls,
} from '../../protocol/ops-console';
import { opsInspectionCalls } from '../../protocol/ops-inspection';
import { opsNewsCalls } from '../../protocol/ops-news';
import {
  OPS_ORDER_IMAGE_PATH,
  OPS_SUPPORT_IMAGE_PATH,
  OPS_UPLOAD_PATH,
  opsAppealCalls,
  opsHelpCalls,
  opsSupportCalls,
} from '../../protocol/ops-support';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault } from '../../server/domains/bank-cards';
import { addMerchant, withC2c } from '../../server/domains/c2c';
import { sendAsUser } from '../../server/domains/chat/messages';
import { approveDeposit, setDepositAddress } from '../../server/domains/funding';
import { approveVerification, withIdentity } from '../../server/domains/identity';
import type { OperatorServices } from '../../server/domains/operators';
import { withWalletAddresses } from '../../server/domains/wallet-addresses';
import { parseAmount } from '../../server/ledger/amounts';
import { Ledger } from '../../server/ledger/ledger';
import { runAuditCommand } from '../../server/platform/audit';
import { RateLimiter } from '../../server/platform/security/rate-limit';
import { apiChecks } from './api-checks';
import { consoleClient } from './console-checks';
import {
  DATABASES,
  type Envelope,
  openTestDatabase,
  registeredRoutes,
  startTestApp,
  TEST_HASH_COST,
  type TestApp,
  type TestDatabase,
  uniqueEmail,
} from './harness';
import { fakeJpeg, multipart, uploadedId } from './uploads-helpers';

/**
 * Every console action that changes or shows users' data leaves an audit entry: this walks every route the app
 * registers under /api/ops (the console's call tables that src/console/api.ts joins, the operator upload and the
 * image routes), drives each audited action with a valid call and expects a new entry with the operator, the action,
 * its subject and the time, in `ops/audit` and in `npm run ops -- audit`. A route added under /api/ops must be driven
 * here or listed below with its reason.
 */
const tables = {
  ...opsConsoleCalls,
  ...opsSupportCalls,
  ...opsAppealCalls,
  ...opsHelpCalls,
  ...opsNewsCalls,
  ...opsInspectionCalls,
} as const;
type TablePath = keyof typeof tables;
type ImagePath =
  | typeof OPS_KYC_PHOTO_PATH
  | typeof OPS_DEPOSIT_PROOF_PATH
  | typeof OPS_SUPPORT_IMAGE_PATH
  | typeof OPS_ORDER_IMAGE_PATH;
type Path = TablePath | typeof OPS_UPLOAD_PATH | ImagePath;

/** The paths (relative to /api) of every route the app serves under /api/ops, so a route of any section is walked. */
function registeredOpsPaths(app: FastifyInstance): string[] {
  return registeredRoutes(app)
    .map((route) => route.path)
    .filter((path) => path.startsWith('/api/ops/'))
    .map((path) => path.slice('/api/'.length))
    .sort();
}

/** Calls that record nothing, each with why. */
const EXEMPT: Partial<Record<Path, string>> = {
  'ops/me': "the operator's own name and roles",
  'ops/audit': 'the audit log itself (admins only): logging its reads would fill it with its own reads',
  'ops/help/articles': "help articles are the platform's texts, no user's data",
  'ops/news/articles': "news are the platform's texts, no user's data",
};

/** Audited, but a valid call needs a whole flow that its own test drives and checks the entry of. */
const DRIVEN_ELSEWHERE: Partial<Record<Path, string>> = {};

interface Expected {
  action: string;
  subject_type: string;
  subject_id: string;
}

const PASSWORD = 'correct horse battery';
const FUND = '246810';
const USER_ERC20 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const PLATFORM_ERC20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BASIC = {
  country: 'DE',
  name: 'Erika Mustermann',
  id_number: 'L01X00T47',
  address: 'Heidestraße 17, 51147 Köln',
  consent: '1',
};

describe.each(DATABASES)('console audit of every action on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let s: OperatorServices;
  const dataKey = new Uint8Array(randomBytes(32));
  const { ok } = apiChecks(() => t);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { dataKey, c2cExpiryMs: 3_600_000 });
    s = {
      database: database.handle,
      now: t.clock.now,
      hasher: new PasswordHasher(TEST_HASH_COST),
      vault: new CardVault(dataKey),
    };
    expect((await setDepositAddress(t.db, 'USDT', 'ERC20', PLATFORM_ERC20)).ok).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  const { signedIn, ops: consoleCall } = consoleClient(
    () => t,
    () => s,
    { password: PASSWORD, names: `aud-${kind}-`, ipBlock: 11 },
  );
  const ops = async (path: TablePath, fields: Record<string, string>, token: string) => {
    const body = await consoleCall(tables as Record<string, OpsCallSpec>, path, fields, token);
    expect(body, `${path} ${JSON.stringify(body)}`).toMatchObject({ type: 'ok' });
    return body.data as Record<string, unknown>;
  };
  const newestAuditId = async () =>
    Number((await t.db.selectFrom('ops_audit').select('id').orderBy('id', 'desc').executeTakeFirst())?.id ?? 0);

  /** A user's support conversation with one message from the user. */
  async function conversation(): Promise<string> {
    return (await conversationWith()).id;
  }
  async function conversationWith() {
    const user = await t.registerByEmail(uniqueEmail('aud-chat'));
    const opened = await ok('chat/support/open', { topic: 'account' }, user.token);
    await sendAsUser(
      { database: t.handle, limiter: new RateLimiter(t.handle, t.clock.now), now: t.clock.now },
      user.user.id,
      `aud-${opened.id}`,
      { conversation_id: opened.id, text: 'Hello?' },
    );
    return { id: String(opened.id), user };
  }

  let serial = 0;
  /** A pending crypto deposit of 100 USDT with its proof. */
  async function pendingDeposit(): Promise<string> {
    return pendingDepositOf((await t.registerByEmail(uniqueEmail('aud-dep'))).token);
  }
  async function pendingDepositOf(userToken: string): Promise<string> {
    const user = { token: userToken };
    const proof = await uploadedId(t, user.token, fakeJpeg(3000));
    const r = await t.call(
      'wallet/charge_req',
      {
        coin: 'USDT',
        chain: 'ERC20',
        amount: '100',
        hash: `0x${(++serial).toString(16).padStart(64, 'c')}`,
        proof: String(proof),
        request_id: `aud-dep-${serial}`,
      },
      { token: user.token },
    );
    expect(r.body.type).toBe('ok');
    return String((r.body.data as { id: number }).id);
  }

  /** A basic identity verification waiting for review. */
  async function pendingVerification(): Promise<string> {
    const user = await t.registerByEmail(uniqueEmail('aud-kyc'));
    expect((await t.call('user/real_name', BASIC, { token: user.token })).body.type).toBe('ok');
    const row = await withIdentity(t.db)
      .selectFrom('identity_verifications')
      .select('id')
      .where('user_id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    return String(row.id);
  }

  /** An advanced identity verification waiting for review, with its three photos. */
  async function pendingPhotos(): Promise<string> {
    const user = await t.registerByEmail(uniqueEmail('aud-photo'));
    expect((await t.call('user/real_name', BASIC, { token: user.token })).body.type).toBe('ok');
    const basic = await withIdentity(t.db)
      .selectFrom('identity_verifications')
      .select('id')
      .where('user_id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect((await approveVerification(t.db, basic.id, { operator: 'cli-user' })).ok).toBe(true);
    const photo = async () => String(await uploadedId(t, user.token, fakeJpeg(2100)));
    const fields = { front: await photo(), back: await photo(), hold: await photo(), consent: '1' };
    expect((await t.call('user/real_name2', fields, { token: user.token })).body.type).toBe('ok');
    const row = await withIdentity(t.db)
      .selectFrom('identity_verifications')
      .select('id')
      .where('user_id', '=', user.user.id)
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    return String(row.id);
  }

  /** A pending withdrawal of 20 USDT: fund password, verified identity, a saved address and a balance first. */
  async function pendingWithdrawal(): Promise<string> {
    const user = await t.registerByEmail(uniqueEmail('aud-wd'));
    const fund = { mode: 'password', login_password: 'secret1', password: FUND, repassword: FUND };
    expect((await t.call('user/e_pwd', fund, { token: user.token })).body.type).toBe('ok');
    expect((await t.call('user/real_name', BASIC, { token: user.token })).body.type).toBe('ok');
    const basic = await withIdentity(t.db)
      .selectFrom('identity_verifications')
      .select('id')
      .where('user_id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect((await approveVerification(t.db, basic.id, { operator: 'cli-user' })).ok).toBe(true);
    // Saved straight into the table: saving one over HTTP is the addresses suite's subject.
    const address = await withWalletAddresses(t.db)
      .insertInto('withdraw_addresses')
      .values({
        user_id: user.user.id,
        coin: 'USDT',
        chain: 'ERC20',
        address: USER_ERC20,
        label: null,
        created_at: t.clock.now(),
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const deposit = await pendingDepositOf(user.token);
    expect((await approveDeposit(t.handle, Number(deposit), { operator: 'cli-user' })).ok).toBe(true);
    const r = await t.call(
      'wallet/out',
      {
        coin: 'USDT',
        chain: 'ERC20',
        amount: '20',
        address_id: String(address.id),
        fund_password: FUND,
        request_id: `aud-wd-${++serial}`,
      },
      { token: user.token },
    );
    expect(r.body.type, JSON.stringify(r.body)).toBe('ok');
    return String((r.body.data as { id: number }).id);
  }

  /** A user's photo sent in a conversation (support or order chat) they are a member of. */
  async function userPhoto(userId: number, token: string, conversationId: number): Promise<string> {
    const image = await uploadedId(t, token);
    await sendAsUser(
      { database: t.handle, limiter: new RateLimiter(t.handle, t.clock.now), now: t.clock.now },
      userId,
      `aud-photo-${++serial}`,
      { conversation_id: conversationId, image_id: image },
    );
    return String(image);
  }

  /** GETs a console image; it must be shown. */
  async function shownImage(path: ImagePath, query: Record<string, string>, token: string): Promise<void> {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/${path}?${new URLSearchParams(query)}`,
      headers: { [OPS_TOKEN_HEADER]: token },
    });
    expect(response.statusCode, `${path} ${response.body.slice(0, 200)}`).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
  }

  /** A C2C order whose buyer appealed after paying, with a photo the buyer sent in its chat. */
  async function appealedOrder(): Promise<{ id: string; conversation: string; image: string }> {
    const merchant = await t.registerByEmail(uniqueEmail('aud-m'));
    const buyer = await t.registerByEmail(uniqueEmail('aud-b'));
    expect((await addMerchant(t.db, String(merchant.user.id), `Audit Merchant ${kind}`, { operator: 'test' })).ok).toBe(
      true,
    );
    const units = parseAmount('BTC', '1');
    if (!units.ok) throw new Error(units.error);
    await new Ledger(t.handle).credit({
      userId: merchant.user.id,
      requestId: `aud-seed-${kind}`,
      kind: 'deposit',
      currency: 'BTC',
      amount: units.units,
      from: 'deposits_clearing',
      to: 'coin',
    });
    const ad = await ok(
      'ctc/merchant/ad/save',
      {
        coin: 'BTC',
        fiat: 'EUR',
        price: '60000',
        amount: '0.5',
        min_fiat: '10',
        max_fiat: '50000',
        pay_methods: JSON.stringify([{ type: 'sepa', name: 'M', account: 'DE89370400440532013000', note: '' }]),
      },
      merchant.token,
    );
    const order = await ok(
      'ctc/order/add',
      { ad_id: String(ad.id), quantity: '0.01', pay_type: 'sepa', request_id: `aud-${kind}` },
      buyer.token,
    );
    await ok('ctc/order/pay', { id: String(order.id) }, buyer.token);
    await ok('ctc/order/appeal', { id: String(order.id), reason: 'Paid, nothing released' }, buyer.token);
    const row = await withC2c(t.db)
      .selectFrom('c2c_orders')
      .select('conversation_id')
      .where('id', '=', Number(order.id))
      .executeTakeFirstOrThrow();
    if (row.conversation_id === null) throw new Error('an order without its chat');
    const image = await userPhoto(buyer.user.id, buyer.token, row.conversation_id);
    return { id: String(order.id), conversation: String(row.conversation_id), image };
  }

  const HELP = {
    topic: 'deposit',
    sort_order: '5',
    'de.title': 'Einzahlung',
    'de.body': 'So geht es.',
    'en.title': 'Deposits',
    'en.body': 'This is how.',
  };
  const NEWS = {
    kind: 'announcement',
    'de.title': 'Neue Coins',
    'de.body': 'Ab heute handelbar.',
    'en.title': 'New coins',
    'en.body': 'Tradable from today.',
    'zh.title': '新币',
    'zh.body': '今天起可交易。',
  };

  it('writes an entry for every console action that changes or shows users data', async () => {
    const admin = await signedIn(['admin']);
    const token = admin.token;
    const view = (action: string, subject_type: string, subject_id: string): Expected => ({
      action,
      subject_type,
      subject_id,
    });
    let helpId = '';
    let newsId = '';
    let chatId = '';
    let chatUser: { user: { id: number }; token: string } | undefined;
    let appeal = { id: '', conversation: '', image: '' };

    /** Each audited action: a valid call (any set-up first), and the entry it must leave. */
    const drivers: Partial<Record<Path, () => Promise<Expected>>> = {
      'ops/login': async () => {
        const other = await signedIn(['support']);
        return view('ops.login', 'operator', String(other.id));
      },
      'ops/logout': async () => {
        const other = await signedIn(['support']);
        await ops('ops/logout', {}, other.token);
        return view('ops.logout', 'operator', String(other.id));
      },
      'ops/deposits': async () => {
        await pendingDeposit();
        await ops('ops/deposits', {}, token);
        return view('deposits.view', 'deposits', 'pending');
      },
      'ops/deposits/approve': async () => {
        const id = await pendingDeposit();
        await ops('ops/deposits/approve', { id }, token);
        return view('deposit.approve', 'deposit', id);
      },
      'ops/deposits/reject': async () => {
        const id = await pendingDeposit();
        await ops('ops/deposits/reject', { id, reason: 'No such transfer' }, token);
        return view('deposit.reject', 'deposit', id);
      },
      [OPS_DEPOSIT_PROOF_PATH]: async () => {
        const id = await pendingDeposit();
        await shownImage(OPS_DEPOSIT_PROOF_PATH, { id }, token);
        return view('deposit.proof_view', 'deposit', id);
      },
      'ops/withdrawals': async () => {
        // A queue that shows a row (an empty one reveals nothing and is not recorded).
        await pendingWithdrawal();
        await ops('ops/withdrawals', {}, token);
        return view('withdrawals.view', 'withdrawals', 'pending');
      },
      'ops/withdrawals/approve': async () => {
        const id = await pendingWithdrawal();
        await ops('ops/withdrawals/approve', { id }, token);
        return view('withdrawal.approve', 'withdrawal', id);
      },
      'ops/withdrawals/reject': async () => {
        const id = await pendingWithdrawal();
        await ops('ops/withdrawals/reject', { id, reason: 'Address on a sanctions list' }, token);
        return view('withdrawal.reject', 'withdrawal', id);
      },
      'ops/kyc': async () => {
        await pendingVerification();
        await ops('ops/kyc', {}, token);
        return view('identity_verifications.view', 'identity_verifications', 'pending');
      },
      'ops/kyc/approve': async () => {
        const id = await pendingVerification();
        await ops('ops/kyc/approve', { id }, token);
        return view('kyc.approve', 'identity_verification', id);
      },
      'ops/kyc/reject': async () => {
        const id = await pendingVerification();
        await ops('ops/kyc/reject', { id, reason: 'Blurred' }, token);
        return view('kyc.reject', 'identity_verification', id);
      },
      [OPS_KYC_PHOTO_PATH]: async () => {
        const id = await pendingPhotos();
        await shownImage(OPS_KYC_PHOTO_PATH, { id, side: 'hold' }, token);
        return view('kyc.photo_view', 'identity_verification', id);
      },
      'ops/support/inbox': async () => {
        const opened = await conversationWith();
        chatId = opened.id;
        chatUser = opened.user;
        await ops('ops/support/inbox', {}, token);
        return view('support.inbox_view', 'chat_conversations', 'open');
      },
      'ops/support/messages': async () => {
        await ops('ops/support/messages', { id: chatId }, token);
        return view('support.view', 'chat_conversation', chatId);
      },
      'ops/support/read': async () => {
        await ops('ops/support/read', { id: chatId, seq: '1' }, token);
        return view('support.read', 'chat_conversation', chatId);
      },
      'ops/support/send': async () => {
        await ops('ops/support/send', { id: chatId, text: 'We are on it.', client_id: 'audit-text-1' }, token);
        return view('support.send', 'chat_conversation', chatId);
      },
      [OPS_UPLOAD_PATH]: async () => {
        const form = multipart([{ name: 'file', filename: 'answer.jpg', type: 'image/jpeg', data: fakeJpeg() }]);
        const response = await t.app.inject({
          method: 'POST',
          url: `/api/${OPS_UPLOAD_PATH}`,
          headers: { [OPS_TOKEN_HEADER]: token, 'content-type': form.contentType },
          payload: form.body,
        });
        const uploaded = response.json<Envelope>();
        expect(uploaded.type).toBe('ok');
        const imageId = String((uploaded.data as { id: number }).id);
        // The photo sent is audited too: as a send naming the image.
        const before = await newestAuditId();
        await ops('ops/support/send', { id: chatId, image_id: imageId, client_id: 'audit-photo-1' }, token);
        const sent = await t.db.selectFrom('ops_audit').selectAll().where('id', '>', before).execute();
        expect(sent.map((e) => [e.action, e.subject_id, JSON.parse(e.detail).image_id])).toEqual([
          ['support.send', chatId, Number(imageId)],
        ]);
        return view('support.upload', 'upload', imageId);
      },
      [OPS_SUPPORT_IMAGE_PATH]: async () => {
        if (!chatUser) throw new Error('the inbox driver opens the conversation first');
        const image = await userPhoto(chatUser.user.id, chatUser.token, Number(chatId));
        await shownImage(OPS_SUPPORT_IMAGE_PATH, { conversation: chatId, id: image }, token);
        return view('support.image_view', 'chat_conversation', chatId);
      },
      'ops/support/close': async () => {
        await ops('ops/support/close', { id: chatId }, token);
        return view('support.close', 'chat_conversation', chatId);
      },
      'ops/c2c/appeals': async () => {
        appeal = await appealedOrder();
        await ops('ops/c2c/appeals', {}, token);
        return view('c2c_appeal.list_view', 'c2c_orders', 'appeal');
      },
      'ops/c2c/chat': async () => {
        await ops('ops/c2c/chat', { id: appeal.id }, token);
        return view('c2c_appeal.chat_view', 'c2c_order', appeal.id);
      },
      [OPS_ORDER_IMAGE_PATH]: async () => {
        await shownImage(OPS_ORDER_IMAGE_PATH, { conversation: appeal.conversation, id: appeal.image }, token);
        return view('c2c_appeal.image_view', 'c2c_order', appeal.id);
      },
      'ops/c2c/resolve': async () => {
        await ops('ops/c2c/resolve', { id: appeal.id, decision: 'release', reason: 'Payment seen' }, token);
        return view('c2c_appeal.resolve', 'c2c_order', appeal.id);
      },
      'ops/help/save': async () => {
        helpId = String((await ops('ops/help/save', HELP, token)).id);
        return view('help_article.create', 'help_article', helpId);
      },
      'ops/help/publish': async () => {
        await ops('ops/help/publish', { id: helpId, published: '1' }, token);
        return view('help_article.publish', 'help_article', helpId);
      },
      'ops/help/delete': async () => {
        await ops('ops/help/delete', { id: helpId }, token);
        return view('help_article.delete', 'help_article', helpId);
      },
      'ops/news/save': async () => {
        newsId = String((await ops('ops/news/save', NEWS, token)).id);
        return view('news_article.create', 'news_article', newsId);
      },
      'ops/news/publish': async () => {
        await ops('ops/news/publish', { id: newsId, published: '1' }, token);
        return view('news_article.publish', 'news_article', newsId);
      },
      'ops/news/delete': async () => {
        await ops('ops/news/delete', { id: newsId }, token);
        return view('news_article.delete', 'news_article', newsId);
      },
      'ops/qa/orders': async () => {
        await ops('ops/qa/orders', {}, token);
        return view('qa.orders_view', 'actor_traces', '*');
      },
      'ops/qa/trace': async () => {
        await ops('ops/qa/trace', { machine: 'spot-order', order: '1' }, token);
        return view('qa.trace_view', 'actor_traces', 'spot-order:1');
      },
    };

    // What is walked is what the app serves under /api/ops, whoever registered it; the call tables are all in it.
    const paths = registeredOpsPaths(t.app);
    for (const path of Object.keys(tables)) expect(paths, path).toContain(path);
    // Every route is driven here, driven elsewhere, or exempt with a reason; never two of these.
    for (const path of paths) {
      const kinds = [path in drivers, path in DRIVEN_ELSEWHERE, path in EXEMPT].filter(Boolean);
      expect(kinds, `${path}: drive it here (and audit it), or list it with a reason`).toHaveLength(1);
    }
    for (const path of Object.keys(drivers)) expect(paths, path).toContain(path);

    for (const [path, drive] of Object.entries(drivers) as [Path, () => Promise<Expected>][]) {
      t.clock.advance(1_000);
      const before = await newestAuditId();
      const expected = await drive();
      const entries = await t.db.selectFrom('ops_audit').selectAll().where('id', '>', before).execute();
      const operatorOf = path === 'ops/login' || path === 'ops/logout' ? expect.any(String) : admin.name;
      expect(
        entries.map((e) => ({
          action: e.action,
          subject_type: e.subject_type,
          subject_id: e.subject_id,
          operator: e.operator,
          at: e.at,
        })),
        path,
      ).toContainEqual({ ...expected, operator: operatorOf, at: t.clock.now() });
    }

    // The console's audit screen and the CLI show them (the newest here: the last driver's).
    const page = await ops('ops/audit', { limit: '5' }, token);
    expect((page.items as { action: string; operator: string }[])[0]).toMatchObject({
      action: 'qa.trace_view',
      operator: admin.name,
    });
    const lines: string[] = [];
    expect(await runAuditCommand(['5'], t.db, (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toContain('qa.trace_view');
    expect(lines[0]).toContain(admin.name);
    expect(lines[0]).toContain('actor_traces spot-order:1');
  });

  it('records a read once per session, however often the console polls it, and a refused read not at all', async () => {
    const support = await signedIn(['support']);
    const id = await conversation();
    const before = await newestAuditId();
    for (let i = 0; i < 3; i++) await ops('ops/support/messages', { id }, support.token);
    const views = () =>
      t.db
        .selectFrom('ops_audit')
        .select(['action', 'subject_id', 'operator'])
        .where('id', '>', before)
        .where('action', '=', 'support.view')
        .execute();
    expect(await views()).toEqual([{ action: 'support.view', subject_id: id, operator: support.name }]);
    // Another operator's session records its own view.
    const colleague = await signedIn(['support']);
    await ops('ops/support/messages', { id }, colleague.token);
    expect((await views()).map((v) => v.operator)).toEqual([support.name, colleague.name]);
    // A read the server refuses (no such conversation) showed nothing and records nothing.
    const refused = await consoleCall(tables, 'ops/support/messages', { id: '999999' }, support.token);
    expect(refused.type).toBe('error');
    expect(await views()).toHaveLength(2);
  });

  it('records who saw which identity photo once per session and photo, and an image not shown not at all', async () => {
    const reviewer = await signedIn(['reviewer']);
    const id = await pendingPhotos();
    const before = await newestAuditId();
    for (let i = 0; i < 3; i++) await shownImage(OPS_KYC_PHOTO_PATH, { id, side: 'front' }, reviewer.token);
    await shownImage(OPS_KYC_PHOTO_PATH, { id, side: 'back' }, reviewer.token);
    const fetchPhoto = (side: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/${OPS_KYC_PHOTO_PATH}?${new URLSearchParams({ id, side })}`,
        headers: { [OPS_TOKEN_HEADER]: reviewer.token },
      });
    expect((await fetchPhoto('selfie')).statusCode).toBe(404);
    const seen = async () =>
      (await t.db.selectFrom('ops_audit').selectAll().where('id', '>', before).execute()).map((e) => ({
        action: e.action,
        subject: `${e.subject_type} ${e.subject_id}`,
        operator: e.operator,
        side: JSON.parse(e.detail).side,
      }));
    const photo = (side: string) => ({
      action: 'kyc.photo_view',
      subject: `identity_verification ${id}`,
      operator: reviewer.name,
      side,
    });
    expect(await seen()).toEqual([photo('front'), photo('back')]);
    // Once decided, the photos are no longer the console's to show, and a refused fetch records nothing.
    expect((await consoleCall(tables, 'ops/kyc/approve', { id }, reviewer.token)).type).toBe('ok');
    const after = await newestAuditId();
    expect((await fetchPhoto('hold')).statusCode).toBe(404);
    expect(await newestAuditId()).toBe(after);
  });
});
