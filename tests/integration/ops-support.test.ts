import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessagesPage } from '../../protocol/chat';
import { OPS_TOKEN_HEADER } from '../../protocol/ops-console';
import {
  OPS_SUPPORT_IMAGE_PATH,
  OPS_UPLOAD_PATH,
  opsAppealCalls,
  opsHelpCalls,
  opsSupportCalls,
} from '../../protocol/ops-support';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault } from '../../server/domains/bank-cards';
import { addMerchant } from '../../server/domains/c2c';
import { sendAsUser } from '../../server/domains/chat/messages';
import type { OperatorServices } from '../../server/domains/operators';
import { parseAmount } from '../../server/ledger/amounts';
import { Ledger } from '../../server/ledger/ledger';
import { translate } from '../../server/platform/i18n/messages';
import { RateLimiter } from '../../server/platform/security/rate-limit';
import { apiChecks } from './api-checks';
import { consoleClient } from './console-checks';
import {
  DATABASES,
  type Envelope,
  openTestDatabase,
  startTestApp,
  TEST_HASH_COST,
  type TestApp,
  type TestDatabase,
  uniqueEmail,
} from './harness';
import { fakeJpeg, multipart, uploadedId } from './uploads-helpers';

/**
 * The console's support inbox and C2C appeals over the real app: support reads a user's conversation, answers (the
 * user gets the answer as "support" with the operator's name), marks it read (the user sees the receipt) and closes it
 * (audited); a reviewer decides an appeal with a reason (audited with the operator's name) after reading the order's
 * chat. Each section refuses operators without its role and users' tokens altogether.
 */
const PASSWORD = 'correct horse battery';
const calls = { ...opsSupportCalls, ...opsAppealCalls, ...opsHelpCalls };
type Path = keyof typeof calls;

