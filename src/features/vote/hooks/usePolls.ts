import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useSnapshot } from 'valtio';
import { castVote, fetchPolls } from '../../../../core/api/polls';
import type { Poll, PollList } from '../../../../protocol/polls';
import { need } from '../../../data/query';
import { isLoggedIn, session } from '../../../state/session';
import { voteKeys } from '../keys';

/** Who is looking: a guest, a user who may not vote yet (no verified identity), or a voter. */
export type Viewer = 'guest' | 'unverified' | 'verified';

/** The polls as the server has them for this user (or a guest), and who is looking. */
export function usePolls() {
  const snap = useSnapshot(session);
  const userId = isLoggedIn(snap) ? (snap.user?.id ?? null) : null;
  const query = useQuery({ queryKey: voteKeys.list(userId), queryFn: () => need(fetchPolls()) });
  const voter = query.data?.voter;
  // A token the server no longer takes reads as a guest there; the 999 of the next private call logs out.
  const viewer: Viewer = userId === null || voter === null ? 'guest' : voter?.verified ? 'verified' : 'unverified';
  return { query, userId, viewer };
}

export type VoteOutcome = 'counted' | 'verifyRequired' | 'refused';

/**
 * Casting one vote: the answer's poll replaces the listed one at once (the tally moves), then the list is read again
 * (other polls may have moved too). SPEC 8's refusal for an unverified account is told apart from the others, which
 * come back as their message.
 */
export function useVote(userId: number | null) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<number | null>(null);
  const vote = useCallback(
    async (pollId: number, optionId: number): Promise<{ outcome: VoteOutcome; message?: string }> => {
      setBusy(pollId);
      try {
        const r = await castVote(pollId, optionId);
        if (r.ok) {
          client.setQueryData<PollList>(voteKeys.list(userId), (list) =>
            list ? { ...list, polls: list.polls.map((p: Poll) => (p.id === r.poll.id ? r.poll : p)) } : list,
          );
          void client.invalidateQueries({ queryKey: voteKeys.all });
          return { outcome: 'counted' };
        }
        if (r.reason === 'voteVerifyRequired') return { outcome: 'verifyRequired' };
        // Closed meanwhile, or already voted from another tab: the list shows how things stand now.
        void client.invalidateQueries({ queryKey: voteKeys.all });
        return { outcome: 'refused', message: r.message };
      } finally {
        setBusy(null);
      }
    },
    [client, userId],
  );
  return { vote, busy };
}
