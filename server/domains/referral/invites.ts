import { type Kysely, sql } from 'kysely';
import {
  INVITE_LEADERBOARD_SIZE,
  type InviteInfo,
  type InviteLeaderboard,
  inviteLinkPath,
  type MyAccountReturn,
  type MyInviteList,
  type Poster,
  type ShareInfo,
} from '../../../protocol/referral';
import { formatRatio } from '../../../protocol/rules/referral';
import { formatAmount } from '../../ledger';
import type { Database } from '../../platform/db/schema';
import { SessionRequiredError } from '../../platform/errors';
import { defaultShare, partnerOf, partnerWire } from './partners';
import { withReferral } from './tables';

/**
 * What a user sees of their referrals: their own code and link, their invitees (masked), the leaderboard (masked)
 * and the rebates they received. Every query is bound to the session's user; nobody reads another user's list.
 */

const PAGE = 20;

/**
 * A username as others may see it ('u12345678' → 'u12***78'): enough to recognise one's own entry, not to log in
 * with (usernames are login names). The same shape as the C2C buyer nickname.
 */
export function maskedName(username: string): string {
  const chars = [...username];
  if (chars.length < 6) return `${chars[0] ?? ''}***`;
  return `${chars.slice(0, 3).join('')}***${chars.slice(-2).join('')}`;
}

/** Whether the user at `userRef` has a verified basic identity verification (0/1 on SQLite, boolean on PostgreSQL). */
const verifiedBasic = (userRef: string) =>
  sql<
    number | boolean
  >`exists (select 1 from identity_verifications v where v.user_id = ${sql.ref(userRef)} and v.level = 'basic' and v.state = 'verified')`;

async function ownUser(db: Kysely<Database>, userId: number) {
  const row = await db
    .selectFrom('users')
    .select(['id', 'username', 'invite_code'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new SessionRequiredError('sessionExpired');
  return row;
}

/** user/invite. */
export async function inviteInfo(db: Kysely<Database>, userId: number): Promise<InviteInfo> {
  const user = await ownUser(db, userId);
  const counts = await db
    .selectFrom('users as u')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('invitees'),
      sql<number | string | null>`sum(case when ${verifiedBasic('u.id')} then 1 else 0 end)`.as('verified'),
    ])
    .where('u.referrer_id', '=', userId)
    .executeTakeFirstOrThrow();
  const share = await defaultShare(db);
  const partner = await partnerOf(db, userId);
  const active = partner?.status === 'active';
  return {
    invite_code: user.invite_code,
    link_path: inviteLinkPath(user.invite_code),
    invitees: Number(counts.invitees),
    verified_invitees: Number(counts.verified ?? 0),
    share: {
      ratio: formatRatio(active ? BigInt(partner.ratio_bp) : share),
      bonus: formatRatio(active ? BigInt(partner.bonus_bp) : 0n),
      default_ratio: formatRatio(share),
    },
    partner: partner ? partnerWire(partner) : null,
  };
}

/** user/my_invite_list: the user's invitees, newest first. */
export async function myInvitees(
  db: Kysely<Database>,
  userId: number,
  page: { limit?: number | undefined; beforeId?: number | undefined },
): Promise<MyInviteList> {
  const limit = page.limit ?? PAGE;
  const rows = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.username', 'u.created_at', verifiedBasic('u.id').as('verified')])
    .where('u.referrer_id', '=', userId)
    .$if(page.beforeId !== undefined, (qb) => qb.where('u.id', '<', page.beforeId ?? 0))
    .orderBy('u.id', 'desc')
    .limit(limit + 1)
    .execute();
  const items = rows.slice(0, limit).map((r) => ({
    id: r.id,
    name: maskedName(r.username),
    registered_at: r.created_at,
    verified: Boolean(Number(r.verified)),
  }));
  return { items, next_before_id: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/** user/invite_list: the top users by verified invitees; equal counts by earlier registration (lower id). */
export async function inviteLeaderboard(db: Kysely<Database>): Promise<InviteLeaderboard> {
  const rows = await db
    .selectFrom('users as u')
    .innerJoin('users as r', 'r.id', 'u.referrer_id')
    .select(['r.id', 'r.username', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where(sql<boolean>`${verifiedBasic('u.id')}`)
    .groupBy(['r.id', 'r.username'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('r.id')
    .limit(INVITE_LEADERBOARD_SIZE)
    .execute();
  return {
    items: rows.map((r, i) => ({ rank: i + 1, name: maskedName(r.username), verified_invitees: Number(r.n) })),
  };
}

/** user/my_account_return: rebates received as referrer or (a partner's bonus) as invitee, newest first. */
export async function myRebates(
  db: Kysely<Database>,
  userId: number,
  page: { limit?: number | undefined; beforeId?: number | undefined },
): Promise<MyAccountReturn> {
  const limit = page.limit ?? PAGE;
  // As referrer, or as the invitee a partner passed a bonus to; rows of the other side's part alone are not the user's.
  const mine = sql<boolean>`((x.referrer_id = ${userId} and x.referrer_amount > 0) or (x.payer_id = ${userId} and x.invitee_amount > 0))`;
  const rows = await withReferral(db)
    .selectFrom('referral_rebates as x')
    .innerJoin('users as p', 'p.id', 'x.payer_id')
    .select([
      'x.id',
      'x.created_at',
      'x.currency',
      'x.source',
      'x.fee_posting_id',
      'x.referrer_id',
      'x.referrer_amount',
      'x.invitee_amount',
      'p.username as payer_name',
    ])
    .where(mine)
    .$if(page.beforeId !== undefined, (qb) => qb.where('x.id', '<', page.beforeId ?? 0))
    .orderBy('x.id', 'desc')
    .limit(limit + 1)
    .execute();
  const items = rows.slice(0, limit).map((r) => {
    const referral = r.referrer_id === userId;
    return {
      id: Number(r.id),
      created_at: r.created_at,
      currency: r.currency,
      amount: formatAmount(r.currency, BigInt(referral ? r.referrer_amount : r.invitee_amount)),
      role: referral ? ('referral' as const) : ('bonus' as const),
      invitee: maskedName(r.payer_name),
      source: r.source,
      fee_posting_id: Number(r.fee_posting_id),
    };
  });
  const sums = await withReferral(db)
    .selectFrom('referral_rebates as x')
    .select((eb) => [
      'x.currency',
      eb.fn
        .sum<number | string>(
          eb
            .case()
            .when('x.referrer_id', '=', userId)
            .then(eb.ref('x.referrer_amount'))
            .else(eb.ref('x.invitee_amount'))
            .end(),
        )
        .as('total'),
    ])
    .where(mine)
    .groupBy('x.currency')
    .orderBy('x.currency')
    .execute();
  return {
    totals: sums.map((s) => ({ currency: s.currency, amount: formatAmount(s.currency, BigInt(String(s.total))) })),
    items,
    next_before_id: rows.length > limit ? (items.at(-1)?.id ?? null) : null,
  };
}

/** user/my_poster. */
export async function poster(db: Kysely<Database>, userId: number): Promise<Poster> {
  const user = await ownUser(db, userId);
  return {
    invite_code: user.invite_code,
    link_path: inviteLinkPath(user.invite_code),
    display_name: maskedName(user.username),
  };
}

/** user/my_share. */
export async function shareInfo(db: Kysely<Database>, userId: number): Promise<ShareInfo> {
  const user = await ownUser(db, userId);
  return { invite_code: user.invite_code, link_path: inviteLinkPath(user.invite_code) };
}
