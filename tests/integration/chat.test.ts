import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChatMessage, chatTopicMessage } from '../../protocol/chat';
import { COMMAND_EVENT, type CommandAnswer, PRIVATE_EVENT, privateMessage } from '../../protocol/realtime';
import {
  CHAT_MESSAGES_PER_MINUTE,
  closeSupport,
  openOrderConversation,
  postSystemMessage,
  sendAsOperator,
  setCustomerUrl,
  supportInbox,
  withChat,
} from '../../server/domains/chat';
import { writeTransaction } from '../../server/platform/db/transaction';
import { apiChecks } from './api-checks';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';
import { uploadedId } from './uploads-helpers';

/** A small seeded generator, so a failing run of the "random" drops can be replayed. */
function seeded(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe.each(DATABASES)('chat on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let url: string;
  const sockets: Socket[] = [];
  const { ok, refused } = apiChecks(() => t);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { userEventsPollMs: 30 });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
    await database?.close();
  });

  async function open(token: string): Promise<Socket> {
    const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return socket;
  }

  const send = (socket: Socket, id: string, args: unknown) =>
    socket.emitWithAck(COMMAND_EVENT, { name: 'chat.send', id, args }) as Promise<CommandAnswer>;

  /** Two users and an order chat between them (as the C2C module opens it). */
  async function orderChat() {
    const buyer = await t.registerByEmail(uniqueEmail('buyer'));
    const merchant = await t.registerByEmail(uniqueEmail('merchant'));
    const orderId = 1_000_000 + buyer.user.id;
    const id = await writeTransaction(t.handle, (trx) =>
      openOrderConversation(trx, {
        orderId,
        buyerId: buyer.user.id,
        merchantId: merchant.user.id,
        buyerName: 'buyer-nick',
        merchantName: 'merchant-nick',
        at: t.clock.now(),
      }),
    );
    return { buyer, merchant, id };
  }

  async function dbMessages(id: number) {
    return withChat(t.db)
      .selectFrom('chat_messages')
      .selectAll()
      .where('conversation_id', '=', id)
      .orderBy('seq')
      .execute();
  }

  it('delivers 50 messages sent while the connection drops at random: each once, in order; retries post once', async () => {
    const { buyer, merchant, id } = await orderChat();
    const random = seeded(kind === 'sqlite' ? 13 : 29);

    // The merchant's side: live messages from the topic, and after every reconnect (or a gap in the topic's numbers)
    // a catch-up from chat/messages after the last number seen, the way the app's chat stream does it.
    const received = new Map<number, ChatMessage>();
    let lastSeq = 0;
    const catchUp = async () => {
      const page = await ok(
        'chat/messages',
        { id: String(id), after_seq: String(lastSeq), limit: '100' },
        merchant.token,
      );
      for (const m of page.messages) received.set(m.seq, m);
      lastSeq = Math.max(lastSeq, ...page.messages.map((m) => m.seq));
    };
    let reader = await open(merchant.token);
    const listen = (socket: Socket) => {
      let topicSeq = -1;
      socket.on(PRIVATE_EVENT, (raw: unknown) => {
        const message = privateMessage.parse(raw);
        const gap = topicSeq >= 0 && message.seq !== topicSeq + 1;
        topicSeq = message.seq;
        const data = chatTopicMessage.parse(message.data);
        if (gap) void catchUp();
        if (data.kind === 'message' && data.message.conversation_id === id) {
          received.set(data.message.seq, data.message);
          lastSeq = Math.max(lastSeq, data.message.seq);
        }
      });
      return socket.emitWithAck('subscribe', 'me:chat');
    };
    await listen(reader);

    let writer = await open(buyer.token);
    const texts = Array.from({ length: 50 }, (_, i) => `message ${i + 1}`);
    let retries = 0;
    for (const [i, text] of texts.entries()) {
      const clientId = `client-${kind}-${i + 1}`;
      // Sometimes the acknowledgement is lost: the socket drops right after sending (the server may or may not have
      // posted it); the app then sends again with the same client id.
      if (random() < 0.25) {
        writer.emit(COMMAND_EVENT, { name: 'chat.send', id: clientId, args: { conversation_id: id, text } });
        writer.disconnect();
        writer = await open(buyer.token);
        retries += 1;
      }
      const answer = await send(writer, clientId, { conversation_id: id, text });
      expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true });
      // And sometimes the reader's connection drops: it resubscribes and catches up.
      if (random() < 0.2) {
        reader.disconnect();
        reader = await open(merchant.token);
        await listen(reader);
        await catchUp();
      }
      // Stay under the per-minute limit: the test's clock moves, not the wall clock.
      t.clock.advance(60_000 / CHAT_MESSAGES_PER_MINUTE + 1);
    }
    expect(retries).toBeGreaterThan(3);
    await vi.waitFor(async () => {
      await catchUp();
      expect(received.size).toBe(50);
    });
    const ordered = [...received.values()].sort((a, b) => a.seq - b.seq);
    expect(ordered.map((m) => m.text)).toEqual(texts);
    expect(ordered.map((m) => m.seq)).toEqual(texts.map((_, i) => i + 1));
    expect(ordered.every((m) => m.from === 'peer' && m.author === 'buyer-nick' && m.client_id === null)).toBe(true);
    const stored = await dbMessages(id);
    expect(stored.map((m) => m.text)).toEqual(texts);
  });

  it('answers a retried send with the first message and never posts it twice, also across processes', async () => {
    const { buyer, id } = await orderChat();
    const socket = await open(buyer.token);
    const first = await send(socket, 'retry-client-1', { conversation_id: id, text: 'hello' });
    // Another socket (as if another server process, with no memory of the first answer) with the same client id.
    const other = await open(buyer.token);
    const again = await send(other, 'retry-client-1', { conversation_id: id, text: 'hello' });
    expect(again).toEqual(first);
    expect(first).toMatchObject({ ok: true, data: { seq: 1, from: 'self', client_id: 'retry-client-1' } });
    expect(await dbMessages(id)).toHaveLength(1);
  });

  it('keeps another user out of a conversation by id: no reading, no writing, no images', async () => {
    const { buyer, id } = await orderChat();
    const stranger = await t.registerByEmail(uniqueEmail('stranger'));
    const socket = await open(buyer.token);
    const image = await uploadedId(t, buyer.token);
    await expect(send(socket, 'img-client-1', { conversation_id: id, image_id: image })).resolves.toMatchObject({
      ok: true,
    });
    await refused('chat/messages', { id: String(id) }, stranger.token, 'chatNotFound', 'id');
    await refused('chat/info', { id: String(id) }, stranger.token, 'chatNotFound', 'id');
    const intruder = await open(stranger.token);
    await expect(send(intruder, 'intruder-1', { conversation_id: id, text: 'let me in' })).resolves.toEqual({
      ok: false,
      error: 'chatNotFound',
    });
    await expect(
      intruder.emitWithAck(COMMAND_EVENT, {
        name: 'chat.read',
        id: 'intruder-2',
        args: { conversation_id: id, seq: 1 },
      }),
    ).resolves.toEqual({ ok: false, error: 'chatNotFound' });
    // The image is readable by the members and nobody else.
    const fetchImage = (token: string) =>
      t.app.inject({ method: 'GET', url: `/api/upload/file?id=${image}`, headers: { authorization: token } });
    expect((await fetchImage(buyer.token)).statusCode).toBe(200);
    expect((await fetchImage(stranger.token)).statusCode).toBe(404);
    // A stranger's own image cannot be posted into someone's conversation either, nor one image twice.
    await expect(send(socket, 'img-client-2', { conversation_id: id, image_id: image })).resolves.toEqual({
      ok: false,
      error: 'uploadNotFound',
    });
    expect(await dbMessages(id)).toHaveLength(1);
    expect(
      await withChat(t.db).selectFrom('chat_members').selectAll().where('conversation_id', '=', id).execute(),
    ).toHaveLength(2);
  });

  it('counts unread messages and shows the other side read receipts', async () => {
    const { buyer, merchant, id } = await orderChat();
    const socket = await open(buyer.token);
    for (const n of [1, 2, 3]) await send(socket, `unread-${kind}-${n}`, { conversation_id: id, text: `m${n}` });
    await writeTransaction(t.handle, (trx) => postSystemMessage(trx, id, 'c2c.event.paid', t.clock.now()));
    const before = await ok('chat/info', { id: String(id) }, merchant.token);
    expect(before).toMatchObject({ last_seq: 4, read_seq: 0, unread: 4, peer: 'buyer-nick', peer_read_seq: 3 });
    expect(before.last).toMatchObject({ kind: 'event', from: 'system', text: 'c2c.event.paid' });
    const reader = await open(merchant.token);
    const read = await reader.emitWithAck(COMMAND_EVENT, {
      name: 'chat.read',
      id: `read-${kind}-1`,
      args: { conversation_id: id, seq: 99 },
    });
    // Never past the newest message.
    expect(read).toMatchObject({ ok: true, data: { read_seq: 4, unread: 0 } });
    expect(await ok('chat/info', { id: String(id) }, buyer.token)).toMatchObject({ peer_read_seq: 4, unread: 1 });
  });

  it('pages history backwards and catches up forwards', async () => {
    const { buyer, id } = await orderChat();
    const socket = await open(buyer.token);
    for (let n = 1; n <= 12; n += 1) {
      await send(socket, `page-${kind}-${n}`, { conversation_id: id, text: `p${n}` });
      t.clock.advance(3000);
    }
    const newest = await ok('chat/messages', { id: String(id), limit: '5' }, buyer.token);
    expect(newest.messages.map((m) => m.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(newest.has_older).toBe(true);
    const older = await ok('chat/messages', { id: String(id), before_seq: '8', limit: '5' }, buyer.token);
    expect(older.messages.map((m) => m.seq)).toEqual([3, 4, 5, 6, 7]);
    const oldest = await ok('chat/messages', { id: String(id), before_seq: '3', limit: '5' }, buyer.token);
    expect(oldest.messages.map((m) => m.seq)).toEqual([1, 2]);
    expect(oldest.has_older).toBe(false);
    const after = await ok('chat/messages', { id: String(id), after_seq: '10' }, buyer.token);
    expect(after.messages.map((m) => m.seq)).toEqual([11, 12]);
    await refused('chat/messages', { id: String(id), limit: '101' }, buyer.token, 'invalidInput');
  });

  it('limits how fast one user sends, and a refused send may be retried with the same id later', async () => {
    const { buyer, id } = await orderChat();
    const socket = await open(buyer.token);
    for (let n = 1; n <= CHAT_MESSAGES_PER_MINUTE; n += 1) {
      await expect(send(socket, `burst-${kind}-${n}`, { conversation_id: id, text: `b${n}` })).resolves.toMatchObject({
        ok: true,
      });
    }
    const over = `burst-${kind}-over`;
    await expect(send(socket, over, { conversation_id: id, text: 'one too many' })).resolves.toEqual({
      ok: false,
      error: 'rateLimited',
    });
    t.clock.advance(61_000);
    await expect(send(socket, over, { conversation_id: id, text: 'one too many' })).resolves.toMatchObject({
      ok: true,
    });
    expect(await dbMessages(id)).toHaveLength(CHAT_MESSAGES_PER_MINUTE + 1);
  });

  it('keeps text as text and refuses empty or overlong messages in the user language', async () => {
    const { buyer, id } = await orderChat();
    const socket = await open(buyer.token);
    const html = '<img src=x onerror=alert(1)> & <b>bold</b>';
    await expect(send(socket, `html-${kind}`, { conversation_id: id, text: html })).resolves.toMatchObject({
      ok: true,
      data: { text: html, kind: 'text' },
    });
    await expect(send(socket, `empty-${kind}`, { conversation_id: id, text: '   ' })).resolves.toEqual({
      ok: false,
      error: 'chatTextRequired',
    });
    await expect(send(socket, `long-${kind}`, { conversation_id: id, text: 'x'.repeat(2001) })).resolves.toEqual({
      ok: false,
      error: 'tooLong',
    });
    expect(await dbMessages(id)).toHaveLength(1);
  });

  it('opens one support conversation at a time, answered by support, and closed by an operator', async () => {
    const user = await t.registerByEmail(uniqueEmail('support'));
    const [a, b] = await Promise.all([
      ok('chat/support/open', { topic: 'deposit' }, user.token),
      ok('chat/support/open', { topic: 'other' }, user.token),
    ]);
    expect(a.id).toBe(b.id);
    // Whichever came first opened it (the two race); the other got the same conversation.
    expect(a).toMatchObject({ kind: 'support', state: 'open', peer: '' });
    expect(['deposit', 'other']).toContain(a.topic);
    const { body } = await t.call('chat/support/open', { topic: 'nonsense' }, { token: user.token, lang: 'de' });
    expect(body.message).toBe('Bitte wähle ein Thema');
    const socket = await open(user.token);
    await send(socket, `support-${kind}-1`, { conversation_id: a.id, text: 'My deposit has not arrived' });
    const services = { database: t.handle, limiter: undefined as never, now: t.clock.now };
    const operator = { id: 7, name: 'Anna (Support)' };
    const inbox = await supportInbox(t.db, operator);
    expect(inbox.find((c) => c.id === a.id)).toMatchObject({ unread: 1, peer: user.user.username });
    const answer = await sendAsOperator(services, operator, 'op-answer-1', { conversation_id: a.id, text: 'Looking' });
    expect(answer).toMatchObject({ from: 'self', seq: 2 });
    const page = await ok('chat/messages', { id: String(a.id) }, user.token);
    // Users see "support", never the operator's name (it is their console login).
    expect(page.messages.map((m) => [m.from, m.author])).toEqual([
      ['self', user.user.username],
      ['support', ''],
    ]);
    await closeSupport(services, operator, a.id);
    await expect(send(socket, `support-${kind}-2`, { conversation_id: a.id, text: 'still there?' })).resolves.toEqual({
      ok: false,
      error: 'chatClosed',
    });
    const audit = await t.db.selectFrom('ops_audit').selectAll().where('action', '=', 'support.close').execute();
    expect(audit.some((r) => r.subject_id === String(a.id) && r.operator === 'Anna (Support)')).toBe(true);
    // A new conversation after the closed one.
    const next = await ok('chat/support/open', { topic: 'trading' }, user.token);
    expect(next.id).not.toBe(a.id);
    expect((await ok('chat/list', { kind: 'support' }, user.token)).conversations.map((c) => c.id)).toEqual([
      next.id,
      a.id,
    ]);
  });

  it("tells where customer service lives: the app's own chat, or an outside https page an operator set", async () => {
    expect(await ok('set/get_customer_url', {})).toEqual({ url: '/pages/help/center/chat', internal: true });
    await expect(setCustomerUrl(t.db, 'http://help.example.com', 'ops')).rejects.toThrow(/https/);
    await setCustomerUrl(t.db, 'https://help.example.com/chat', 'ops');
    expect(await ok('set/get_customer_url', {})).toEqual({ url: 'https://help.example.com/chat', internal: false });
    await setCustomerUrl(t.db, null, 'ops');
    expect(await ok('set/get_customer_url', {})).toEqual({ url: '/pages/help/center/chat', internal: true });
    const audit = await t.db.selectFrom('ops_audit').selectAll().where('action', '=', 'support_url.set').execute();
    expect(audit.length).toBe(2);
  });
});
