import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { candle, type MarketMessage, marketMessage, quote, trade } from '../../protocol';
import { HEARTBEAT_MS, type TopicAck } from '../../server/domains/market/topics';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase } from './harness';

describe.each(DATABASES)('market topics over socket.io on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let feed: MarketFeed;
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    // A real clock here: the feed steps every 50 ms and updates go out every 100 ms.
    feed = new MarketFeed(new MarketSimulator({ seed: 'socket', stepMs: 50, backfillDays: 1, alwaysOpen: true }));
    t = await startTestApp(database.handle, { market: { feed, flushMs: 100, record: false }, now: Date.now });
    feed.start();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    feed?.close();
    await t?.close();
    await database?.close();
  });

  async function open(): Promise<Socket> {
    const socket = connect(url, { transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return socket;
  }

  /** A heartbeat: the empty update a topic gets when nothing changed for HEARTBEAT_MS (often, on a busy machine). */
  const isHeartbeat = (m: MarketMessage) => m.kind === 'update' && Array.isArray(m.data) && m.data.length === 0;

  /**
   * Subscribes and collects the messages of `topic` until `count` of them carry data (the snapshot first).
   * Heartbeats in between are kept, in order, but not counted.
   */
  async function collect(socket: Socket, topic: string, count: number): Promise<MarketMessage[]> {
    const messages: MarketMessage[] = [];
    let carrying = 0;
    const done = new Promise<MarketMessage[]>((resolve) => {
      socket.on('market', (raw: unknown) => {
        const message = marketMessage.parse(raw);
        if (message.topic !== topic) return;
        messages.push(message);
        if (!isHeartbeat(message)) carrying += 1;
        if (carrying === count) resolve(messages);
      });
    });
    const ack = await socket.emitWithAck('subscribe', topic);
    expect(ack).toEqual({ ok: true, topic } satisfies TopicAck);
    return done;
  }

  /** The snapshot, then updates numbered one by one from its number: heartbeats take a number too. */
  function expectNumberedOneByOne(messages: MarketMessage[]): void {
    const [snapshot, ...updates] = messages;
    expect(snapshot?.kind).toBe('snapshot');
    for (const [k, update] of updates.entries()) {
      expect(update.kind).toBe('update');
      expect(update.seq).toBe((snapshot?.seq ?? 0) + k + 1);
    }
  }

  it('quotes: a snapshot of every coin, then batched updates numbered one by one', async () => {
    const messages = await collect(await open(), 'quotes', 4);
    expectNumberedOneByOne(messages);
    const all = z.array(quote).parse(messages[0]?.data);
    expect(all.map((q) => q.symbol)).toContain('BTC');
    expect(all.length).toBeGreaterThanOrEqual(14);
    const updates = messages.slice(1).filter((m) => !isHeartbeat(m));
    expect(updates).toHaveLength(3);
    for (const update of updates) {
      const changed = z.array(quote).parse(update.data);
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.every((q) => !['AAPL', 'MSFT'].includes(q.symbol))).toBe(true);
    }
    // A heartbeat only after HEARTBEAT_MS without an update (the first may follow one sent before we subscribed).
    for (let k = 2; k < messages.length; k++) {
      const message = messages[k];
      if (message && isHeartbeat(message)) {
        expect(message.ts - (messages[k - 1]?.ts ?? 0)).toBeGreaterThanOrEqual(HEARTBEAT_MS);
      }
    }
    // Batched: updates are at least ~100 ms apart, so at most about 4+ per second per topic (not one per tick).
    const last = updates[updates.length - 1]?.ts ?? 0;
    expect(last - (updates[0]?.ts ?? 0)).toBeGreaterThanOrEqual(150);
  });

  it('a second subscriber continues the same sequence; stocks, kline and trades topics work', async () => {
    const socket = await open();
    const [stocks] = await collect(socket, 'stocks', 1);
    expect(
      z
        .array(quote)
        .parse(stocks?.data)
        .map((q) => q.symbol),
    ).toContain('AAPL');

    const kline = await collect(socket, 'kline:BTC:1min', 2);
    expectNumberedOneByOne(kline);
    expect(z.array(candle).parse(kline[0]?.data).length).toBeGreaterThan(100);
    const live = z.array(candle).parse(kline[kline.length - 1]?.data);
    expect(live.length).toBeGreaterThanOrEqual(1);

    const trades = await collect(socket, 'trades:ETH', 2);
    expectNumberedOneByOne(trades);
    expect(z.array(trade).parse(trades[0]?.data)).toHaveLength(50);
    expect(z.array(trade).parse(trades[trades.length - 1]?.data).length).toBeGreaterThan(0);

    const quotes = await collect(socket, 'quotes', 2);
    expect(quotes[0]?.seq).toBeGreaterThan(0); // continues the topic's numbering from the first test
    expectNumberedOneByOne(quotes);
  });

  it('refuses unknown topics and stops updates after unsubscribe', async () => {
    const socket = await open();
    for (const topic of ['nope', 'kline:BTC:2min', 'kline:NOPE:1min', 'trades:', 42]) {
      expect(await socket.emitWithAck('subscribe', topic)).toMatchObject({ ok: false, error: 'invalidTopic' });
    }
    await collect(socket, 'trades:BTC', 2);
    expect(await socket.emitWithAck('unsubscribe', 'trades:BTC')).toEqual({ ok: true, topic: 'trades:BTC' });
    let after = 0;
    socket.on('market', () => after++);
    // No sleep: a second socket in the room gets an update broadcast after the unsubscribe (to every member at
    // once), then a round trip on the first one, whose answer comes behind anything the server sent it before. Had
    // the first socket stayed in the room, that update would have reached it by then.
    const witness = await open();
    const [, update] = await collect(witness, 'trades:BTC', 2);
    expect(update?.kind).toBe('update');
    expect(await socket.emitWithAck('subscribe', 'nope')).toMatchObject({ ok: false, error: 'invalidTopic' });
    expect(after).toBe(0);
  });
});
