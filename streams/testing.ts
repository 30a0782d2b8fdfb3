import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import type { MarketMessage } from '../protocol/market';
import type { ConnectionState, SocketPort } from './socket';

/** A socket.io stand-in for unit tests: records what was emitted and lets the test play the server. */
export class FakeSocket implements SocketPort {
  connected = false;
  connects = 0;
  readonly emitted: [string, unknown][] = [];
  /** Emits that asked for an acknowledgement, in order; `ack` answers one. */
  readonly acks: { event: string; payload: unknown; ack: (answer: unknown) => void }[] = [];
  private readonly handlers = new Map<string, ((...args: never[]) => void)[]>();

  connect(): void {
    this.connects += 1;
  }

  disconnect(): void {
    if (!this.connected) return;
    this.connected = false;
    this.fire('disconnect', 'io client disconnect');
  }

  on(event: string, listener: (...args: never[]) => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
  }

  emit(event: string, ...args: unknown[]): void {
    this.emitted.push([event, args[0]]);
    const ack = args.find((a): a is (answer: unknown) => void => typeof a === 'function');
    if (ack) this.acks.push({ event, payload: args[0], ack });
  }

  /** Plays the server's acknowledgement of the `index`-th emit of `event` that asked for one (-1: the last). */
  ack(event: string, answer: unknown, index = -1): void {
    const of = this.acks.filter((a) => a.event === event);
    const entry = of.at(index);
    if (!entry) throw new Error(`no acknowledgement pending for ${event}`);
    entry.ack(answer);
  }

  /** Commands sent so far, in order (retries included). */
  commands(): unknown[] {
    return this.emitted.filter(([e]) => e === 'command').map(([, request]) => request);
  }

  /** A message on a private topic (`private` event). */
  pushPrivate(message: MarketMessage): void {
    this.fire('private', message);
  }

  /** The server accepted the connection. */
  open(): void {
    this.connected = true;
    this.fire('connect');
  }

  /** The connection broke. */
  drop(reason = 'transport close'): void {
    this.connected = false;
    this.fire('disconnect', reason);
  }

  /** The server refused a connection attempt. */
  refuse(): void {
    this.fire('connect_error', new Error('refused'));
  }

  push(message: MarketMessage): void {
    this.fire('market', message);
  }

  /** Any other server event (e.g. the private `account` events). */
  serverEmit(event: string, payload: unknown): void {
    this.fire(event, payload);
  }

  /** Topics subscribed so far, in order (repeats included). */
  subscribes(): unknown[] {
    return this.emitted.filter(([e]) => e === 'subscribe').map(([, topic]) => topic);
  }

  private fire(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event) ?? []) (handler as (...a: unknown[]) => void)(...args);
  }
}

/** A `TopicSource` whose topics and connection state the test drives by hand. */
export class FakeTopics {
  readonly state = new BehaviorSubject<ConnectionState>('connecting');
  readonly state$: Observable<ConnectionState> = this.state;
  private readonly subjects = new Map<string, Subject<MarketMessage>>();
  readonly opened: string[] = [];

  topic(name: string): Observable<MarketMessage> {
    let subject = this.subjects.get(name);
    if (!subject) {
      subject = new Subject();
      this.subjects.set(name, subject);
    }
    this.opened.push(name);
    return subject;
  }

  send(topic: string, kind: MarketMessage['kind'], seq: number, data: unknown, ts = Date.now()): void {
    this.subjects.get(topic)?.next({ topic, kind, seq, ts, data });
  }

  observed(topic: string): boolean {
    return this.subjects.get(topic)?.observed ?? false;
  }
}
