import { BehaviorSubject, distinctUntilChanged, filter, first, map, Observable, pairwise, type Subscriber } from 'rxjs';
import { io } from 'socket.io-client';
import { z } from 'zod/mini';
import { type ServerClock, serverClock } from '../core/clock';
import { newRequestId } from '../core/ids';
import {
  MARKET_EVENT,
  type MarketMessage,
  marketMessage,
  SUBSCRIBE_EVENT,
  UNSUBSCRIBE_EVENT,
} from '../protocol/market';
import {
  COMMAND_EVENT,
  type CommandRequest,
  isPrivateTopic,
  PRIVATE_EVENT,
  privateMessage,
  privateTopicName,
} from '../protocol/realtime';

/**
 * The one socket of this tab (DESIGN "Realtime"): the only importer of socket.io-client. It owns the connection,
 * reconnects with capped exponential backoff and jitter, keeps a registry of topics that is replayed after every
 * reconnect, checks each topic's sequence numbers and asks for a fresh snapshot on a gap, and resyncs every topic
 * when the tab becomes visible again (browsers throttle or freeze hidden tabs, so updates may have been missed).
 *
 * The same registry carries the user's private topics (`me:<name>`, protocol/realtime.ts: messages on the `private`
 * event, subscribed with an acknowledgement) and sends commands that need an answer (`command` with an
 * acknowledgement, retried with the same id after a timeout). Every message's server time feeds the tab's clock
 * (core/clock.ts).
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
  /** Fed with the server time of every message; defaults to the tab's clock (null: none). */
  clock?: ServerClock | null;
  /** Makes the client ids of commands. */
  newId?: () => string;
}

/** One message of a private topic, its `data` parsed with the topic's schema. */
export interface PrivateTopicMessage<T> {
  kind: 'snapshot' | 'update';
  seq: number;
  /** Server time of the message (ms). */
  ts: number;
  data: T;
}

/**
 * What a command answers: the server's result (protocol/realtime.ts CommandAnswer, `error` a key of the `errors`
 * namespace), or one of the client's own failures: `timeout` (no acknowledgement after every attempt), `closed`
 * (the socket was closed), `badAnswer` (the acknowledgement broke the contract).
 */
export type CommandResult<T> = { ok: true; data: T } | { ok: false; error: string };

export interface CommandOptions<T> {
  /** Parses the result's data; a result that does not match is `badAnswer`. */
  result?: z.ZodMiniType<T>;
  /** How long one attempt waits for its acknowledgement (while disconnected, for the connection and then it). */
  timeoutMs?: number;
  /** Attempts in all, each with the same id, so the server acts once however many arrive. */
  attempts?: number;
  /** The command's client id; made once per call when not given. */
  id?: string;
}

export const COMMAND_TIMEOUT_MS = 10_000;
export const COMMAND_ATTEMPTS = 3;

/** The answer to a private subscribe (the market topics' TopicAck, with `notLoggedIn` for an anonymous socket). */
const topicAck = z.object({ ok: z.boolean(), topic: z.optional(z.string()), error: z.optional(z.string()) });

