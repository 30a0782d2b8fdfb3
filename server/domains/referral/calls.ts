import type { referralCalls } from '../../../protocol/referral';
import type { DatabaseHandle } from '../../platform/db/connect';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { inviteInfo, inviteLeaderboard, myInvitees, myRebates, poster, shareInfo } from './invites';
import { setBonus } from './partners';

export interface ReferralCallServices {
  database: DatabaseHandle;
  now: () => number;
}

/** The promotion calls (SPEC 7): the session's own referral data, the public leaderboard, a partner's bonus. */
export function referralHandlers(s: ReferralCallServices): CallHandlers<typeof referralCalls> {
  const { db } = s.database;
  return {
    'user/invite': async (_input, ctx) => inviteInfo(db, requireSession(ctx).userId),
    'user/my_invite_list': async (input, ctx) =>
      myInvitees(db, requireSession(ctx).userId, { limit: input.limit, beforeId: input.before_id }),
    'user/invite_list': async () => inviteLeaderboard(db),
    'user/my_account_return': async (input, ctx) =>
      myRebates(db, requireSession(ctx).userId, { limit: input.limit, beforeId: input.before_id }),
    'user/my_poster': async (_input, ctx) => poster(db, requireSession(ctx).userId),
    'user/my_share': async (_input, ctx) => shareInfo(db, requireSession(ctx).userId),
    'bonus/setBonus': async (input, ctx) => setBonus(db, requireSession(ctx).userId, input.bonus, s.now),
  };
}
