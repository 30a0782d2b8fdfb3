import { type Poll, type PollList, pollCalls } from '../../protocol/polls';
import { areaApi, type CallOptions, type Refusal, refusal } from './client';

const { callApi, callApiResult } = areaApi(pollCalls);

/**
 * Listing polls (vote/*). The list is public; sent with a session it also carries the caller's own votes and whether
 * they may vote. No global loading bar: the page shows its own spinner or pull indicator.
 */
const read = { loading: false } as const;

/** Open polls and recent results with their tallies. */
export function fetchPolls(opts: CallOptions = read): Promise<PollList | false> {
  return callApi('vote/list', {}, opts);
}

/** What a vote answers: the poll with the vote counted, or the refusal's message and field for the page to show. */
export type VoteResult = { ok: true; poll: Poll } | Refusal;

/**
 * One final vote. Quiet: a refusal is not toasted, because the page answers it in place (SPEC 8's verification
 * prompt, or the message beside the poll).
 */
export async function castVote(pollId: number, optionId: number, opts: CallOptions = {}): Promise<VoteResult> {
  const r = await callApiResult(
    'vote/set',
    { poll_id: String(pollId), option_id: String(optionId) },
    { ...opts, quiet: true },
  );
  if (r.ok) return { ok: true, poll: r.data.poll };
  return refusal(r);
}