describe.each(DATABASES)('console support inbox and appeals on %s', (kind) => {
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
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  const { signedIn, ops: consoleCall } = consoleClient(
    () => t,
    () => s,
    { password: PASSWORD, names: `sup-${kind}-`, ipBlock: 9 },
  );
  const ops = (path: Path, fields: Record<string, string>, token: string) => consoleCall(calls, path, fields, token);

  it('answers a user from the inbox, live for the user, with receipts, and closes the conversation', async () => {
    const user = await t.registerByEmail(uniqueEmail('inbox'));
    const conversation = await ok('chat/support/open', { topic: 'withdrawal' }, user.token);
    // The user's message goes over the socket in the app; here through the service its command calls.
    await sendAsUser(
      { database: t.handle, limiter: new RateLimiter(t.handle, t.clock.now), now: t.clock.now },
      user.user.id,
      'u-1',
      {
        conversation_id: conversation.id,
        text: 'Where is my withdrawal?',
      },
    );
    const support = await signedIn(['support']);
    const inbox = await ops('ops/support/inbox', {}, support.token);
    const row = (inbox.data as { conversations: { id: number; unread: number; peer: string }[] }).conversations.find(
      (c) => c.id === conversation.id,
    );
    expect(row).toMatchObject({ unread: 1, peer: user.user.username });
    const page = (await ops('ops/support/messages', { id: String(conversation.id) }, support.token))
      .data as ChatMessagesPage;
    expect(page.messages.map((m) => [m.from, m.text])).toEqual([['user', 'Where is my withdrawal?']]);

    // Support has read it: the user sees the receipt.
    expect((await ops('ops/support/read', { id: String(conversation.id), seq: '1' }, support.token)).type).toBe('ok');
    expect(await ok('chat/info', { id: String(conversation.id) }, user.token)).toMatchObject({ peer_read_seq: 1 });

    const answer = await ops(
      'ops/support/send',
      { id: String(conversation.id), text: 'It is on its way.', client_id: 'console-answer-1' },
      support.token,
    );
    expect(answer).toMatchObject({ type: 'ok', data: { from: 'self', seq: 2 } });
    // A retry of the same answer posts nothing new.
    const again = await ops(
      'ops/support/send',
      { id: String(conversation.id), text: 'It is on its way.', client_id: 'console-answer-1' },
      support.token,
    );
    expect(again.data).toEqual(answer.data);

    const seen = await ok('chat/messages', { id: String(conversation.id) }, user.token);
    expect(seen.messages.map((m) => [m.from, m.author, m.text])).toEqual([
      ['self', user.user.username, 'Where is my withdrawal?'],
      ['support', '', 'It is on its way.'],
    ]);
    expect(seen.conversation).toMatchObject({ peer_read_seq: 2, unread: 1 });

    expect((await ops('ops/support/close', { id: String(conversation.id) }, support.token)).type).toBe('ok');
    expect((await ok('chat/info', { id: String(conversation.id) }, user.token)).state).toBe('closed');
    const audit = await t.db.selectFrom('ops_audit').selectAll().where('action', '=', 'support.close').execute();
    expect(audit.some((r) => r.subject_id === String(conversation.id) && r.operator === support.name)).toBe(true);
    // Closed: no more answers.
    const late = await ops(
      'ops/support/send',
      { id: String(conversation.id), text: 'One more thing', client_id: 'console-answer-2' },
      support.token,
    );
    expect(late.message).toBe(translate('en', 'chatClosed'));
  });

  it('refuses each section to operators without its role and to user tokens', async () => {
    const user = await t.registerByEmail(uniqueEmail('nosupport'));
    const reviewer = await signedIn(['reviewer']);
    const support = await signedIn(['support']);
    for (const path of Object.keys(opsSupportCalls) as Path[]) {
      const refused = await ops(path, { id: '1', seq: '1', text: 'x', client_id: 'abcdefgh1' }, reviewer.token);
      expect({ path, refused }).toMatchObject({ refused: { message: translate('en', 'opsForbidden') } });
      expect(refused.data).toBeUndefined();
      expect((await ops(path, { id: '1' }, user.token)).type).toBe(999);
    }
    for (const path of Object.keys(opsAppealCalls) as Path[]) {
      const refused = await ops(path, { id: '1', decision: 'release', reason: 'x' }, support.token);
      expect({ path, refused }).toMatchObject({ refused: { message: translate('en', 'opsForbidden') } });
      expect((await ops(path, { id: '1' }, user.token)).type).toBe(999);
    }
    // An order chat is not a support conversation: support cannot read it by id through the inbox.
    expect((await ops('ops/support/messages', { id: '999999' }, support.token)).message).toBe(
      translate('en', 'chatNotFound'),
    );
  });

  it('decides a C2C appeal with a reason after reading the order chat, audited with the operator', async () => {
    const merchant = await t.registerByEmail(uniqueEmail('appeal-m'));
    const buyer = await t.registerByEmail(uniqueEmail('appeal-b'));
    expect(
      (await addMerchant(t.db, String(merchant.user.id), `Appeal Merchant ${kind}`, { operator: 'test' })).ok,
    ).toBe(true);
    const units = parseAmount('BTC', '1');
    if (!units.ok) throw new Error(units.error);
    const ledger = new Ledger(t.handle);
    await ledger.credit({
      userId: merchant.user.id,
      requestId: `appeal-seed-${kind}`,
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
      { ad_id: String(ad.id), quantity: '0.01', pay_type: 'sepa', request_id: `appeal-${kind}` },
      buyer.token,
    );
    await ok('ctc/order/pay', { id: String(order.id) }, buyer.token);
    await ok('ctc/order/appeal', { id: String(order.id), reason: 'Paid, nothing released' }, buyer.token);

    const reviewer = await signedIn(['reviewer']);
    const appeals = (await ops('ops/c2c/appeals', {}, reviewer.token)).data as { items: { id: number }[] };
    expect(appeals.items.find((a) => a.id === order.id)).toMatchObject({
      id: order.id,
      quantity: '0.01000000',
      amount: '600.00',
      by: 'buyer',
      reason: 'Paid, nothing released',
    });
    const chat = (await ops('ops/c2c/chat', { id: String(order.id) }, reviewer.token)).data as ChatMessagesPage;
    expect(chat.messages.map((m) => m.text)).toEqual(['c2c.event.paid', 'c2c.event.appealed']);
    // A decision needs a reason.
    expect(
      (await ops('ops/c2c/resolve', { id: String(order.id), decision: 'release', reason: ' ' }, reviewer.token)).type,
    ).not.toBe('ok');
    const resolved = await ops(
      'ops/c2c/resolve',
      { id: String(order.id), decision: 'release', reason: 'Bank statement shows the payment' },
      reviewer.token,
    );
    expect(resolved.type).toBe('ok');
    expect(await ok('ctc/order/info', { id: String(order.id) }, buyer.token)).toMatchObject({
      status: 3,
      appeal: { decision: 'release', decision_reason: 'Bank statement shows the payment' },
    });
    const buyerBtc = (await ledger.balances(buyer.user.id, 'real')).find(
      (b) => b.currency === 'BTC' && b.type === 'coin',
    );
    expect(buyerBtc?.available).toBe(1_000_000);
    const audit = await t.db.selectFrom('ops_audit').selectAll().where('subject_id', '=', String(order.id)).execute();
    expect(audit.some((r) => r.operator === reviewer.name)).toBe(true);
    // Decided once: a second decision is refused and changes nothing.
    const twice = await ops(
      'ops/c2c/resolve',
      { id: String(order.id), decision: 'cancel', reason: 'Changed my mind' },
      reviewer.token,
    );
    expect(twice.type).not.toBe('ok');
    expect((await ok('ctc/order/info', { id: String(order.id) }, buyer.token)).status).toBe(3);
  });

  it('writes, publishes and deletes help articles for support only, audited with the operator', async () => {
    const support = await signedIn(['support']);
    const reviewer = await signedIn(['reviewer']);
    const fields = {
      topic: 'deposit',
      sort_order: '5',
      'de.title': 'Einzahlung per SEPA',
      'de.body': 'So geht es.',
      'en.title': 'Deposits by SEPA',
      'en.body': 'This is how.',
    };
    expect((await ops('ops/help/save', fields, reviewer.token)).message).toBe(translate('en', 'opsForbidden'));
    const saved = await ops('ops/help/save', fields, support.token);
    expect(saved).toMatchObject({ type: 'ok', data: { topic: 'deposit', published: false } });
    const id = String((saved.data as { id: number }).id);
    // A draft is not in the help centre; published, it is.
    const listed = async () => (await ok('help/list', { q: 'SEPA' })).articles.map((a) => a.id);
    expect(await listed()).not.toContain(Number(id));
    expect((await ops('ops/help/publish', { id, published: '1' }, support.token)).type).toBe('ok');
    expect(await listed()).toContain(Number(id));
    // Bad input is refused in the envelope and changes nothing.
    const bad = await ops('ops/help/save', { ...fields, id, topic: 'lottery' }, support.token);
    expect(bad.message).toBe(translate('en', 'helpTopicInvalid'));
    expect((await ops('ops/help/delete', { id }, support.token)).type).toBe('ok');
    expect(await listed()).not.toContain(Number(id));
    const audit = await t.db.selectFrom('ops_audit').selectAll().where('operator', '=', support.name).execute();
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });

  it('shows support the photos of a support conversation, and nobody else', async () => {
    const user = await t.registerByEmail(uniqueEmail('photo'));
    const conversation = await ok('chat/support/open', { topic: 'deposit' }, user.token);
    const image = await uploadedId(t, user.token);
    await sendAsUser(
      { database: t.handle, limiter: new RateLimiter(t.handle, t.clock.now), now: t.clock.now },
      user.user.id,
      'photo-1',
      { conversation_id: conversation.id, image_id: image },
    );
    const support = await signedIn(['support']);
    const reviewer = await signedIn(['reviewer']);
    const fetchImage = (token: string, conversationId: number, id: number) =>
      t.app.inject({
        method: 'GET',
        url: `/api/${OPS_SUPPORT_IMAGE_PATH}?conversation=${conversationId}&id=${id}`,
        headers: { [OPS_TOKEN_HEADER]: token },
      });
    const shown = await fetchImage(support.token, conversation.id, image);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect((await fetchImage(reviewer.token, conversation.id, image)).statusCode).toBe(403);
    expect((await fetchImage(support.token, conversation.id + 1000, image)).statusCode).toBe(404);
    // Another of the user's uploads, never sent in the chat, is not the console's to see.
    const unsent = await uploadedId(t, user.token);
    expect((await fetchImage(support.token, conversation.id, unsent)).statusCode).toBe(404);
    expect((await fetchImage(user.token, conversation.id, image)).json()).toMatchObject({ type: 999 });
  });

  it('lets support answer with a photo that only the conversation sees', async () => {
    const user = await t.registerByEmail(uniqueEmail('photo-answer'));
    const stranger = await t.registerByEmail(uniqueEmail('photo-stranger'));
    const conversation = await ok('chat/support/open', { topic: 'account' }, user.token);
    const support = await signedIn(['support']);
    const reviewer = await signedIn(['reviewer']);
    const uploadAs = (headers: Record<string, string>) => {
      const form = multipart([{ name: 'file', filename: 'answer.jpg', type: 'image/jpeg', data: fakeJpeg() }]);
      return t.app.inject({
        method: 'POST',
        url: `/api/${OPS_UPLOAD_PATH}`,
        headers: { ...headers, 'content-type': form.contentType },
        payload: form.body,
      });
    };
    expect((await uploadAs({ [OPS_TOKEN_HEADER]: reviewer.token })).statusCode).toBe(403);
    expect((await uploadAs({ authorization: user.token })).json()).toMatchObject({ type: 999 });
    const uploaded = (await uploadAs({ [OPS_TOKEN_HEADER]: support.token })).json<Envelope>();
    expect(uploaded).toMatchObject({ type: 'ok', data: { mime: 'image/jpeg' } });
    const imageId = String((uploaded.data as { id: number }).id);
    // Neither text nor photo, or both: refused.
    expect(
      (await ops('ops/support/send', { id: String(conversation.id), client_id: 'photo-answer-0' }, support.token)).type,
    ).not.toBe('ok');
    const sent = await ops(
      'ops/support/send',
      { id: String(conversation.id), image_id: imageId, client_id: 'photo-answer-1' },
      support.token,
    );
    expect(sent).toMatchObject({ type: 'ok', data: { kind: 'image', from: 'self' } });
    const seen = await ok('chat/messages', { id: String(conversation.id) }, user.token);
    expect(seen.messages.map((m) => [m.from, m.kind, m.image_id])).toEqual([['support', 'image', Number(imageId)]]);
    const fetchAs = (token: string) =>
      t.app.inject({ method: 'GET', url: `/api/upload/file?id=${imageId}`, headers: { authorization: token } });
    expect((await fetchAs(user.token)).statusCode).toBe(200);
    expect((await fetchAs(stranger.token)).statusCode).toBe(404);
    // The same photo cannot be sent into another conversation.
    const other = await ok('chat/support/open', { topic: 'other' }, stranger.token);
    const again = await ops(
      'ops/support/send',
      { id: String(other.id), image_id: imageId, client_id: 'photo-answer-2' },
      support.token,
    );
    expect(again.message).toBe(translate('en', 'uploadNotFound'));
  });
});
