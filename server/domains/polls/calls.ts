import type { pollCalls } from '../../../protocol/polls';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { verificationState } from '../identity';
import { readCurrentPolls } from './polls';
import { castVote, type PollServices } from './vote';

/**
 * The listing polls' calls. vote/list needs no session (tallies are public); with a live one it also says whether the
 * caller may vote and which option they chose. vote/set needs a session.
 */
export function pollHandlers(s: PollServices): CallHandlers<typeof pollCalls> {
  const { db } = s.database;
  return {
    'vote/list': async (_input, ctx) => {
      const now = s.now();
      const userId = ctx.session?.userId ?? null;
      return {
        polls: await readCurrentPolls(db, now, userId),
        voter: userId === null ? null : { verified: (await verificationState(db, userId, 'basic')) === 'verified' },
        server_time: now,
      };
    },
    'vote/set': async (input, ctx) => ({ poll: await castVote(s, requireSession(ctx).userId, input) }),
  };
}
