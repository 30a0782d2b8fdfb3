import type { z } from 'zod/mini';
import { type Poll, pollStatusAt, type voteRequest } from '../../../protocol/polls';
import type { DatabaseHandle } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { verificationState } from '../identity';
import { readPoll } from './polls';
import { ID_MAX, withPolls } from './tables';

export interface PollServices {
  database: DatabaseHandle;
  now: () => number;
}

/**
 * vote/set: one final vote. Only a verified identity (basic level) votes, so one person counts once however many
 * accounts they open. The poll must be open on the server's clock and the option one of its own. The unique key
 * (poll, user) decides a double submit: the insert does nothing when a vote exists (also one committed a moment ago
 * by a parallel request), and that answers `pollAlreadyVoted` without an error inside the transaction.
 */
export async function castVote(s: PollServices, userId: number, input: z.output<typeof voteRequest>): Promise<Poll> {
  const { db } = s.database;
  if ((await verificationState(db, userId, 'basic')) !== 'verified') throw new BusinessError('voteVerifyRequired');
  // A record id may have 10 digits; beyond the columns' integer range there is no such row (and PostgreSQL would
  // refuse the comparison with an error instead of finding nothing).
  if (input.poll_id > ID_MAX) throw new BusinessError('pollNotFound', { field: 'poll_id' });
  if (input.option_id > ID_MAX) throw new BusinessError('pollOptionNotFound', { field: 'option_id' });
  const at = s.now();
  await writeTransaction(s.database, async (trx) => {
    const p = withPolls(trx);
    // FOR SHARE: votes do not wait for each other, but an operator's close waits for them (and they for it).
    const poll = await p
      .selectFrom('polls')
      .select(['id', 'opens_at', 'closes_at', 'closed_at'])
      .where('id', '=', input.poll_id)
      .$if(s.database.kind === 'postgres', (qb) => qb.forShare())
      .executeTakeFirst();
    if (!poll) throw new BusinessError('pollNotFound', { field: 'poll_id' });
    const status = pollStatusAt(poll, at);
    if (status === 'upcoming') throw new BusinessError('pollNotOpen', { field: 'poll_id' });
    if (status === 'closed') throw new BusinessError('pollClosed', { field: 'poll_id' });
    const option = await p
      .selectFrom('poll_options')
      .select('id')
      .where('id', '=', input.option_id)
      .where('poll_id', '=', poll.id)
      .executeTakeFirst();
    if (!option) throw new BusinessError('pollOptionNotFound', { field: 'option_id' });
    const cast = await p
      .insertInto('poll_votes')
      .values({ poll_id: poll.id, option_id: option.id, user_id: userId, voted_at: at })
      .onConflict((oc) => oc.columns(['poll_id', 'user_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!cast) throw new BusinessError('pollAlreadyVoted', { field: 'poll_id' });
  });
  const poll = await readPoll(db, input.poll_id, at, userId);
  if (!poll) throw new BusinessError('pollNotFound', { field: 'poll_id' });
  return poll;
}
