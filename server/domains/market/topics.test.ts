import { describe, expect, it } from 'vitest';
import { type MarketMessage, parseTopic } from '../../../protocol/market';
import { MarketFeed } from '../../market/feed';
import { INSTRUMENTS } from '../../market/instruments';
import { MarketSimulator } from '../../market/simulator';
import { MarketTopics, type TopicServer } from './topics';

/** A stand-in for socket.io: rooms with members, and a record of what went to each room. */
function fakeServer() {
  const rooms = new Map<string, Set<string>>();
  const sent: MarketMessage[] = [];
  const io: TopicServer = {
    local: { to: () => ({ emit: (_event, message) => sent.push(message) > 0 }) },
    of: () => ({ adapter: { rooms } }),
  };
  return { io, rooms, sent };
}

describe('market topics', () => {
  it('parses topic strings strictly', () => {
    expect(parseTopic('quotes')).toEqual({ kind: 'quotes' });
    expect(parseTopic('kline:BTC:60min')).toEqual({ kind: 'kline', symbol: 'BTC', period: '60min' });
    expect(parseTopic('trades:ETH')).toEqual({ kind: 'trades', symbol: 'ETH' });
    for (const bad of ['', 'quote', 'kline:BTC', 'kline:btc:1min', 'kline:BTC:1min:x', 'trades:', 7, null]) {
      expect(parseTopic(bad)).toBeNull();
    }
  });

  it('batches every changed instrument into one update per flush, numbered +1, only while someone listens', () => {
    let now = Date.UTC(2024, 5, 4, 12);
    const sim = new MarketSimulator({
      seed: 'topics',
      now: () => now,
      backfillDays: 0,
      instruments: INSTRUMENTS.slice(0, 5),
    });
    const feed = new MarketFeed(sim, () => now);
    const { io, rooms, sent } = fakeServer();
    const topics = new MarketTopics(io, feed, { now: () => now });
    // A socket's subscribe prepares the topic and joins its room; here both happen by hand.
    const subscribe = (topic: string) => {
      expect(topics.prepare(topic)).toBe(topic);
      rooms.set(topic, new Set(['socket-1']));
    };
    expect(topics.prepare('trades:NOPE')).toBeUndefined();
    subscribe('quotes');
    subscribe('trades:BTC');

    now += 2_000;
    sim.advanceTo(now); // three steps of five instruments
    topics.flush();
    expect(sent.map((m) => [m.topic, m.seq, m.kind])).toEqual([
      ['quotes', 1, 'update'],
      ['trades:BTC', 1, 'update'],
    ]);
    expect(sent[0]?.data).toHaveLength(5); // one quote per instrument, not one per tick
    expect(sent[1]?.data).toHaveLength(3); // every trade

    topics.flush(); // nothing changed: nothing sent
    expect(sent).toHaveLength(2);

    now += 1_000;
    sim.advanceTo(now);
    rooms.delete('trades:BTC'); // nobody listens any more
    topics.flush();
    expect(sent.map((m) => [m.topic, m.seq])).toEqual([
      ['quotes', 1],
      ['trades:BTC', 1],
      ['quotes', 2],
    ]);

    // Quiet but alive: an empty update every heartbeat; a stopped feed goes silent so clients see it stale.
    feed.start();
    now += 1_999;
    topics.flush();
    expect(sent).toHaveLength(3);
    now += 1;
    topics.flush();
    topics.flush();
    expect(sent.slice(3).map((m) => [m.topic, m.seq, m.data])).toEqual([['quotes', 3, []]]);
    feed.stop();
    now += 10_000;
    topics.flush();
    expect(sent).toHaveLength(4);
    topics.close();
    feed.close();
  });
});
