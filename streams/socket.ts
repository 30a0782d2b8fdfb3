import { BehaviorSubject, distinctUntilChanged, Observable, type Subscriber } from 'rxjs';
import { io } from 'socket.io-client';
import {
  MARKET_EVENT,
  type MarketMessage,
  marketMessage,
  SUBSCRIBE_EVENT,
  UNSUBSCRIBE_EVENT,
} from '../protocol/market';

/**
 * The one socket of this tab (DESIGN "Realtime"): the only importer of socket.io-client. It owns the connection,
 * reconnects with capped exponential backoff and jitter, keeps a registry of topics that is replayed after every
 * reconnect, checks each topic's sequence numbers and asks for a fresh snapshot on a gap, and resyncs every topic
 * when the tab becomes visible again (browsers throttle or freeze hidden tabs, so updates may have been missed).
 */

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** The part of a socket.io client socket this module uses; tests pass a small fake. */
export interface SocketPort {
  readonly connected: boolean;
  connect(): unknown;
  disconnect(): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
}

export interface RealtimeOptions {
  /** Builds the socket (not yet connected) with the handshake auth callback. */
  createSocket?: (auth: () => Record<string, string>) => SocketPort;
  /** The session token for the handshake, read at every (re)connect. */
  token?: () => string | null | undefined;
  /** 0 <= r < 1; the jitter's source. */
  random?: () => number;
  backoff?: BackoffPolicy;
  /** Where visibility changes come from; defaults to the page's document. */
  visibility?: VisibilitySource | null;
}

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export interface VisibilitySource {
  isVisible(): boolean;
  onChange(listener: () => void): () => void;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 15_000 };

/**
 * Delay before reconnect attempt `attempt` (0 = first): capped doubling with "equal jitter", so thousands of
 * clients dropped at once do not come back in the same instant, yet none waits less than half the step.
 */
export function backoffDelay(attempt: number, random: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(step / 2 + (step / 2) * random);
}

interface TopicEntry {
  observers: Set<Subscriber<MarketMessage>>;
  /** Sequence of the last message delivered; undefined while waiting for a snapshot. */
  seq: number | undefined;
}

export class RealtimeSocket {
  private readonly socket: SocketPort;
  private readonly topics = new Map<string, TopicEntry>();
  /** Observers of plain server events (see `event`), per event name. */
  private readonly events = new Map<string, Set<Subscriber<unknown>>>();
  private readonly state = new BehaviorSubject<ConnectionState>('connecting');
  private readonly random: () => number;
  private readonly backoff: BackoffPolicy;
  private readonly stopVisibility: () => void;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** Counts gap resyncs, for diagnostics and tests. */
  resyncs = 0;

  /** Connection state; repeats are suppressed. */
  readonly state$ = this.state.pipe(distinctUntilChanged());

  constructor(options: RealtimeOptions = {}) {
    this.random = options.random ?? Math.random;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    const auth = (): Record<string, string> => {
      const token = options.token?.();
      return token ? { token } : {};
    };
    this.socket = (options.createSocket ?? defaultSocket)(auth);
    this.socket.on('connect', () => this.onConnect());
    this.socket.on('disconnect', (reason: string) => this.onDisconnect(reason));
    this.socket.on('connect_error', () => this.scheduleReconnect());
    this.socket.on(MARKET_EVENT, (raw: unknown) => this.onMessage(raw));
    const visibility = options.visibility === undefined ? documentVisibility() : options.visibility;
    this.stopVisibility = visibility?.onChange(() => visibility.isVisible() && this.onVisible()) ?? (() => {});
    this.socket.connect();
  }

  get connectionState(): ConnectionState {
    return this.state.value;
  }

  /**
   * Messages of one topic: a snapshot first (after every (re)subscribe), then updates in sequence. Any number of
   * observers share one server subscription; the last to leave unsubscribes.
   */
  topic(name: string): Observable<MarketMessage> {
    return new Observable<MarketMessage>((subscriber) => {
      let entry = this.topics.get(name);
      if (!entry) {
        entry = { observers: new Set(), seq: undefined };
        this.topics.set(name, entry);
        if (this.socket.connected) this.socket.emit(SUBSCRIBE_EVENT, name);
      } else if (entry.seq !== undefined) {
        // A late observer has no snapshot of its own: ask the server for a fresh one for everybody.
        this.resubscribe(name, entry);
      }
      entry.observers.add(subscriber);
      return () => {
        const current = this.topics.get(name);
        if (!current) return;
        current.observers.delete(subscriber);
        if (current.observers.size === 0) {
          this.topics.delete(name);
          if (this.socket.connected) this.socket.emit(UNSUBSCRIBE_EVENT, name);
        }
      };
    });
  }

