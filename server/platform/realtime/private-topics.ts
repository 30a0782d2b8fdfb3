import type { Kysely } from 'kysely';
import type { Socket } from 'socket.io';
import type { z } from 'zod/mini';
import {
  COMMAND_EVENT,
  type CommandAnswer,
  commandRequest,
  isPrivateTopic,
  PRIVATE_EVENT,
  PRIVATE_PREFIX,
  type PrivateMessage,
  privateTopicName,
} from '../../../protocol/realtime';
import type { Database } from '../db/schema';
import { BusinessError } from '../errors';
import { BODY_DEPTH_MAX, nestsDeeperThan } from '../http/nesting';
import { isMessageKey } from '../i18n/messages';
import {
  claimRequestId,
  confirmRequestId,
  type RequestClaim,
  releaseRequestId,
  requestDigest,
  withRequestClaim,
} from '../request-ids';
import type { RealtimeModule, SocketData } from './gateway';

/**
 * Private per-user topics and socket commands (protocol/realtime.ts has the wire format).
 *
 * A domain registers a topic with its zod schema, a snapshot of one user's state and the user event kinds that
 * update it. Updates travel as `user_events` rows written in the transaction of the change (user-events.ts), so
 * an update exists exactly when its change committed, and every server process relays them to its own sockets:
 * that is what makes a private topic work with several processes. Each subscription numbers its own messages
 * (the snapshot 0, then +1 per update), so a client seeing a jump resubscribes for a fresh snapshot.
 */

export interface PrivateTopic<T> {
  /** Without the `me:` prefix: `account`, `orders`, ... */
  name: string;
  schema: z.ZodMiniType<T>;
  /** What the topic carries, as the published AsyncAPI document says it. */
  summary: string;
  /** The user's state at subscription. */
  snapshot(userId: number): Promise<T>;
  /** The user event kinds this topic carries ('all': every kind); the update is the event as `fromEvent` makes it. */
  events: readonly string[] | 'all';
  fromEvent(kind: string, data: unknown): T;
}

export interface Command<A, R> {
  name: string;
  args: z.ZodMiniType<A>;
  /** What the command does, and the `data` of its acknowledgement, as the published AsyncAPI document says them. */
  summary: string;
  answer: z.ZodMiniType<R>;
  /**
   * Runs the command for a logged-in user; throw a BusinessError-like `{ key }` to answer with an error key.
   * `commandId` is the client's id of this request (a command that writes keys its effect by it, so a retry that
   * reaches another process, or this one after a restart, still applies once).
   */
  run(userId: number, args: A, commandId: string): Promise<R>;
}

/** How long a command's answer is kept for a retry with the same client id. */
export const COMMAND_ANSWER_TTL_MS = 10 * 60_000;
const MAX_REMEMBERED_ANSWERS = 10_000;

interface RememberedAnswer {
  at: number;
  /** The command and the digest of its arguments: an answer is only ever given back to the same request. */
  path: string;
  digest: string;
  answer: Promise<CommandAnswer>;
}

/** A command's validated arguments as the fields of its digest (every command's schema is an object today). */
function argumentsOf(args: unknown): Readonly<Record<string, unknown>> {
  return args !== null && typeof args === 'object' && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : { args };
}

type AnySocket = Socket<never, never, never, SocketData>;
type Ack = (answer: unknown) => void;

interface Subscription {
  topic: PrivateTopic<unknown>;
  seq: number;
  /** Updates that came while the snapshot was being read: sent right after it, in order. */
  queued: unknown[] | null;
}

/** The registry of private topics and commands, one per app; `module()` plugs it into the gateway. */
export class PrivateChannels {
  private readonly topics = new Map<string, PrivateTopic<unknown>>();
  private readonly commands = new Map<string, Command<unknown, unknown>>();
  /** Per connected socket: its private subscriptions by topic name. */
  private readonly subscriptions = new Map<AnySocket, Map<string, Subscription>>();
  /** Sockets per user on this process. */
  private readonly sockets = new Map<number, Set<AnySocket>>();
  /** Answers of recent commands by user and client id (a retry with the same command and arguments gets it back). */
  private readonly answers = new Map<string, RememberedAnswer>();

  /**
   * `claims`: where command ids are claimed (platform/request-ids), as the HTTP router claims request ids. Without
   * it (a test of topics alone) only this process's answers keep a retry from acting twice.
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly claims?: Kysely<Database>,
  ) {}

  topic<T>(topic: PrivateTopic<T>): void {
    if (this.topics.has(topic.name)) throw new Error(`private topic ${topic.name} registered twice`);
    this.topics.set(topic.name, topic as PrivateTopic<unknown>);
  }

  command<A, R>(command: Command<A, R>): void {
    if (this.commands.has(command.name)) throw new Error(`command ${command.name} registered twice`);
    this.commands.set(command.name, command as Command<unknown, unknown>);
  }

  /** The names of the registered commands (tests walk every command with hostile arguments). */
  commandNames(): string[] {
    return [...this.commands.keys()];
  }

