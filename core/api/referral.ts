import {
  type InviteInfo,
  type InviteLeaderboard,
  type MyAccountReturn,
  type MyInviteList,
  type PartnerInfo,
  type Poster,
  referralCalls,
  type ShareInfo,
} from '../../protocol/referral';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(referralCalls);

/**
 * Referral and partners (user/invite … bonus/setBonus). Reads show no global loading bar: the promotion page shows
 * its own spinners and pull indicator.
 */
const read = { loading: false } as const;

/** Cursor paging fields: `limit`, and `before_id` from the previous page (none for the first). */
const pageFields = (beforeId: number | null, limit: number) => ({
  limit: String(limit),
  ...(beforeId !== null ? { before_id: String(beforeId) } : {}),
});

/** The caller's invite code and link path, invitee counts, the share in force and the partner standing. */
export function fetchInviteInfo(opts: CallOptions = read): Promise<InviteInfo | false> {
  return callApi('user/invite', {}, opts);
}

/** One page of the caller's invitees, newest first (names masked by the server). */
export function fetchMyInvitees(
  beforeId: number | null,
  limit = 20,
  opts: CallOptions = read,
): Promise<MyInviteList | false> {
  return callApi('user/my_invite_list', pageFields(beforeId, limit), opts);
}

/** One page of the rebates the caller received, newest first, with the all-time totals per currency. */
export function fetchMyRebates(
  beforeId: number | null,
  limit = 20,
  opts: CallOptions = read,
): Promise<MyAccountReturn | false> {
  return callApi('user/my_account_return', pageFields(beforeId, limit), opts);
}

/** The top 10 by verified invitees, names masked (public). */
export function fetchInviteLeaderboard(opts: CallOptions = read): Promise<InviteLeaderboard | false> {
  return callApi('user/invite_list', {}, opts);
}

/** What the caller's poster shows: invite code, link path and the caller's masked name. */
export function fetchPoster(opts: CallOptions = read): Promise<Poster | false> {
  return callApi('user/my_poster', {}, opts);
}

/** The invite code and link path to share. */
export function fetchShareInfo(opts: CallOptions = read): Promise<ShareInfo | false> {
  return callApi('user/my_share', {}, opts);
}

/** What setting the bonus answered: the partner's new standing, or the refusal and the field it is about. */
export type SetBonusResult = { ok: true; partner: PartnerInfo } | { ok: false; message: string; field?: string };

/**
 * An active partner sets the bonus passed to its invitees (a fraction as decimal text, 0 to its ratio). Quiet: the
 * form shows the refusal under its field.
 */
export async function setPartnerBonus(bonus: string): Promise<SetBonusResult> {
  const r = await callApiResult('bonus/setBonus', { bonus }, { quiet: true });
  if (r.ok) return { ok: true, partner: r.data };
  return { ok: false, message: r.message, ...(r.field ? { field: r.field } : {}) };
}
