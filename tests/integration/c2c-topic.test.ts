import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type C2cTopicMessage, c2cTopicMessage } from '../../protocol/c2c';
import { PRIVATE_EVENT, privateMessage } from '../../protocol/realtime';
import { addMerchant } from '../../server/domains/c2c';
import { Ledger } from '../../server/ledger/ledger';
import { apiChecks } from './api-checks';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';

const SEPA = { type: 'sepa', name: 'Topic Merchant', account: 'DE44 5001 0517 5407 3249 31', note: '' };

/**
 * The private `me:c2c` topic over socket.io: the caller's open orders as the snapshot, then every change of one of
 * their orders, to the buyer and to the merchant, each with their own role and the payment details opened.
 */
describe.each(DATABASES)('c2c topic over socket.io on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { userEventsPollMs: 50, c2cExpiryMs: 3_600_000 });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
    await database?.close();
  });
  const { ok } = apiChecks(() => t);

  /** A subscribed socket and the topic's messages as they come; `next(check)` resolves with the first that passes. */
  async function subscriber(token: string) {
    const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const messages: C2cTopicMessage[] = [];
    const waiting: Array<{ check: (m: C2cTopicMessage) => boolean; resolve: (m: C2cTopicMessage) => void }> = [];
    socket.on(PRIVATE_EVENT, (raw: unknown) => {
      const message = privateMessage.parse(raw);
      if (message.topic !== 'me:c2c') return;
      const data = c2cTopicMessage.parse(message.data);
      messages.push(data);
      for (const w of waiting.splice(0)) {
        if (w.check(data)) w.resolve(data);
        else waiting.push(w);
      }
    });
    const next = (check: (m: C2cTopicMessage) => boolean) =>
      new Promise<C2cTopicMessage>((resolve) => {
        const seen = messages.find(check);
        if (seen) resolve(seen);
        else waiting.push({ check, resolve });
      });
    await expect(socket.emitWithAck('subscribe', 'me:c2c')).resolves.toEqual({ ok: true, topic: 'me:c2c' });
    return { messages, next };
  }

  it('tells buyer and merchant about each change of their order, each with their own role', async () => {
    const merchant = await t.registerByEmail(uniqueEmail('topic'));
    const buyer = await t.registerByEmail(uniqueEmail('topic'));
    expect((await addMerchant(t.db, String(merchant.user.id), `Topic ${kind}`)).ok).toBe(true);
    await new Ledger(t.handle).credit({
      userId: merchant.user.id,
      requestId: 'seed',
      kind: 'deposit',
      currency: 'BTC',
      amount: 100_000_000,
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
        max_fiat: '10000',
        pay_methods: JSON.stringify([SEPA]),
      },
      merchant.token,
    );
    const [b, m] = await Promise.all([subscriber(buyer.token), subscriber(merchant.token)]);
    expect(await b.next((x) => x.kind === 'snapshot')).toEqual({ kind: 'snapshot', orders: [] });

    const placed = await ok(
      'ctc/order/add',
      { ad_id: String(ad.id), quantity: '0.01', pay_type: 'sepa', request_id: 'topic-1' },
      buyer.token,
    );
    const isOrder = (status: number) => (x: C2cTopicMessage) =>
      x.kind === 'order' && x.order.id === placed.id && x.order.status === status;
    expect(await b.next(isOrder(1))).toMatchObject({ order: { role: 'buyer', pay_info: SEPA, request_id: 'topic-1' } });
    expect(await m.next(isOrder(1))).toMatchObject({ order: { role: 'merchant', pay_info: SEPA } });
    await ok('ctc/order/pay', { id: String(placed.id) }, buyer.token);
    expect(await m.next(isOrder(2))).toMatchObject({ order: { role: 'merchant', paid_at: expect.any(Number) } });
    await ok('ctc/order/release', { id: String(placed.id) }, merchant.token);
    expect(await b.next(isOrder(3))).toMatchObject({ order: { role: 'buyer', status: 3 } });
    expect(await m.next(isOrder(3))).toMatchObject({ order: { role: 'merchant', status: 3 } });
    // Every update the buyer saw was about their own order, as the buyer.
    for (const message of b.messages) {
      if (message.kind === 'order') expect(message.order).toMatchObject({ id: placed.id, role: 'buyer' });
    }
  });
});
