import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Quote, quotesResponse } from '../../protocol/market';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { createCandleStream } from '../../streams/candles';
import { createQuoteStream, type QuoteBoard } from '../../streams/quotes';
import { type ConnectionState, RealtimeSocket, socketIoPort } from '../../streams/socket';
import { openTestDatabase, startTestApp, type TestApp, type TestDatabase } from './harness';

/** The client's streams (streams/) with the real socket.io-client against the real server on 127.0.0.1. */
describe('realtime client against the server', () => {
  let database: TestDatabase;
  let t: TestApp;
  let feed: MarketFeed;
  let url: string;
  let socket: RealtimeSocket;

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    feed = new MarketFeed(new MarketSimulator({ seed: 'client', stepMs: 50, backfillDays: 1, alwaysOpen: true }));
    t = await startTestApp(database.handle, { market: { feed, flushMs: 100, record: false }, now: Date.now });
    feed.start();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    socket = new RealtimeSocket({
      createSocket: (auth) => socketIoPort(auth, url),
      backoff: { baseMs: 50, maxMs: 200 },
      visibility: null,
    });
  });
  afterAll(async () => {
    socket?.close();
    feed?.close();
    await t?.close();
    await database?.close();
  });

  const poll = async (): Promise<Quote[] | false> => {
    const res = await fetch(`${url}/api/currency/quotation_new`);
    const body = (await res.json()) as { data?: unknown };
    const parsed = quotesResponse.safeParse(body.data);
    return parsed.success ? parsed.data : false;
  };

  const until = <T>(source: Observable<T>, test: (value: T) => boolean) => firstValueFrom(source.pipe(filter(test)));

  it('streams live quotes, reconnects after the server drops it, replays its topics, and flows again', async () => {
    const states: ConnectionState[] = [];
    socket.state$.subscribe((s) => states.push(s));
    const stream = createQuoteStream({ source: socket, topic: 'quotes', poll, pollWhileUpMs: 60_000 });
    const boards: QuoteBoard[] = [];
    const sub = stream.board$.subscribe((b) => boards.push(b));

    const first = await until(stream.board$, (b) => b.quotes.size === feed.instruments('coin').length);
    const btcAt = first.quotes.get('BTC')?.ts ?? 0;
    await until(stream.board$, (b) => (b.quotes.get('BTC')?.ts ?? 0) > btcAt);
    expect(states).toContain('connected');
    expect(stream.freshness.isStale()).toBe(false);

    t.app.io.disconnectSockets(true);
    await until(socket.state$, (s) => s === 'reconnecting');
    await until(socket.state$, (s) => s === 'connected');
    expect(socket.registeredTopics()).toEqual(['quotes']);
    const dropAt = boards.length;
    const afterDrop = boards.at(-1)?.quotes.get('BTC')?.ts ?? 0;
    await until(stream.board$, (b) => (b.quotes.get('BTC')?.ts ?? 0) > afterDrop);
    expect(boards.length).toBeGreaterThan(dropAt);
    sub.unsubscribe();
  });

  it('draws candles from history and keeps the newest one live', async () => {
    const stream = createCandleStream({
      source: socket,
      symbol: 'ETH',
      period: '1min',
      fetch: async () => {
        const res = await fetch(`${url}/api/currency/new_timeshar?symbol=ETH&period=1min&limit=100`);
        const body = (await res.json()) as { data: { candles: never[] } };
        return body.data.candles;
      },
    });
    const first = await until(stream.series$, (s) => s.candles.length >= 100);
    const lastT = first.candles.at(-1)?.t ?? 0;
    const lastV = first.candles.at(-1)?.v ?? '0';
    const live = await until(stream.series$, (s) => {
      const newest = s.candles.at(-1);
      return newest !== undefined && (newest.t > lastT || newest.v !== lastV);
    });
    expect(live.candles.every((c, i, all) => i === 0 || c.t > (all[i - 1]?.t ?? 0))).toBe(true);
  });
});
