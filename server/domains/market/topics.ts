import type { Socket } from 'socket.io';
import {
  MARKET_EVENT,
  type MarketMessage,
  type MarketTopic,
  type Period,
  parseTopic,
  type Trade,
} from '../../../protocol/market';
import { marketTopics } from '../../../protocol/market-topics';
import { isPrivateTopic } from '../../../protocol/realtime';
import type { MarketFeed, Tick } from '../../market';
import type { RealtimeModule } from '../../platform/realtime/gateway';

/** Answer to `subscribe` / `unsubscribe` when the client passes an acknowledgement callback. */
export interface TopicAck {
  ok: boolean;
  topic: string;
  error?: 'invalidTopic' | 'tooManyTopics';
}

export interface TopicEvents {
  subscribe: (topic: string, ack?: (answer: TopicAck) => void) => void;
  unsubscribe: (topic: string, ack?: (answer: TopicAck) => void) => void;
}

export interface MarketEvents {
  [MARKET_EVENT]: (message: MarketMessage) => void;
}

export type MarketSocket = Socket<TopicEvents, MarketEvents>;

/** The parts of the socket.io server the topics need (kept narrow so tests can see what is used). */
export interface TopicServer {
  local: { to(room: string): { emit(event: typeof MARKET_EVENT, message: MarketMessage): boolean } };
  of(namespace: '/'): { adapter: { rooms: Map<string, Set<string>> } };
}

interface TopicState {
  topic: MarketTopic;
  name: string;
  seq: number;
  /** Quotes topics: instruments that changed since the last message. */
  changed: Set<string>;
  /** Trades topic: trades since the last message, oldest first. */
  trades: Tick[];
  /** Kline topic: start of the newest bar at the last message (later messages resend it and anything newer). */
  fromT: number;
  dirty: boolean;
  /** Server time of the last message sent on this topic (snapshot or update). */
  sentAt: number;
}

const SNAPSHOT_CANDLES = 300;
const SNAPSHOT_TRADES = 50;
/**
 * A topic with subscribers but no change gets an empty update this often while the feed runs, so a client can
 * tell a quiet market (stocks after hours) from a dead feed: silence means stale.
 */
export const HEARTBEAT_MS = 2_000;
/** Topics one socket may hold at once. */
export const MAX_TOPICS_PER_SOCKET = 64;

/**
 * Public market topics over socket.io: `quotes`, `stocks`, `kline:<SYMBOL>:<period>`, `trades:<SYMBOL>`.
 * A subscriber gets a snapshot, then updates batched every `flushMs` (at most 4 a second by default, each
 * carrying every instrument that changed). Each topic numbers its messages: +1 per update, the snapshot
 * carries the current number, so a client seeing a jump knows it missed one. Broadcasts are process-local
 * (`io.local`): with the Redis adapter every process serves its own subscribers from its own feed.
 */
