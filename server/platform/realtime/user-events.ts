import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ACCOUNT_EVENT, type AccountEvent, accountEvent } from '../../../protocol/identity';
import { ACCOUNT_TOPIC } from '../../../protocol/realtime';
import type { Database } from '../db/schema';
import { userRoom } from './gateway';
import type { PrivateTopic } from './private-topics';

/**
 * Private events for one user ("your verification was approved"), pushed to that user's sockets as `account`
 * {kind, data}. The writer (a request handler, or the ops CLI in another process) appends a `user_events` row in
 * the transaction of the change itself, so an event exists exactly when the change committed. Every server process
 * runs a relay that reads new rows about once a second and emits them to its own sockets in the user's room
 * (`io.local`, so with the Redis adapter each socket still gets each event once).
 */

export interface UserEventInput {
  userId: number;
  kind: string;
  data: unknown;
  at: number;
}

/** Appends one event; pass the transaction of the change it announces. */
export async function recordUserEvent(trx: Kysely<Database>, event: UserEventInput): Promise<void> {
  await recordUserEvents(trx, [event]);
}

/** Rows per insert: well below the bound-parameter limits of both databases (4 per row). */
const INSERT_ROWS = 500;

/** Appends many events in order (ids ascend with the list), in bulk; pass the transaction of the changes. */
export async function recordUserEvents(trx: Kysely<Database>, events: readonly UserEventInput[]): Promise<void> {
  for (let k = 0; k < events.length; k += INSERT_ROWS) {
    await trx
      .insertInto('user_events')
      .values(
        events.slice(k, k + INSERT_ROWS).map((event) => ({
          user_id: event.userId,
          kind: event.kind,
          payload: JSON.stringify(event.data ?? null),
          created_at: event.at,
        })),
      )
      .execute();
  }
}

/** Where the relay sends an event: the sockets of `userId` on this process. */
export type UserEventSink = (userId: number, event: AccountEvent) => void;

/** The part of the socket.io server the relay needs. */
export interface LocalRooms {
  local: { to(room: string): { emit(event: string, payload: unknown): unknown } };
}

/** A sink that emits to this process's sockets in the user's room. */
export const socketSink =
  (io: LocalRooms): UserEventSink =>
  (userId, event) => {
    io.local.to(userRoom(userId)).emit(ACCOUNT_EVENT, event);
  };

export interface RelayOptions {
  /** How often to look for new rows (default 1000 ms). */
  intervalMs?: number;
  /**
   * How long a missing id is waited for. PostgreSQL hands out ids before commit, so id 7 may become visible after
   * id 8; a hole is a transaction still committing (wait) or one that rolled back (give up after this long).
   */
  gapWaitMs?: number;
  /** Rows read per poll. */
  batch?: number;
  /** Called when a sink throws for one event (the other events are still delivered). */
  onError?: (err: unknown) => void;
  /** Real time for the gap waits (not the app's test clock). */
  clock?: () => number;
}

/** Holes wider than this are given up at once (a sequence jump after a crash, not commits in flight). */
const MAX_GAP_SPAN = 10_000;

export class UserEventRelay {
  /** Every id up to here was delivered (or given up as a rolled-back hole). */
  private cursor = 0;
  /** Ids above the cursor already delivered. */
  private readonly delivered = new Set<number>();
  /** Missing ids above the cursor, with when the hole was first seen. */
  private readonly holes = new Map<number, number>();
  private readonly intervalMs: number;
  private readonly gapWaitMs: number;
  private readonly batch: number;
  private readonly clock: () => number;
  private readonly onError: (err: unknown) => void;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sink: UserEventSink,
    options: RelayOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.gapWaitMs = options.gapWaitMs ?? 10_000;
    this.batch = options.batch ?? 500;
    this.clock = options.clock ?? Date.now;
    this.onError = options.onError ?? (() => {});
  }

  /**
   * Starts after the newest existing row (events from before the start are old news). The jobs runner then calls
   * `poll` in every process (a `process` job: each process serves its own sockets).
   */
  async start(): Promise<void> {
    const row = await this.db
      .selectFrom('user_events')
      .select((eb) => eb.fn.max('id').as('top'))
      .executeTakeFirst();
    this.cursor = Number(row?.top ?? 0);
  }

  /** How often the runner should poll. */
  get everyMs(): number {
    return this.intervalMs;
  }

  /** Reads and delivers the rows above the cursor; returns how many were delivered. */
  async poll(): Promise<number> {
    const rows = await this.db
      .selectFrom('user_events')
      .select(['id', 'user_id', 'kind', 'payload'])
      .where('id', '>', this.cursor)
      .orderBy('id')
      .limit(this.batch)
      .execute();
    let sent = 0;
    let top = this.cursor;
    for (const row of rows) {
      const id = Number(row.id);
      top = Math.max(top, id);
      if (this.delivered.has(id)) continue;
      this.delivered.add(id);
      this.holes.delete(id);
      try {
        this.sink(row.user_id, { kind: row.kind, data: parsePayload(row.payload) });
      } catch (err) {
        // One event a sink cannot take is lost for that sink only; the rest of the batch goes out now.
        this.onError(err);
      }
      sent += 1;
    }
    this.advance(top);
    return sent;
  }

  /** Moves the cursor over delivered ids and over holes waited out (or far too wide to be commits in flight). */
  private advance(top: number): void {
    const now = this.clock();
    const skipHoles = top - this.cursor > MAX_GAP_SPAN;
    if (!skipHoles) {
      for (let id = this.cursor + 1; id < top; id += 1) {
        if (!this.delivered.has(id) && !this.holes.has(id)) this.holes.set(id, now);
      }
    }
    while (this.cursor < top) {
      const next = this.cursor + 1;
      const since = this.holes.get(next);
      const passed = this.delivered.delete(next) || skipHoles || (since !== undefined && now - since >= this.gapWaitMs);
      if (!passed) break;
      this.holes.delete(next);
      this.cursor = next;
    }
  }
}

function parsePayload(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

/** How many recent events the `me:account` snapshot carries. */
export const ACCOUNT_SNAPSHOT_EVENTS = 20;

/**
 * The `me:account` private topic: every account event of the user (verification reviewed, deposit approved, ...);
 * its snapshot is the user's latest events, newest first.
 */
export function accountTopic(db: Kysely<Database>): PrivateTopic<AccountEvent[]> {
  return {
    name: ACCOUNT_TOPIC,
    schema: z.array(accountEvent),
    events: 'all',
    async snapshot(userId) {
      const rows = await db
        .selectFrom('user_events')
        .select(['kind', 'payload'])
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(ACCOUNT_SNAPSHOT_EVENTS)
        .execute();
      return rows.map((row) => ({ kind: row.kind, data: parsePayload(row.payload) }));
    },
    fromEvent: (kind, data) => [{ kind, data }],
  };
}