  /** The names of the registered private topics, without `me:` (the published socket documents must list them all). */
  topicNames(): string[] {
    return [...this.topics.keys()];
  }

  /** What the published socket documents are made of: every registered topic and command. */
  surface(): { topics: readonly PrivateTopic<unknown>[]; commands: readonly Command<unknown, unknown>[] } {
    return { topics: [...this.topics.values()], commands: [...this.commands.values()] };
  }

  /** Delivers one user event to this process's subscribers of the topics that carry it. */
  deliver(userId: number, kind: string, data: unknown): void {
    const sockets = this.sockets.get(userId);
    if (!sockets) return;
    for (const topic of this.topics.values()) {
      if (topic.events !== 'all' && !topic.events.includes(kind)) continue;
      // An event its topic cannot carry is skipped for that topic only, never for the other topics or users.
      const parsed = topic.schema.safeParse(topic.fromEvent(kind, data));
      if (!parsed.success) continue;
      const update = parsed.data;
      for (const socket of sockets) {
        const subscription = this.subscriptions.get(socket)?.get(topic.name);
        if (!subscription) continue;
        if (subscription.queued) subscription.queued.push(update);
        else this.sendUpdate(socket, subscription, update);
      }
    }
  }

  module(): RealtimeModule {
    return { attach: (socket) => this.attach(socket as unknown as AnySocket) };
  }

  private attach(socket: AnySocket): void {
    const userId = socket.data.userId;
    if (userId !== null) {
      const set = this.sockets.get(userId) ?? new Set();
      set.add(socket);
      this.sockets.set(userId, set);
    }
    const on = socket.on.bind(socket) as (event: string, listener: (...args: unknown[]) => void) => void;
    on('subscribe', (raw, ack) => void this.subscribe(socket, raw, ack));
    on('unsubscribe', (raw, ack) => {
      if (typeof raw !== 'string' || !isPrivateTopic(raw)) return;
      this.subscriptions.get(socket)?.delete(raw.slice(PRIVATE_PREFIX.length));
      if (typeof ack === 'function') (ack as Ack)({ ok: true, topic: raw });
    });
    on(COMMAND_EVENT, (raw, ack) => {
      if (typeof ack !== 'function') return;
      void this.runCommand(socket, raw).then((answer) => (ack as Ack)(answer));
    });
    on('disconnect', () => {
      this.subscriptions.delete(socket);
      if (userId === null) return;
      const set = this.sockets.get(userId);
      set?.delete(socket);
      if (set?.size === 0) this.sockets.delete(userId);
    });
  }

  private async subscribe(socket: AnySocket, raw: unknown, ack: unknown): Promise<void> {
    if (typeof raw !== 'string' || !isPrivateTopic(raw)) return;
    const reply: Ack = typeof ack === 'function' ? (ack as Ack) : () => {};
    const name = raw.slice(PRIVATE_PREFIX.length);
    const topic = this.topics.get(name);
    if (!topic) return reply({ ok: false, topic: raw, error: 'invalidTopic' });
    const userId = socket.data.userId;
    if (userId === null) return reply({ ok: false, topic: raw, error: 'notLoggedIn' });
    const subs = this.subscriptions.get(socket) ?? new Map<string, Subscription>();
    this.subscriptions.set(socket, subs);
    // Register before the snapshot is read, so an event committed meanwhile is not lost: it is queued and sent
    // after the snapshot (it may then be in both; topics carry state that is idempotent to apply).
    const subscription: Subscription = { topic, seq: 0, queued: [] };
    subs.set(name, subscription);
    let snapshot: unknown;
    try {
      snapshot = topic.schema.parse(await topic.snapshot(userId));
    } catch {
      // No snapshot, no subscription, and the client is told so (it may subscribe again).
      if (subs.get(name) === subscription) subs.delete(name);
      return reply({ ok: false, topic: raw, error: 'serverError' });
    }
    if (subs.get(name) !== subscription || !socket.connected) return;
    // Acknowledged once the snapshot is ready, so `ok` means the topic is live.
    reply({ ok: true, topic: raw });
    this.emit(socket, { topic: raw, kind: 'snapshot', seq: 0, data: snapshot });
    const queued = subscription.queued ?? [];
    subscription.queued = null;
    for (const update of queued) this.sendUpdate(socket, subscription, update);
  }

  private sendUpdate(socket: AnySocket, subscription: Subscription, data: unknown): void {
    subscription.seq += 1;
    const topic = privateTopicName(subscription.topic.name);
    this.emit(socket, { topic, kind: 'update', seq: subscription.seq, data });
  }