const commandAnswer = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

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
  /** A private topic (`me:<name>`): its messages come on the `private` event, its subscribe wants an answer. */
  private: boolean;
  /** Why the server refused the last subscribe (e.g. `notLoggedIn`); cleared by the next one. */
  refused?: string | undefined;
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
  private readonly clock: ServerClock | null;
  private readonly newId: () => string;
  /** Commands waiting to be answered, to fail them on close. */
  private readonly pendingCommands = new Set<(result: CommandResult<never>) => void>();
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
    this.clock = options.clock === undefined ? serverClock : options.clock;
    this.newId = options.newId ?? newRequestId;
    const auth = (): Record<string, string> => {
      const token = options.token?.();
      return token ? { token } : {};
    };
    this.socket = (options.createSocket ?? defaultSocket)(auth);
    this.socket.on('connect', () => this.onConnect());
    this.socket.on('disconnect', (reason: string) => this.onDisconnect(reason));
    this.socket.on('connect_error', () => this.scheduleReconnect());
    this.socket.on(MARKET_EVENT, (raw: unknown) => this.onMessage(raw, false));
    this.socket.on(PRIVATE_EVENT, (raw: unknown) => this.onMessage(raw, true));
    const visibility = options.visibility === undefined ? documentVisibility() : options.visibility;
    this.stopVisibility = visibility?.onChange(() => visibility.isVisible() && this.onVisible()) ?? (() => {});
    this.socket.connect();
  }

  get connectionState(): ConnectionState {
    return this.state.value;
  }

  /** Each return of the connection after a drop (not the first connect): what was sent while it was down may be lost. */
  get reconnected$(): Observable<void> {
    return this.state$.pipe(
      pairwise(),
      filter(([before, now]) => before === 'reconnecting' && now === 'connected'),
      map(() => undefined),
    );
  }

  /**
   * Messages of one topic: a snapshot first (after every (re)subscribe), then updates in sequence. Any number of
   * observers share one server subscription; the last to leave unsubscribes.
   */
  topic(name: string): Observable<MarketMessage> {
    return this.registered(name, false);
  }

  /**
   * The logged-in user's private topic `me:<name>` (protocol/realtime.ts): a snapshot after every (re)subscribe, then
   * updates in sequence, each with `data` parsed by `schema` (a message whose data does not match is dropped). Same
   * registry as the market topics: shared by its observers, replayed after a reconnect (so after login, whose
   * reconnect carries the new token), resynced on a gap. A refused subscribe (anonymous socket) delivers nothing; see
   * `refusal`.
   */
  privateTopic<T>(name: string, schema: z.ZodMiniType<T>): Observable<PrivateTopicMessage<T>> {
    return this.registered(privateTopicName(name), true).pipe(
      map((m) => ({ m, parsed: schema.safeParse(m.data) })),
      filter(({ parsed }) => parsed.success),
      map(({ m, parsed }) => ({ kind: m.kind, seq: m.seq, ts: m.ts, data: parsed.data as T })),
    );
  }

  /** Why the server refused the last subscribe of a private topic (e.g. `notLoggedIn`), if it did. */
  refusal(name: string): string | undefined {
    return this.topics.get(privateTopicName(name))?.refused;
  }

  /**
   * Sends a command (protocol/realtime.ts) and resolves with its answer. The client id is made once per call: an
   * attempt that gets no acknowledgement within `timeoutMs` (a lost packet, a dropped connection) is sent again with
   * the same id, which the server answers with the first answer instead of acting twice. While the socket is down an
   * attempt waits for it. Never rejects.
   */
  command<T = unknown>(name: string, args: unknown, options: CommandOptions<T> = {}): Promise<CommandResult<T>> {
    const request: CommandRequest = { name, id: options.id ?? this.newId(), args };
    const timeoutMs = options.timeoutMs ?? COMMAND_TIMEOUT_MS;
    const attempts = Math.max(1, options.attempts ?? COMMAND_ATTEMPTS);
    return new Promise<CommandResult<T>>((resolve) => {
      let tries = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let waiting: { unsubscribe(): void } | undefined;
      let done = false;
      const finish = (result: CommandResult<T>) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        waiting?.unsubscribe();
        this.pendingCommands.delete(finish as (r: CommandResult<never>) => void);
        resolve(result);
      };
      const onAnswer = (raw: unknown) => {
        const answer = commandAnswer.safeParse(raw);
        if (!answer.success) return finish({ ok: false, error: 'badAnswer' });
        if (!answer.data.ok) return finish({ ok: false, error: answer.data.error });
        if (!options.result) return finish({ ok: true, data: answer.data.data as T });
        const data = options.result.safeParse(answer.data.data);
        finish(data.success ? { ok: true, data: data.data } : { ok: false, error: 'badAnswer' });
      };
      const emit = () => {
        if (!done) this.socket.emit(COMMAND_EVENT, request, onAnswer);
      };
      const attempt = () => {
        if (done) return;
        tries += 1;
        waiting?.unsubscribe();
        if (this.socket.connected) emit();
        else {
          waiting = this.state
            .pipe(
              filter((s) => s === 'connected'),
              first(),
            )
            .subscribe(emit);
        }
        timer = setTimeout(() => (tries >= attempts ? finish({ ok: false, error: 'timeout' }) : attempt()), timeoutMs);
      };
      this.pendingCommands.add(finish as (r: CommandResult<never>) => void);
      if (this.closed) finish({ ok: false, error: 'closed' });
      else attempt();
    });
  }

  private registered(name: string, isPrivate: boolean): Observable<MarketMessage> {
    return new Observable<MarketMessage>((subscriber) => {
      let entry = this.topics.get(name);
      if (!entry) {
        entry = { observers: new Set(), seq: undefined, private: isPrivate };
        this.topics.set(name, entry);
        this.sendSubscribe(name, entry);
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
    for (const fail of [...this.pendingCommands]) fail({ ok: false, error: 'closed' });
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
    this.sendSubscribe(name, entry);
  }

  private sendSubscribe(name: string, entry: TopicEntry): void {
    if (!this.socket.connected) return;
    if (!entry.private) {
      this.socket.emit(SUBSCRIBE_EVENT, name);
      return;
    }
    entry.refused = undefined;
    this.socket.emit(SUBSCRIBE_EVENT, name, (raw: unknown) => {
      const ack = topicAck.safeParse(raw);
      // The entry may have been replaced (left and registered again) meanwhile.
      if (ack.success && !ack.data.ok && this.topics.get(name) === entry) entry.refused = ack.data.error ?? 'refused';
    });
  }

  private onMessage(raw: unknown, fromPrivate: boolean): void {
    const parsed = (fromPrivate ? privateMessage : marketMessage).safeParse(raw);
    if (!parsed.success) return;
    const message = parsed.data;
    this.clock?.observePush(message.ts);
    // A topic's messages come on its own event only.
    if (isPrivateTopic(message.topic) !== fromPrivate) return;
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

/** The logged-in user's private topic `me:<name>` on the tab's socket (see RealtimeSocket.privateTopic). */
export function topic<T>(name: string, schema: z.ZodMiniType<T>): Observable<PrivateTopicMessage<T>> {
  return realtime().privateTopic(name, schema);
}

/** A command on the tab's socket (see RealtimeSocket.command). */
export function command<T = unknown>(
  name: string,
  args: unknown,
  options?: CommandOptions<T>,
): Promise<CommandResult<T>> {
  return realtime().command(name, args, options);
}