  /**
   * A plain server event outside the topic registry: no subscribe message, no snapshot, no sequence. Used for the
   * private `account` events the server sends to the sockets of the logged-in user (their room is joined at the
   * handshake). Events sent while disconnected are not replayed; listeners resync on reconnect (`state$`).
   */
  event(name: string): Observable<unknown> {
    return new Observable<unknown>((subscriber) => {
      let observers = this.events.get(name);
      if (!observers) {
        const created = new Set<Subscriber<unknown>>();
        observers = created;
        this.events.set(name, created);
        // One socket listener per name for the socket's life; observers come and go in the set.
        this.socket.on(name, (payload: unknown) => {
          for (const observer of created) observer.next(payload);
        });
      }
      observers.add(subscriber);
      return () => {
        this.events.get(name)?.delete(subscriber);
      };
    });
  }

  /** Topics currently registered (replayed on reconnect). */
  registeredTopics(): string[] {
    return [...this.topics.keys()];
  }

  /** Drops the connection and opens it again, e.g. after login so the handshake carries the new token. */
  reconnectNow(): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.socket.disconnect();
    this.state.next('connecting');
    this.socket.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.stopVisibility();
    this.socket.disconnect();
    this.state.next('closed');
    for (const entry of this.topics.values()) for (const o of entry.observers) o.complete();
    this.topics.clear();
    for (const observers of this.events.values()) for (const o of observers) o.complete();
    this.events.clear();
  }

  private onConnect(): void {
    this.attempt = 0;
    clearTimeout(this.retryTimer);
    this.state.next('connected');
    for (const [name, entry] of this.topics) this.resubscribe(name, entry);
  }

  private onDisconnect(reason: string): void {
    if (this.closed || reason === 'io client disconnect') return;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.state.next('reconnecting');
    clearTimeout(this.retryTimer);
    const delay = backoffDelay(this.attempt, this.random(), this.backoff);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      if (!this.closed && !this.socket.connected) this.socket.connect();
    }, delay);
  }

  private onVisible(): void {
    if (this.closed) return;
    if (this.socket.connected) {
      for (const [name, entry] of this.topics) this.resubscribe(name, entry);
    } else {
      // Back in view while down: try at once instead of waiting out a long backoff step.
      clearTimeout(this.retryTimer);
      this.attempt = 0;
      this.socket.connect();
    }
  }

  private resubscribe(name: string, entry: TopicEntry): void {
    entry.seq = undefined;
    if (this.socket.connected) this.socket.emit(SUBSCRIBE_EVENT, name);
  }

  private onMessage(raw: unknown): void {
    const parsed = marketMessage.safeParse(raw);
    if (!parsed.success) return;
    const message = parsed.data;
    const entry = this.topics.get(message.topic);
    if (!entry) return;
    if (message.kind === 'snapshot') {
      entry.seq = message.seq;
    } else {
      // Until the snapshot arrives, updates would apply to nothing.
      if (entry.seq === undefined) return;
      if (message.seq <= entry.seq) return; // a repeat
      if (message.seq !== entry.seq + 1) {
        this.resyncs += 1;
        this.resubscribe(message.topic, entry);
        return;
      }
      entry.seq = message.seq;
    }
    for (const observer of entry.observers) observer.next(message);
  }
}

/**
 * A socket.io client socket as this module wants it: not connected yet, and without socket.io's own
 * reconnection, because our backoff decides when to retry. `url` undefined means this page's origin.
 */
export function socketIoPort(auth: () => Record<string, string>, url?: string): SocketPort {
  const options = {
    path: '/socket.io',
    autoConnect: false,
    reconnection: false,
    // Straight to WebSocket: a long-polling first leg only adds a round trip on every (re)connect.
    transports: ['websocket'],
    auth: (cb: (data: object) => void) => cb(auth()),
  };
  return url === undefined ? io(options) : io(url, options);
}

const defaultSocket = (auth: () => Record<string, string>) => socketIoPort(auth);

function documentVisibility(): VisibilitySource | null {
  if (typeof document === 'undefined') return null;
  return {
    isVisible: () => document.visibilityState === 'visible',
    onChange(listener) {
      document.addEventListener('visibilitychange', listener);
      return () => document.removeEventListener('visibilitychange', listener);
    },
  };
}

let shared: RealtimeSocket | undefined;
let sharedOptions: RealtimeOptions = {};

/** Sets how the tab's socket is built (the token getter); call before the first `realtime()`. */
export function configureRealtime(options: RealtimeOptions): void {
  sharedOptions = options;
}

/** The tab's socket, opened on first use. */
export function realtime(): RealtimeSocket {
  shared ??= new RealtimeSocket(sharedOptions);
  return shared;
}

/** After login or logout: reconnect the tab's socket (if open) so its handshake carries the current token. */
export function refreshRealtimeAuth(): void {
  shared?.reconnectNow();
}
