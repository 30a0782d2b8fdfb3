import { io, type Socket } from 'socket.io-client';
import { z } from 'zod/mini';
import { positionsTopicMessage } from '../../protocol/lever';
import { optionsTopicMessage } from '../../protocol/options';
import { PRIVATE_EVENT, privateMessage } from '../../protocol/realtime';
import { ordersTopicMessage } from '../../protocol/spot';
import { RealtimeSocket, type SocketPort } from '../../streams/socket';

/**
 * A simulated user's socket in the failover bench: the app's own RealtimeSocket (streams/socket.ts, its backoff,
 * resubscribe and gap resync) on a port that, like a load balancer, connects each time to a server process that is
 * still up (its home first). It follows the user's three record topics (spot orders, option contracts, lever
 * positions) and keeps what the user is shown: per record its last state as the app folds it (a newer `updated_at`
 * wins, a full list of the open records drops the open ones it no longer holds), and beside it what the server
 * sent, to tell a gap or a repeat in the server's numbering from one the client hid.
 */

export interface ServerPick {
  /** A live server's URL, the user's home first. */
  url(): string | undefined;
}

/** socket.io-client sockets, a new one to a live server on every connect; listeners carried over. */
class FailoverPort implements SocketPort {
  private socket: Socket | undefined;
  private readonly listeners: [string, (...args: never[]) => void][] = [];
  /** The servers this port was connected to, in order. */
  readonly served: string[] = [];

  constructor(
    private readonly pick: ServerPick,
    private readonly auth: () => Record<string, string>,
  ) {}

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  connect(): void {
    const url = this.pick.url();
    if (!url) return;
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    const socket = io(url, {
      path: '/socket.io',
      autoConnect: false,
      reconnection: false,
      transports: ['websocket'],
      auth: (cb: (data: object) => void) => cb(this.auth()),
    });
    for (const [event, listener] of this.listeners) socket.on(event, listener as never);
    socket.on('connect', () => this.served.push(url));
    this.socket = socket;
    socket.connect();
  }

  disconnect(): void {
    this.socket?.disconnect();
  }

  on(event: string, listener: (...args: never[]) => void): void {
    this.listeners.push([event, listener]);
    this.socket?.on(event, listener as never);
  }

  emit(event: string, ...args: unknown[]): void {
    this.socket?.emit(event, ...args);
  }
}

const TOPICS = {
  orders: { schema: ordersTopicMessage, list: 'orders', one: 'order', open: ['waiting', 'pending'] },
  options: { schema: optionsTopicMessage, list: 'contracts', one: 'contract', open: ['waiting', 'running'] },
  positions: {
    schema: positionsTopicMessage,
    list: 'positions',
    one: 'position',
    open: ['waiting', 'pending', 'holding', 'closing'],
  },
} as const;
export type TopicName = keyof typeof TOPICS;

const record = z.object({
  id: z.number(),
  updated_at: z.number(),
  state: z.optional(z.string()),
  phase: z.optional(z.string()),
});
type Shown = { id: number; updated_at: number; end: string };

export interface TopicView {
  /** What the user is shown, by record id. */
  shown: Map<number, Shown>;
  /** Open records a later full list no longer held (they ended while the socket was away: the app asks for them). */
  dropped: Set<number>;
  /** Times the server's numbering of one subscription jumped (a gap) or went back (a repeat). */
  gaps: number;
  repeats: number;
  /** Final states the server sent per record id (more than one is a record settled or relayed twice). */
  finals: Map<number, number>;
  snapshots: number;
}

export interface UserSocket {
  views: Record<TopicName, TopicView>;
  /** The servers it was connected to, in order. */
  served: string[];
  /** Gap resyncs of the app's socket. */
  resyncs(): number;
  close(): void;
}

export function openUserSocket(token: string, pick: ServerPick): UserSocket {
  let port: FailoverPort | undefined;
  const socket = new RealtimeSocket({
    token: () => token,
    clock: null,
    visibility: null,
    backoff: { baseMs: 100, maxMs: 1_000 },
    createSocket: (auth) => {
      port = new FailoverPort(pick, auth);
      return port;
    },
  });
  const views = {} as Record<TopicName, TopicView>;
  // What the server sent, per topic: the last number of the current subscription.
  const lastSeq = new Map<string, number>();
  for (const name of Object.keys(TOPICS) as TopicName[]) {
    const topic = TOPICS[name];
    const view: TopicView = {
      shown: new Map(),
      dropped: new Set(),
      gaps: 0,
      repeats: 0,
      finals: new Map(),
      snapshots: 0,
    };
    views[name] = view;
    socket.privateTopic<unknown>(name, topic.schema as z.ZodMiniType<unknown>).subscribe((message) => {
      const data = message.data as Record<string, unknown>;
      const take = (raw: unknown) => {
        const r = record.parse(raw);
        const held = view.shown.get(r.id);
        if (held && r.updated_at <= held.updated_at) return;
        view.shown.set(r.id, { id: r.id, updated_at: r.updated_at, end: r.state ?? r.phase ?? '' });
      };
      if (message.kind === 'snapshot') {
        view.snapshots++;
        const list = (data[topic.list] ?? []) as unknown[];
        const listed = new Set(list.map((raw) => record.parse(raw).id));
        for (const raw of list) take(raw);
        for (const [id, held] of view.shown) {
          if (
            (topic.open as readonly string[]).includes(held.end) &&
            !listed.has(id) &&
            held.updated_at <= message.ts
          ) {
            view.shown.delete(id);
            view.dropped.add(id);
          }
        }
      } else {
        take(data[topic.one]);
      }
    });
  }
  // The server's own numbering, read beside the app's socket (which hides repeats and resyncs on gaps).
  port?.on(PRIVATE_EVENT, ((raw: unknown) => {
    const parsed = privateMessage.safeParse(raw);
    if (!parsed.success) return;
    const m = parsed.data;
    const name = m.topic.replace(/^me:/, '') as TopicName;
    const view = views[name];
    const topic = TOPICS[name];
    if (!view) return;
    if (m.kind === 'snapshot') {
      lastSeq.set(m.topic, m.seq);
      return;
    }
    const last = lastSeq.get(m.topic);
    if (last !== undefined && m.seq > last + 1) view.gaps++;
    if (last !== undefined && m.seq <= last) view.repeats++;
    lastSeq.set(m.topic, m.seq);
    const one = record.safeParse((m.data as Record<string, unknown> | null)?.[topic.one]);
    if (one.success) {
      const end = one.data.state ?? one.data.phase ?? '';
      if (!(topic.open as readonly string[]).includes(end)) {
        view.finals.set(one.data.id, (view.finals.get(one.data.id) ?? 0) + 1);
      }
    }
  }) as (...args: never[]) => void);
  return {
    views,
    get served() {
      return port?.served ?? [];
    },
    resyncs: () => socket.resyncs,
    close: () => socket.close(),
  };
}
