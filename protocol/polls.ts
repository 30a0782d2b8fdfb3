import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { recordIdField } from './fields';

/**
 * Listing polls (SPEC 7 `vote/set`, which names the call and nothing more). Our reading: the operator opens a poll
 * "which coin should be listed next?" with a few coins as its options; users with a verified identity (basic level)
 * vote once per poll, and a vote is final; everyone may read the tallies. Voting earns nothing: no reward, no bonus,
 * no promise that the winning coin will list at any price. The server's clock decides when a poll is open.
 */

/** What a poll asks. Only one kind today; the kind names the question the page shows. */
export const POLL_KINDS = ['next_listing'] as const;
export type PollKind = (typeof POLL_KINDS)[number];

/**
 * Where a poll stands at a moment: `upcoming` before `opens_at`, `open` until `closes_at` (or until an operator
 * closes it early), `closed` after. Only an open poll takes votes.
 */
export const POLL_STATUSES = ['upcoming', 'open', 'closed'] as const;
export type PollStatus = (typeof POLL_STATUSES)[number];

/** A coin symbol as the market writes it: an upper-case letter, then up to 9 upper-case letters or digits. */
export const POLL_SYMBOL_RE = /^[A-Z][A-Z0-9]{1,9}$/;
export const POLL_NAME_MAX = 40;
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 10;
/** The longest a poll may run, in days. */
export const POLL_DAYS_MAX = 90;
/** How long a closed poll stays in vote/list (its result), after it closed. */
export const POLL_RESULTS_KEPT_MS = 30 * 24 * 3_600_000;
/** Most polls one vote/list answer holds (open ones first). */
export const POLL_LIST_MAX = 20;

/** The status of a poll at `now` (ms): the one rule the server, the ops commands and the tests share. */
export function pollStatusAt(
  poll: { opens_at: number; closes_at: number; closed_at: number | null },
  now: number,
): PollStatus {
  if (poll.closed_at !== null && poll.closed_at <= now) return 'closed';
  if (now >= poll.closes_at) return 'closed';
  if (now < poll.opens_at) return 'upcoming';
  return 'open';
}

/** When a poll stopped (or will stop) taking votes: the operator's early close, else its closing time. */
export const pollEndedAt = (poll: { closes_at: number; closed_at: number | null }): number =>
  poll.closed_at !== null && poll.closed_at < poll.closes_at ? poll.closed_at : poll.closes_at;

/**
 * An option's share of the votes as a percentage with one decimal, cut (never rounded up), from integers only:
 * 1 of 3 is "33.3", 2 of 3 "66.6", 0 of 0 "0.0". Display only: the shares may add up to a little under 100.
 */
export function votePercent(votes: number, total: number): string {
  if (!Number.isSafeInteger(votes) || !Number.isSafeInteger(total) || votes <= 0 || total <= 0) return '0.0';
  const tenths = (BigInt(Math.min(votes, total)) * 1000n) / BigInt(total);
  return `${tenths / 10n}.${tenths % 10n}`;
}

export const pollOption = z.object({
  id: z.number().check(z.int()),
  symbol: z.string(),
  name: z.string(),
  votes: z.number().check(z.int(), z.gte(0)),
});
export type PollOption = z.infer<typeof pollOption>;

/** One poll with its options and tallies; `my_option_id` is the caller's vote (null: none yet, or a guest). */
export const poll = z.object({
  id: z.number().check(z.int()),
  kind: z.enum(POLL_KINDS),
  status: z.enum(POLL_STATUSES),
  opens_at: z.number().check(z.int()),
  closes_at: z.number().check(z.int()),
  /** Set when an operator closed the poll before its closing time. */
  closed_at: z.nullable(z.number().check(z.int())),
  total_votes: z.number().check(z.int(), z.gte(0)),
  options: z.array(pollOption),
  my_option_id: z.nullable(z.number().check(z.int())),
});
export type Poll = z.infer<typeof poll>;

/**
 * vote/list (no session needed): open and upcoming polls, then those closed within POLL_RESULTS_KEPT_MS, newest
 * first. `voter` is null for a guest; for a logged-in caller it says whether they may vote (a verified identity).
 */
export const pollListResponse = z.object({
  polls: z.array(poll),
  voter: z.nullable(z.object({ verified: z.boolean() })),
  server_time: z.number().check(z.int()),
});
export type PollList = z.infer<typeof pollListResponse>;

/**
 * vote/set (session): one vote for `option_id` in `poll_id`. Refused, changing nothing: `voteVerifyRequired` (no
 * verified identity; SPEC 8's prompt), `pollNotFound` (field poll_id), `pollOptionNotFound` (field option_id: not
 * an option of that poll), `pollNotOpen`, `pollClosed`, `pollAlreadyVoted` (votes are final; two submits at once
 * count once). Answers the poll with the vote counted.
 */
export const voteRequest = z.object({ poll_id: recordIdField, option_id: recordIdField });
export type VoteRequest = z.input<typeof voteRequest>;
export const voteResponse = z.object({ poll });

export const pollCalls = {
  'vote/list': call('GET', false, none, pollListResponse),
  'vote/set': call('POST', true, voteRequest, voteResponse),
} as const;
