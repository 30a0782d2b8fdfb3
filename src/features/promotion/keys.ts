/**
 * Query keys of the promotion page, all under one area, so a change (a bonus set, a pull to refresh) can reach every
 * referral view by prefix. The data is the user's own (the leaderboard too is kept per session: it names nobody in
 * full and is small), so it is forgotten on logout.
 */
export const promotionKeys = {
  all: ['referral'] as const,
  info: ['referral', 'info'] as const,
  poster: ['referral', 'poster'] as const,
  share: ['referral', 'share'] as const,
  invitees: ['referral', 'invitees'] as const,
  rebates: ['referral', 'rebates'] as const,
  leaderboard: ['referral', 'leaderboard'] as const,
};