  private emit(socket: AnySocket, message: Omit<PrivateMessage, 'ts'>): void {
    const full: PrivateMessage = { ...message, ts: this.now() };
    (socket.emit as unknown as (event: string, payload: unknown) => void).call(socket, PRIVATE_EVENT, full);
  }

  private runCommand(socket: AnySocket, raw: unknown): Promise<CommandAnswer> {
    // Same limit as an HTTP body: no schema needs more, and nothing later walks an unbounded structure.
    if (nestsDeeperThan(raw, BODY_DEPTH_MAX)) return Promise.resolve({ ok: false, error: 'bodyTooDeep' });
    const parsed = commandRequest.safeParse(raw);
    if (!parsed.success) return Promise.resolve({ ok: false, error: 'invalidInput' });
    const userId = socket.data.userId;
    if (userId === null) return Promise.resolve({ ok: false, error: 'notLoggedIn' });
    const command = this.commands.get(parsed.data.name);
    if (!command) return Promise.resolve({ ok: false, error: 'invalidInput' });
    const args = command.args.safeParse(parsed.data.args);
    // Refused arguments touch nothing and claim nothing (as in the HTTP router: validation comes first).
    if (!args.success) return Promise.resolve({ ok: false, error: refusalKeyOf(args.error) });
    // The id is the user's, whatever the command (and whatever HTTP call took it as a request id): one key.
    const claim: RequestClaim = {
      userId,
      requestId: parsed.data.id,
      path: command.name,
      digest: requestDigest(command.name, argumentsOf(args.data)),
      at: this.now(),
    };
    const key = `${userId}:${parsed.data.id}`;
    this.forgetOldAnswers();
    const known = this.answers.get(key);
    if (known) {
      // The same id with another command or other arguments is another request: never the first one's answer.
      const same = known.path === claim.path && known.digest === claim.digest;
      return same ? known.answer : Promise.resolve({ ok: false, error: 'requestIdReused' });
    }
    const answer: Promise<CommandAnswer> = this.claimAndRun(command, claim, args.data).then(
      (data): CommandAnswer => ({ ok: true, data }),
      (err: unknown): CommandAnswer => ({ ok: false, error: errorKeyOf(err) }),
    );
    this.answers.set(key, { at: claim.at, path: claim.path, digest: claim.digest, answer });
    // A server error (a database blip) or a rate limit is no answer to keep: a retry with the same id runs again.
    // Nor is a refused claim (the id belongs to an earlier request, maybe of another process): it is not this id's.
    void answer.then((a) => {
      const passing =
        !a.ok && (a.error === 'serverError' || a.error === 'rateLimited' || a.error === 'requestIdReused');
      if (passing && this.answers.get(key)?.answer === answer) this.answers.delete(key);
    });
    return answer;
  }

  /**
   * Claims the command id like the HTTP router claims a request id, then runs the command inside the claim: the
   * answers above are one process's memory, the claim holds across processes and restarts. A refusal releases a
   * fresh claim; a success leaves it confirmed (a command that writes confirms it in its own transaction with
   * `confirmClaimedRequest`; the confirmation after it is for the others, whose effect cannot collide).
   */
  private async claimAndRun(command: Command<unknown, unknown>, claim: RequestClaim, args: unknown): Promise<unknown> {
    const db = this.claims;
    if (!db) return command.run(claim.userId, args, claim.requestId);
    const { fresh } = await claimRequestId(db, claim);
    let result: unknown;
    try {
      result = await withRequestClaim(claim, () => command.run(claim.userId, args, claim.requestId));
    } catch (err) {
      if (fresh && err instanceof BusinessError) await releaseRequestId(db, claim);
      throw err;
    }
    await confirmRequestId(db, claim).catch((err: unknown) => {
      // Only after a refused twin released the claim and another request took the id: the effect is done either
      // way, and its answer is the truth; the other request holds the id now.
      if (!(err instanceof BusinessError)) throw err;
    });
    return result;
  }

  private forgetOldAnswers(): void {
    const cutoff = this.now() - COMMAND_ANSWER_TTL_MS;
    for (const [key, { at }] of this.answers) {
      if (at >= cutoff && this.answers.size <= MAX_REMEMBERED_ANSWERS) break;
      this.answers.delete(key);
    }
  }
}

/**
 * The message key of a command's refused arguments: the first issue's message when a schema set one of the errors
 * table, else `invalidInput` (zod's own English text, e.g. "Too small: expected number to be >0", is no key the
 * client could show in the user's language).
 */
function refusalKeyOf(error: z.core.$ZodError): string {
  const message = error.issues[0]?.message;
  return message !== undefined && isMessageKey(message) ? message : 'invalidInput';
}

/** A refusal the user can read (BusinessError carries a message key); anything else is a server error. */
function errorKeyOf(err: unknown): string {
  if (err && typeof err === 'object' && 'key' in err && typeof err.key === 'string') return err.key;
  return 'serverError';
}
