import { type Kysely, sql } from 'kysely';
import { z } from 'zod/mini';
import { ACCOUNT_EVENT, type AccountEvent, accountEvent } from '../../../protocol/identity';
import { ACCOUNT_TOPIC } from '../../../protocol/realtime';
import { handleOf } from '../db/connect';
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
  // PostgreSQL gives a transaction its xid at its first write, a moment after the insert took its ids: claimed
  // first, the xid is in every snapshot taken after those ids exist, which is what the relay's hole waits rely on.
  // Outside a transaction the claim and the insert would be two transactions, so they get one of their own.
  if (events.length > 0 && handleOf(trx).kind === 'postgres') {
    if (!trx.isTransaction) {
      await trx.transaction().execute((own) => recordUserEvents(own, events));
      return;
    }
    await sql`select pg_current_xact_id()`.execute(trx);
  }
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
   * SQLite only: how long a missing id is waited for before it is taken for a rolled-back insert. SQLite has one
   * writer at a time, so ids become visible in commit order and a hole is never a commit still in flight.
   */
  gapWaitMs?: number;
  /** Rows read per poll. */
  batch?: number;
  /** Called when a sink throws for one event (the other events are still delivered). */
  onError?: (err: unknown) => void;
  /** Real time for the gap waits (not the app's test clock). */
  clock?: () => number;
  /** Which transactions may still commit (default: the database's own view, `postgresInFlight` on PostgreSQL, else by the clock). */
  inFlight?: () => Promise<InFlight>;
}

/**
 * The transactions in flight at one moment, as marks that compare with each other: every transaction running then
 * is below `next`, and every transaction below `oldest` has ended (committed or rolled back).
 */
export interface InFlight {
  oldest: bigint;
  next: bigint;
}

/**
 * Transactions in flight on PostgreSQL: the current snapshot's xmin and xmax. A transaction below xmin has ended,
 * so once xmin reaches the xmax seen when a hole showed, the transaction holding the hole's id has ended too.
 */
export async function postgresInFlight(db: Kysely<Database>): Promise<InFlight> {
  const { rows } = await sql<{ oldest: string; next: string }>`
    select pg_snapshot_xmin(s)::text as oldest, pg_snapshot_xmax(s)::text as next
    from (select pg_current_snapshot() as s) as now`.execute(db);
  const row = rows[0];
  if (!row) throw new Error('no snapshot');
  return { oldest: BigInt(row.oldest), next: BigInt(row.next) };
}

/** Transactions "in flight" by the clock alone (SQLite): a hole is waited for `gapWaitMs`, then given up. */
export const clockInFlight = (clock: () => number, gapWaitMs: number) => async (): Promise<InFlight> => {
  const now = clock();
  return { oldest: BigInt(now - gapWaitMs), next: BigInt(now) };
};

/** Missing ids `from`..`to`; `mark` (the `next` of the moment they showed) is passed once they cannot come any more. */
interface Hole {
  from: number;
  to: number;
  mark: bigint;
}

/** Ranges of holes re-read per query (each one `id between`). */
const HOLES_PER_READ = 100;

/**
 * Relays committed `user_events` rows to this process's sockets, each exactly once. PostgreSQL hands out ids
 * before commit, so id 7 may become visible after id 8 (its transaction was slower): a hole is a transaction still
 * committing or one that rolled back. The relay delivers whatever is visible at once and keeps re-reading the holes
 * until every transaction that may hold one has ended (on PostgreSQL by the snapshot's xmin, however long that
 * takes: a wait by the clock alone lost the events of a commit slower than the wait); new rows are read above the
 * highest id seen, so holes never hold back anything else.
 */
export class UserEventRelay {
  /** The highest id read; every id up to here was delivered or is in `holes`. */
  private top = 0;
  private holes: Hole[] = [];
  /** Taken after the last read: any transaction it shows ended had ended before the next read. */
  private lastSeen: InFlight | null = null;
  private readonly intervalMs: number;
  private readonly batch: number;
  private readonly onError: (err: unknown) => void;
  private readonly inFlight: () => Promise<InFlight>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sink: UserEventSink,
    options: RelayOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.batch = options.batch ?? 500;
    this.onError = options.onError ?? (() => {});
    this.inFlight =
      options.inFlight ??
      (handleOf(db).kind === 'postgres'
        ? () => postgresInFlight(db)
        : clockInFlight(options.clock ?? Date.now, options.gapWaitMs ?? 10_000));
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
    this.top = Number(row?.top ?? 0);
    this.holes = [];
    this.lastSeen = await this.inFlight();
  }

  /** How often the runner should poll. */
  get everyMs(): number {
    return this.intervalMs;
  }

  /** Holes still open (for tests and logs). */
  get waitingIds(): number {
    return this.holes.reduce((n, hole) => n + hole.to - hole.from + 1, 0);
  }

  /** Reads the holes and the rows above the highest id seen, and delivers them in id order; returns how many. */
  async poll(): Promise<number> {
    const before = this.lastSeen ?? (await this.inFlight());
    const late = await this.readHoles();
    const fresh = await this.db
      .selectFrom('user_events')
      .select(['id', 'user_id', 'kind', 'payload'])
      .where('id', '>', this.top)
      .orderBy('id')
      .limit(this.batch)
      .execute();
    const after = await this.inFlight();
    this.lastSeen = after;

    for (const row of late) this.fill(Number(row.id));
    // A hole whose transactions had all ended before this read was read one last time just now: given up.
    this.holes = this.holes.filter((hole) => hole.mark > before.oldest);
    let expected = this.top + 1;
    for (const row of fresh) {
      const id = Number(row.id);
      if (id > expected) this.holes.push({ from: expected, to: id - 1, mark: after.next });
      expected = id + 1;
    }
    if (fresh.length > 0) this.top = expected - 1;

    let sent = 0;
    for (const row of [...late, ...fresh]) {
      try {
        this.sink(row.user_id, { kind: row.kind, data: parsePayload(row.payload) });
      } catch (err) {
        // One event a sink cannot take is lost for that sink only; the rest of the batch goes out now.
        this.onError(err);
      }
      sent += 1;
    }
    return sent;
  }

  /** The rows that filled holes since the last poll, in id order. */
  private async readHoles() {
    const rows = [];
    for (let k = 0; k < this.holes.length; k += HOLES_PER_READ) {
      const ranges = this.holes.slice(k, k + HOLES_PER_READ);
      rows.push(
        ...(await this.db
          .selectFrom('user_events')
          .select(['id', 'user_id', 'kind', 'payload'])
          .where((eb) => eb.or(ranges.map((hole) => eb.between('id', hole.from, hole.to))))
          .orderBy('id')
          .execute()),
      );
    }
    return rows;
  }

  /** Takes a delivered id out of its hole (splitting the hole when it was inside). */
  private fill(id: number): void {
    this.holes = this.holes.flatMap((hole) => {
      if (id < hole.from || id > hole.to) return [hole];
      const parts: Hole[] = [];
      if (hole.from < id) parts.push({ ...hole, to: id - 1 });
      if (id < hole.to) parts.push({ ...hole, from: id + 1 });
      return parts;
    });
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
    summary:
      'Account events (verification reviewed, deposit or withdrawal decided, ...): the latest, then each new one.',
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
