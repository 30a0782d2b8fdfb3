import type { Kysely } from 'kysely';
import {
  POLL_DAYS_MAX,
  POLL_LIST_MAX,
  POLL_NAME_MAX,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POLL_RESULTS_KEPT_MS,
  POLL_SYMBOL_RE,
  type Poll,
  type PollKind,
  pollEndedAt,
  pollStatusAt,
} from '../../../protocol/polls';
import { INSTRUMENTS, withPriceRecord } from '../../market';
import { recordAudit } from '../../platform/audit';
import { handleOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { ID_MAX, type PollsTable, withPolls } from './tables';

/**
 * The listing polls: operators open and close them (each change audited in its own transaction), everyone reads
 * them with their tallies, and the vote itself lives in vote.ts. Times come from the caller's clock (the server's,
 * or the ops command's), never from the client.
 */

const DAY_MS = 86_400_000;

/** An operator's input the service refuses (shown to operators only, in English). Changes nothing. */
export class PollInputError extends Error {
  override name = 'PollInputError';
}

export interface PollAction {
  /** Who does it: recorded in the audit log. */
  operator: string;
  /** Milliseconds; defaults to now. */
  now?: number;
}

export interface PollOptionInput {
  symbol: string;
  name: string;
}

export interface NewPoll {
  /** Days from now until the poll closes: a whole number from 1 to POLL_DAYS_MAX. */
  closesInDays: number;
  options: readonly PollOptionInput[];
  kind?: PollKind;
}

type PollRow = Pick<PollsTable, 'kind' | 'opens_at' | 'closes_at' | 'closed_at'> & { id: number };

/** Options as stored: symbols upper-cased and checked, names on one line, each coin once, not one the market has. */
async function checkOptions(db: Kysely<Database>, options: readonly PollOptionInput[]): Promise<PollOptionInput[]> {
  if (options.length < POLL_OPTIONS_MIN || options.length > POLL_OPTIONS_MAX) {
    throw new PollInputError(`a poll needs ${POLL_OPTIONS_MIN} to ${POLL_OPTIONS_MAX} options, not ${options.length}`);
  }
  const cleaned = options.map((o) => ({
    symbol: o.symbol.trim().toUpperCase(),
    name: o.name.replace(/\s+/g, ' ').trim(),
  }));
  const seen = new Set<string>();
  for (const o of cleaned) {
    if (!POLL_SYMBOL_RE.test(o.symbol)) throw new PollInputError(`not a coin symbol: ${o.symbol || '(empty)'}`);
    if (o.name === '' || o.name.length > POLL_NAME_MAX) {
      throw new PollInputError(`${o.symbol}: a name of 1 to ${POLL_NAME_MAX} characters is needed`);
    }
    if (seen.has(o.symbol)) throw new PollInputError(`${o.symbol} is offered twice`);
    seen.add(o.symbol);
  }
  // A poll about the next listing offers coins the market does not have yet (static or listed since).
  const listed = await withPriceRecord(db)
    .selectFrom('listed_coins')
    .select('symbol')
    .where('symbol', 'in', [...seen])
    .execute();
  for (const o of cleaned) {
    if (INSTRUMENTS.some((i) => i.symbol === o.symbol) || listed.some((l) => l.symbol === o.symbol)) {
      throw new PollInputError(`${o.symbol} is already on the market`);
    }
  }
  return cleaned;
}

/** Opens a poll now that closes in `closesInDays` days; audited as `poll.create`. Returns the new poll's id. */
export async function createPoll(db: Kysely<Database>, input: NewPoll, action: PollAction): Promise<number> {
  const days = input.closesInDays;
  if (!Number.isInteger(days) || days < 1 || days > POLL_DAYS_MAX) {
    throw new PollInputError(`a poll runs 1 to ${POLL_DAYS_MAX} whole days`);
  }
  const options = await checkOptions(db, input.options);
  const kind = input.kind ?? 'next_listing';
  const at = action.now ?? Date.now();
  const closesAt = at + days * DAY_MS;
  return writeTransaction(handleOf(db), async (trx) => {
    const p = withPolls(trx);
    const row = await p
      .insertInto('polls')
      .values({ kind, opens_at: at, closes_at: closesAt, closed_at: null, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await p
      .insertInto('poll_options')
      .values(options.map((o, i) => ({ poll_id: id, symbol: o.symbol, name: o.name, sort_order: i })))
      .execute();
    await recordAudit(trx, {
      action: 'poll.create',
      subjectType: 'poll',
      subjectId: id,
      detail: { kind, opens_at: at, closes_at: closesAt, options },
      operator: action.operator,
      at,
    });
    return id;
  });
}

/**
 * Closes an open (or not yet open) poll before its time; audited as `poll.close` with the tallies at that moment.
 * A poll that has already closed is refused (`pollClosed`).
 */
export async function closePoll(db: Kysely<Database>, id: number, action: PollAction): Promise<Poll> {
  const at = action.now ?? Date.now();
  if (id > ID_MAX) throw new BusinessError('pollNotFound', { field: 'id' });
  await writeTransaction(handleOf(db), async (trx) => {
    const p = withPolls(trx);
    // Votes read the poll FOR SHARE: the close waits for those in flight, and later ones see it closed.
    const row = await p
      .selectFrom('polls')
      .selectAll()
      .where('id', '=', id)
      .$if(handleOf(trx).kind === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!row) throw new BusinessError('pollNotFound', { field: 'id' });
    if (pollStatusAt(row, at) === 'closed') throw new BusinessError('pollClosed', { field: 'id' });
    await p.updateTable('polls').set({ closed_at: at }).where('id', '=', id).execute();
    const [poll] = await pollsWithTallies(trx, [{ ...row, closed_at: at }], at, null);
    await recordAudit(trx, {
      action: 'poll.close',
      subjectType: 'poll',
      subjectId: id,
      detail: {
        closes_at: row.closes_at,
        total_votes: poll?.total_votes ?? 0,
        tallies: Object.fromEntries((poll?.options ?? []).map((o) => [o.symbol, o.votes])),
      },
      operator: action.operator,
      at,
    });
  });
  const poll = await readPoll(db, id, at, null);
  if (!poll) throw new BusinessError('pollNotFound', { field: 'id' });
  return poll;
}

/** The polls' options, tallies and the voter's own vote, in one query each. */
async function pollsWithTallies(
  db: Kysely<Database>,
  rows: readonly PollRow[],
  now: number,
  voterId: number | null,
): Promise<Poll[]> {
  if (rows.length === 0) return [];
  const p = withPolls(db);
  const ids = rows.map((r) => r.id);
  const options = await p
    .selectFrom('poll_options')
    .select(['id', 'poll_id', 'symbol', 'name'])
    .where('poll_id', 'in', ids)
    .orderBy('poll_id')
    .orderBy('sort_order')
    .execute();
  const counts = await p
    .selectFrom('poll_votes')
    .select(['option_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('poll_id', 'in', ids)
    .groupBy('option_id')
    .execute();
  const votesOf = new Map(counts.map((c) => [c.option_id, Number(c.n)]));
  const mine =
    voterId === null
      ? []
      : await p
          .selectFrom('poll_votes')
          .select(['poll_id', 'option_id'])
          .where('user_id', '=', voterId)
          .where('poll_id', 'in', ids)
          .execute();
  const myVote = new Map(mine.map((v) => [v.poll_id, v.option_id]));
  return rows.map((r) => {
    const own = options
      .filter((o) => o.poll_id === r.id)
      .map((o) => ({ id: o.id, symbol: o.symbol, name: o.name, votes: votesOf.get(o.id) ?? 0 }));
    return {
      id: r.id,
      kind: r.kind,
      status: pollStatusAt(r, now),
      opens_at: r.opens_at,
      closes_at: r.closes_at,
      closed_at: r.closed_at,
      total_votes: own.reduce((sum, o) => sum + o.votes, 0),
      options: own,
      my_option_id: myVote.get(r.id) ?? null,
    };
  });
}

/** One poll with its tallies (and `voterId`'s vote); undefined when there is none. */
export async function readPoll(
  db: Kysely<Database>,
  id: number,
  now: number,
  voterId: number | null,
): Promise<Poll | undefined> {
  const row = await withPolls(db).selectFrom('polls').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return (await pollsWithTallies(db, [row], now, voterId))[0];
}

/**
 * What vote/list shows: open and upcoming polls (closing soonest first), then the results of those that closed
 * within POLL_RESULTS_KEPT_MS (latest first), at most POLL_LIST_MAX.
 */
export async function readCurrentPolls(db: Kysely<Database>, now: number, voterId: number | null): Promise<Poll[]> {
  const since = now - POLL_RESULTS_KEPT_MS;
  const rows = await withPolls(db)
    .selectFrom('polls')
    .selectAll()
    .where('closes_at', '>', since)
    .where((eb) => eb.or([eb('closed_at', 'is', null), eb('closed_at', '>', since)]))
    .orderBy('id', 'desc')
    .limit(POLL_LIST_MAX * 5)
    .execute();
  const running = rows.filter((r) => pollStatusAt(r, now) !== 'closed').sort((a, b) => a.closes_at - b.closes_at);
  const ended = rows
    .filter((r) => pollStatusAt(r, now) === 'closed')
    .sort((a, b) => pollEndedAt(b) - pollEndedAt(a) || b.id - a.id);
  return pollsWithTallies(db, [...running, ...ended].slice(0, POLL_LIST_MAX), now, voterId);
}

/** Every poll, newest first, with its tallies (`polls list`). */
export async function listPollsForOps(db: Kysely<Database>, now: number, limit = 100): Promise<Poll[]> {
  const rows = await withPolls(db).selectFrom('polls').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return pollsWithTallies(db, rows, now, null);
}

/** The demo's poll (`npm run ops -- demo`): on an install without any poll, one open for 14 days. Returns its id. */
export async function addSamplePoll(db: Kysely<Database>, action: PollAction): Promise<number | null> {
  const any = await withPolls(db).selectFrom('polls').select('id').limit(1).execute();
  if (any.length > 0) return null;
  return createPoll(
    db,
    {
      closesInDays: 14,
      options: [
        { symbol: 'ATOM', name: 'Cosmos' },
        { symbol: 'NEAR', name: 'NEAR Protocol' },
        { symbol: 'ARB', name: 'Arbitrum' },
        { symbol: 'OP', name: 'Optimism' },
      ],
    },
    action,
  );
}
