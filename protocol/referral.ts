import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { beforeIdField, listLimitField } from './fields';
import { decimalString } from './market';

/**
 * Referral and partners (RULES "Referral and partners", SPEC 3 "Promotion", SPEC 7 user/invite … bonus/setBonus).
 * Every user has an invite code; the referrer is fixed at registration. A referrer earns a share of the trading fees
 * (spot and lever, real money only) their invitees pay, credited from the fee account to the referrer's coin account
 * in the fee's currency. A partner (granted by an operator, with an authorisation code) earns its own ratio instead
 * and may pass part of it (the bonus) to its invitees. No sign-up bonus.
 *
 * Ratios on the wire are fractions as decimal text with at most 4 decimals ('0.2' = 20%, '0.0125' = 1.25%); the
 * server answers them with exactly 4 ('0.2000'). protocol/rules/referral.ts parses and formats them and computes
 * the split of a fee.
 */

/** The published default share of a referrer (20%); an operator may change the platform's default. */
export const DEFAULT_REFERRAL_SHARE = '0.2000';
/** Highest ratio an operator may give a partner or set as the default share (50%). */
export const REFERRAL_RATIO_MAX = '0.5000';
/** A ratio as typed: a fraction with at most 4 decimals (its range is checked by the rules and the server). */
export const REFERRAL_RATIO_RE = /^\d{1,3}(\.\d{1,4})?$/;

/** Where an invite link leads: the register page with the code filled in (`<path>?invite=<code>`). */
export const INVITE_PATH = '/pages/user/register';
export const inviteLinkPath = (code: string): string => `${INVITE_PATH}?invite=${encodeURIComponent(code)}`;

/** How many users the leaderboard lists. */
export const INVITE_LEADERBOARD_SIZE = 10;

/** A partner's status: granted by an operator, or revoked (then the default share applies again). */
export const PARTNER_STATUSES = ['active', 'revoked'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

/** Which trading fee a rebate comes from. */
export const REBATE_SOURCES = ['spot', 'lever'] as const;
export type RebateSource = (typeof REBATE_SOURCES)[number];

/**
 * Whose part of a fee a rebate row is: `referral`, the referrer's part of an invitee's fee; `bonus`, the part a
 * partner passes on to the invitee who paid the fee.
 */
export const REBATE_ROLES = ['referral', 'bonus'] as const;
export type RebateRole = (typeof REBATE_ROLES)[number];

/** A ratio field of a form (error key `referralRatioInvalid`). */
export const referralRatioField = z
  .string({ error: 'referralRatioInvalid' })
  .check(z.trim(), z.regex(REFERRAL_RATIO_RE, { error: 'referralRatioInvalid' }));

/** A partner's standing as its owner sees it. */
export const partnerInfo = z.object({
  status: z.enum(PARTNER_STATUSES),
  /** The authorisation code the operator's grant created. */
  auth_code: z.string(),
  /** The partner's share of its invitees' fees (fraction, 4 decimals). */
  ratio: z.string(),
  /** The part of `ratio` passed on to the invitee who paid the fee (0 ≤ bonus ≤ ratio). */
  bonus: z.string(),
  granted_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
});
export type PartnerInfo = z.infer<typeof partnerInfo>;

/**
 * user/invite: the caller's invite code and link path, how many users registered with it (and how many of those are
 * identity-verified, basic level), the share in force for the caller's referrals (the partner ratio when an active
 * partner, else the platform's default share; `bonus` is what an active partner passes on, else '0.0000') and the
 * caller's partner standing, null when never granted.
 */
export const inviteInfoResponse = z.object({
  invite_code: z.string(),
  link_path: z.string(),
  invitees: z.number().check(z.int()),
  verified_invitees: z.number().check(z.int()),
  share: z.object({ ratio: z.string(), bonus: z.string(), default_ratio: z.string() }),
  partner: z.nullable(partnerInfo),
});
export type InviteInfo = z.infer<typeof inviteInfoResponse>;

/** One of the caller's invitees. `name` is masked (enough to recognise, not to read off). */
export const invitee = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  registered_at: z.number().check(z.int()),
  /** Basic identity verification approved. */
  verified: z.boolean(),
});
export type Invitee = z.infer<typeof invitee>;