export class MarketTopics {
  private readonly states = new Map<string, TopicState>();
  private timer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly io: TopicServer,
    private readonly feed: MarketFeed,
    private readonly options: { now: () => number; flushMs?: number; heartbeatMs?: number },
  ) {
    this.unsubscribe = feed.onTick((tick) => this.onTick(tick));
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.flush(), this.options.flushMs ?? 250);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe();
  }

  /** Wires `subscribe` / `unsubscribe` of one connected socket. */
  attach(socket: MarketSocket): void {
    socket.on('subscribe', (topic, ack) => {
      // `me:` topics belong to the private topics module, which answers them.
      if (typeof topic === 'string' && isPrivateTopic(topic)) return;
      const state = this.stateOf(topic);
      const reply = typeof ack === 'function' ? ack : () => {};
      if (!state) return reply({ ok: false, topic: String(topic), error: 'invalidTopic' });
      if (!socket.rooms.has(state.name) && socket.rooms.size > MAX_TOPICS_PER_SOCKET) {
        return reply({ ok: false, topic: state.name, error: 'tooManyTopics' });
      }
      void socket.join(state.name);
      reply({ ok: true, topic: state.name });
      // A snapshot is not a heartbeat for the room's other members, so sentAt stays as it is.
      socket.emit(MARKET_EVENT, {
        topic: state.name,
        kind: 'snapshot',
        seq: state.seq,
        ts: this.options.now(),
        data: this.snapshot(state.topic),
      });
    });
    socket.on('unsubscribe', (topic, ack) => {
      if (typeof topic === 'string' && isPrivateTopic(topic)) return;
      const reply = typeof ack === 'function' ? ack : () => {};
      if (typeof topic !== 'string' || !parseTopic(topic)) {
        return reply({ ok: false, topic: String(topic), error: 'invalidTopic' });
      }
      void socket.leave(topic);
      reply({ ok: true, topic });
    });
  }

  /**
   * Sends one batched update per topic that changed and has subscribers here, and an empty one (a heartbeat)
   * per quiet topic every `heartbeatMs` while the feed runs.
   */
  flush(): void {
    const rooms = this.io.of('/').adapter.rooms;
    const now = this.options.now();
    const heartbeatMs = this.options.heartbeatMs ?? HEARTBEAT_MS;
    for (const state of this.states.values()) {
      const listened = Boolean(rooms.get(state.name)?.size);
      let data: unknown;
      if (state.dirty) {
        data = this.update(state);
        state.dirty = false;
      } else if (listened && this.feed.isRunning && now - state.sentAt >= heartbeatMs) {
        data = [];
      } else {
        continue;
      }
      if (!listened) continue;
      state.seq += 1;
      state.sentAt = now;
      this.io.local
        .to(state.name)
        .emit(MARKET_EVENT, { topic: state.name, kind: 'update', seq: state.seq, ts: now, data });
    }
  }

  /** Makes `topic` ready to receive updates; its canonical name, or undefined for an invalid topic. */
  prepare(topic: unknown): string | undefined {
    return this.stateOf(topic)?.name;
  }

  /** The state of a valid topic on a known instrument (created on first use), else undefined. */
  private stateOf(raw: unknown): TopicState | undefined {
    const topic = parseTopic(raw);
    if (!topic) return undefined;
    if (topic.kind === 'kline' || topic.kind === 'trades') {
      if (!this.feed.instrument(topic.symbol)) return undefined;
    }
    const name = topicName(topic);
    let state = this.states.get(name);
    if (!state) {
      state = { topic, name, seq: 0, changed: new Set(), trades: [], fromT: 0, dirty: false, sentAt: 0 };
      this.states.set(name, state);
    }
    return state;
  }

  private onTick(tick: Tick): void {
    const kind = this.feed.instrument(tick.symbol)?.kind;
    const quotes = this.states.get(kind === 'stock' ? 'stocks' : 'quotes');
    if (quotes) {
      quotes.changed.add(tick.symbol);
      quotes.dirty = true;
    }
    const trades = this.states.get(`trades:${tick.symbol}`);
    if (trades) {
      trades.trades.push(tick);
      if (trades.trades.length > SNAPSHOT_TRADES) trades.trades.shift();
      trades.dirty = true;
    }
    for (const state of this.states.values()) {
      if (state.topic.kind === 'kline' && state.topic.symbol === tick.symbol) state.dirty = true;
    }
  }

  private snapshot(topic: MarketTopic): unknown {
    switch (topic.kind) {
      case 'quotes':
        return this.feed.quotes('coin');
      case 'stocks':
        return this.feed.quotes('stock');
      case 'trades':
        return this.feed.trades(topic.symbol, SNAPSHOT_TRADES);
      case 'kline':
        return this.feed.candles(topic.symbol, topic.period, SNAPSHOT_CANDLES);
    }
  }

  private update(state: TopicState): unknown {
    const topic = state.topic;
    switch (topic.kind) {
      case 'quotes':
      case 'stocks': {
        const quotes = [...state.changed].flatMap((symbol) => this.feed.quote(symbol) ?? []);
        state.changed.clear();
        return quotes;
      }
      case 'trades': {
        const instrument = this.feed.instrument(topic.symbol);
        const trades = instrument
          ? state.trades.map((tick): Trade => this.feed.formatTrade(instrument, tick)).reverse()
          : [];
        state.trades = [];
        return trades;
      }
      case 'kline': {
        const candles = this.feed.candles(topic.symbol, topic.period, 3).filter((c) => c.t >= state.fromT);
        state.fromT = candles[candles.length - 1]?.t ?? state.fromT;
        return candles;
      }
    }
  }
}

export function topicName(topic: MarketTopic): string {
  switch (topic.kind) {
    case 'quotes':
    case 'stocks':
      return topic.kind;
    case 'trades':
      return `trades:${topic.symbol}`;
    case 'kline':
      return `kline:${topic.symbol}:${topic.period satisfies Period}`;
  }
}

/** The market topics as a realtime module of the gateway. */
export function marketRealtime(
  feed: MarketFeed,
  options: { now: () => number; flushMs?: number | undefined; heartbeatMs?: number },
): RealtimeModule {
  let topics: MarketTopics | undefined;
  return {
    documented: marketTopics,
    start(io) {
      topics = new MarketTopics(io as unknown as TopicServer, feed, options);
      topics.start();
    },
    attach(socket) {
      topics?.attach(socket as unknown as MarketSocket);
    },
    close() {
      topics?.close();
    },
  };
}
