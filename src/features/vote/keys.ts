/**
 * Query keys of the listing polls. The list carries the caller's own votes, so it is user data (not under the public
 * area): it is keyed by the user it was read for and forgotten with them at logout.
 */
export const voteKeys = {
  all: ['vote'] as const,
  list: (userId: number | null) => ['vote', 'list', userId ?? 'guest'] as const,
};