/** user/my_invite_list: the caller's invitees, newest first, `before_id` paging (20 by default, at most 100). */
export const myInviteListRequest = z.object({ limit: listLimitField, before_id: beforeIdField });
export type MyInviteListRequest = z.input<typeof myInviteListRequest>;
export const myInviteListResponse = z.object({
  items: z.array(invitee),
  /** Pass as `before_id` for the next page; null when this page was the last. */
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type MyInviteList = z.infer<typeof myInviteListResponse>;

/** One place on the leaderboard. */
export const inviteRank = z.object({
  /** 1-based; users with equal counts get consecutive places, the earlier registered first. */
  rank: z.number().check(z.int()),
  name: z.string(),
  verified_invitees: z.number().check(z.int()),
});
export type InviteRank = z.infer<typeof inviteRank>;

/**
 * user/invite_list (no session needed): the top INVITE_LEADERBOARD_SIZE users by number of verified invitees, names
 * masked; users without any verified invitee are not listed.
 */
export const inviteLeaderboardResponse = z.object({ items: z.array(inviteRank) });
export type InviteLeaderboard = z.infer<typeof inviteLeaderboardResponse>;

/** One rebate the caller received. `amount` is exact decimal text with all of the currency's decimals. */
export const rebateRecord = z.object({
  id: z.number().check(z.int()),
  created_at: z.number().check(z.int()),
  currency: z.string(),
  amount: decimalString,
  role: z.enum(REBATE_ROLES),
  /** The masked name of the invitee whose fee it came from (for `bonus`, the caller's own). */
  invitee: z.string(),
  source: z.enum(REBATE_SOURCES),
  /** The ledger posting of the fee it came from (each fee is rebated once). */
  fee_posting_id: z.number().check(z.int()),
});
export type RebateRecord = z.infer<typeof rebateRecord>;

/** user/my_account_return: rebates received, newest first, `before_id` paging. */
export const myAccountReturnRequest = z.object({ limit: listLimitField, before_id: beforeIdField });
export type MyAccountReturnRequest = z.input<typeof myAccountReturnRequest>;
export const myAccountReturnResponse = z.object({
  /** All rebates ever received, per currency (both roles), currencies in alphabetical order. */
  totals: z.array(z.object({ currency: z.string(), amount: decimalString })),
  items: z.array(rebateRecord),
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type MyAccountReturn = z.infer<typeof myAccountReturnResponse>;

/** user/my_poster: what the poster shows: the invite code, the link path and the caller's masked display name. */
export const posterResponse = z.object({ invite_code: z.string(), link_path: z.string(), display_name: z.string() });
export type Poster = z.infer<typeof posterResponse>;

/** user/my_share: the link path and invite code to share (the client words the text). */
export const shareResponse = z.object({ invite_code: z.string(), link_path: z.string() });
export type ShareInfo = z.infer<typeof shareResponse>;

/**
 * bonus/setBonus: an active partner sets the bonus passed to its invitees, 0 ≤ bonus ≤ its ratio (errors
 * `referralRatioInvalid`, `referralBonusAboveRatio`, `referralNotPartner`); answers the new partner info.
 */
export const setBonusRequest = z.object({ bonus: referralRatioField });
export type SetBonusRequest = z.input<typeof setBonusRequest>;

/** The referral calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const referralCalls = {
  'user/invite': call('GET', true, none, inviteInfoResponse),
  'user/my_invite_list': call('POST', true, myInviteListRequest, myInviteListResponse),
  'user/invite_list': call('POST', false, none, inviteLeaderboardResponse),
  'user/my_account_return': call('POST', true, myAccountReturnRequest, myAccountReturnResponse),
  'user/my_poster': call('GET', true, none, posterResponse),
  'user/my_share': call('GET', true, none, shareResponse),
  'bonus/setBonus': call('POST', true, setBonusRequest, partnerInfo),
} as const;
