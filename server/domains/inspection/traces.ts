import { TRACE_ACTOR_MAX, TRACE_KEEP_MS, type TracedMachine, type TraceStep } from '../../../protocol/inspection';
import type { TracedActor, TracedOrder } from '../../../protocol/ops-inspection';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import type { Job } from '../../platform/jobs/runner';
import { findUser } from '../account';
import type { TracedOrderOwners } from '../contract';
import { withInspection } from './tables';

export interface InspectionServices {
  database: DatabaseHandle;
  now: () => number;
  /** Who owns each traced machine's orders: the product that keeps them answers (the domain contract). */
  owners: TracedOrderOwners;
}

export interface TraceInput {
  machine: TracedMachine;
  order: number;
  actor: string;
  steps: TraceStep[];
}

/**
 * Keeps the steps one actor of one of the user's own orders reported. An order that is not the user's is "not found"
 * (nothing said about whose it is); an actor id another user already reported under is refused the same way, so one
 * user can never add to another's timeline. Steps the actor sent before (the same seq) are not kept twice.
 */
export async function recordTrace(s: InspectionServices, userId: number, input: TraceInput): Promise<void> {
  const db = withInspection(s.database.db);
  const owns = s.owners[input.machine];
  if (!owns || !(await owns(s.database.db, userId, input.order))) {
    throw new BusinessError('notFound', { field: 'order' });
  }
  const earlier = await db
    .selectFrom('actor_traces')
    .select(['user_id', 'machine', 'order_id', 'seq'])
    .where('actor', '=', input.actor)
    .execute();
  if (earlier.some((r) => r.user_id !== userId)) throw new BusinessError('notFound', { field: 'actor' });
  const kept = new Set(
    earlier.filter((r) => r.machine === input.machine && r.order_id === input.order).map((r) => r.seq),
  );
  const receivedAt = s.now();
  const rows = input.steps
    .filter((step) => !kept.has(step.seq))
    .map((step) => ({
      user_id: userId,
      machine: input.machine,
      order_id: input.order,
      actor: input.actor,
      seq: step.seq,
      at: step.at,
      event: step.event,
      states: step.states.join(' '),
      received_at: receivedAt,
    }));
  if (rows.length === 0) return;
  // A batch sent twice at once (a retry racing its first try) keeps one copy of each step.
  await db
    .insertInto('actor_traces')
    .values(rows)
    .onConflict((oc) => oc.columns(['actor', 'seq']).doNothing())
    .execute();
  // The newest TRACE_ACTOR_MAX steps of the actor stay (a flapping connection must not fill the table).
  if (earlier.length + rows.length > TRACE_ACTOR_MAX) {
    const cutoff = await db
      .selectFrom('actor_traces')
      .select('seq')
      .where('actor', '=', input.actor)
      .orderBy('seq', 'desc')
      .offset(TRACE_ACTOR_MAX - 1)
      .limit(1)
      .executeTakeFirst();
    if (cutoff) {
      await db.deleteFrom('actor_traces').where('actor', '=', input.actor).where('seq', '<', cutoff.seq).execute();
    }
  }
}

export interface TracedOrdersQuery {
  user?: string;
  machine?: TracedMachine;
  order?: number;
}

/** At most this many orders in one list (the newest first). */
const ORDERS_LIST_MAX = 100;

/** Traced orders, newest movement first: of a user (by id, username, e-mail or phone), of one order, or of anyone. */
export async function tracedOrders(s: InspectionServices, query: TracedOrdersQuery): Promise<TracedOrder[]> {
  const db = withInspection(s.database.db);
  let userId: number | undefined;
  if (query.user) {
    const user = await findUser(s.database.db, query.user);
    if (!user) throw new BusinessError('notFound', { field: 'user' });
    userId = user.id;
  }
  let q = db
    .selectFrom('actor_traces')
    .select((eb) => [
      'machine',
      'order_id',
      eb.fn.min('user_id').as('user_id'),
      eb.fn.count<number>('actor').distinct().as('actors'),
      eb.fn.countAll<number>().as('steps'),
      eb.fn.max('received_at').as('last_at'),
    ])
    .groupBy(['machine', 'order_id'])
    .orderBy('last_at', 'desc')
    .limit(ORDERS_LIST_MAX);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  if (query.machine) q = q.where('machine', '=', query.machine);
  if (query.order !== undefined) q = q.where('order_id', '=', query.order);
  const rows = await q.execute();
  return rows.map((r) => ({
    machine: r.machine,
    order: r.order_id,
    user_id: Number(r.user_id),
    actors: Number(r.actors),
    steps: Number(r.steps),
    last_at: Number(r.last_at),
  }));
}

/** An order's kept steps by actor (each in its own order), or only those after the row id `after`. */
export async function orderTrace(
  s: InspectionServices,
  machine: TracedMachine,
  orderId: number,
  after = 0,
): Promise<{ order: TracedOrder | null; actors: TracedActor[] }> {
  const db = withInspection(s.database.db);
  const [order] = await tracedOrders(s, { machine, order: orderId });
  const rows = await db
    .selectFrom('actor_traces')
    .select(['id', 'actor', 'seq', 'at', 'event', 'states', 'received_at'])
    .where('machine', '=', machine)
    .where('order_id', '=', orderId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(TRACE_ACTOR_MAX * 10)
    .execute();
  const byActor = new Map<string, TracedActor>();
  for (const r of rows) {
    let actor = byActor.get(r.actor);
    if (!actor) {
      actor = { actor: r.actor, steps: [] };
      byActor.set(r.actor, actor);
    }
    actor.steps.push({
      id: r.id,
      seq: r.seq,
      at: Number(r.at),
      event: r.event,
      states: r.states.split(' '),
      received_at: Number(r.received_at),
    });
  }
  for (const actor of byActor.values()) actor.steps.sort((a, b) => a.seq - b.seq);
  return { order: order ?? null, actors: [...byActor.values()] };
}

/** Drops steps older than TRACE_KEEP_MS; returns how many went. */
export async function pruneTraces(s: Pick<InspectionServices, 'database' | 'now'>): Promise<number> {
  const result = await withInspection(s.database.db)
    .deleteFrom('actor_traces')
    .where('received_at', '<', s.now() - TRACE_KEEP_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The daily clean-up, run every few minutes by one process of the cluster. */
export function pruneTracesJob(s: InspectionServices, everyMs = 300_000): Job {
  return {
    name: 'actor-traces-prune',
    scope: 'cluster',
    everyMs,
    run: async (round) => {
      if (!round.leading) return;
      await pruneTraces(s);
    },
  };
}
