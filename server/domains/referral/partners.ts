import type { Kysely } from 'kysely';
import { DEFAULT_REFERRAL_SHARE, type PartnerInfo } from '../../../protocol/referral';
import { clampBonus, formatRatio, parseRatio, ratioInRange, ratioPercent } from '../../../protocol/rules/referral';
import { recordAudit } from '../../platform/audit';
import { handleOf, isUniqueViolation } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { randomString } from '../../platform/security/digest';
import { readSetting, writeSetting } from '../../platform/settings';
import { findUser } from '../account';
import type { ReferralPartnerRow } from './tables';
import { withReferral } from './tables';

/**
 * The terms a referrer earns under (RULES "Referral and partners"): the platform's default share (published, 20%
 * unless an operator changed it) or, for an active partner, its own ratio and the bonus it passes on. Operators grant,
 * change and revoke partners; every change is audited in its transaction.
 */

const SHARE_KEY = 'referral.share';
const DEFAULT_SHARE_BP = parseRatio(DEFAULT_REFERRAL_SHARE) ?? 2000n;

/** The default share in force, in basis points. */
export async function defaultShare(db: Kysely<Database>): Promise<bigint> {
  const stored = await readSetting(db, SHARE_KEY);
  const bp = stored === undefined ? null : parseRatio(stored);
  return bp !== null && ratioInRange(bp) ? bp : DEFAULT_SHARE_BP;
}

export interface OperatorOptions {
  operator?: string | undefined;
  now?: (() => number) | undefined;
}

type Problem<P extends string> = { ok: false; problem: P };

/** An operator's ratio as typed: '0.15' or '15%'; within 0 to 50%. */
export function operatorRatio(text: string): bigint | null {
  const t = text.trim();
  const percent = /^(\d{1,2}(\.\d{1,2})?)%$/.exec(t);
  let bp: bigint | null;
  if (percent?.[1]) {
    const [whole = '0', frac = ''] = percent[1].split('.');
    bp = BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
  } else {
    bp = parseRatio(t);
  }
  return bp !== null && ratioInRange(bp) ? bp : null;
}

/** Sets the default share for every referrer who is not an active partner; audited with the previous value. */
export async function setDefaultShare(
  db: Kysely<Database>,
  text: string,
  options: OperatorOptions = {},
): Promise<{ ok: true; share: string } | Problem<'bad ratio'>> {
  const bp = operatorRatio(text);
  if (bp === null) return { ok: false, problem: 'bad ratio' };
  const previous = formatRatio(await defaultShare(db));
  const share = formatRatio(bp);
  await writeSetting(db, {
    key: SHARE_KEY,
    value: share,
    action: 'referral_share.set',
    detail: { previous, value: share },
    operator: options.operator,
    now: options.now,
  });
  return { ok: true, share };
}

export const partnerWire = (row: ReferralPartnerRow): PartnerInfo => ({
  status: row.status,
  auth_code: row.auth_code,
  ratio: formatRatio(BigInt(row.ratio_bp)),
  bonus: formatRatio(BigInt(row.bonus_bp)),
  granted_at: row.granted_at,
  updated_at: row.updated_at,
});

export async function partnerOf(db: Kysely<Database>, userId: number): Promise<ReferralPartnerRow | undefined> {
  return withReferral(db).selectFrom('referral_partners').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** What a referrer earns on an invitee's fee now: its partner terms when active, else the default share. */
export interface ReferralTerms {
  ratio: bigint;
  bonus: bigint;
}

export async function termsOf(db: Kysely<Database>, referrerId: number, share?: bigint): Promise<ReferralTerms> {
  const partner = await partnerOf(db, referrerId);
  if (partner?.status === 'active') return { ratio: BigInt(partner.ratio_bp), bonus: BigInt(partner.bonus_bp) };
  return { ratio: share ?? (await defaultShare(db)), bonus: 0n };
}

/** Authorisation codes: `P` and 9 characters of the invite codes' alphabet (no look-alike characters). */
const AUTH_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const newAuthCode = () => `P${randomString(AUTH_ALPHABET, 9)}`;

export type PartnerResult =
  | { ok: true; userId: number; partner: PartnerInfo }
  | Problem<'no such user' | 'bad ratio' | 'not a partner' | 'already a partner'>;

/**
 * Makes a user a partner at `ratio` with a new random authorisation code (a revoked partner comes back with a new
 * code and no bonus). Audited in the same transaction.
 */
export async function grantPartner(
  db: Kysely<Database>,
  who: string,
  ratioText: string,
  options: OperatorOptions = {},
): Promise<PartnerResult> {
  const ratio = operatorRatio(ratioText);
  if (ratio === null) return { ok: false, problem: 'bad ratio' };
  const user = await findUser(db, who);
  if (!user) return { ok: false, problem: 'no such user' };
  const at = (options.now ?? Date.now)();
  for (let attempt = 0; ; attempt++) {
    const code = newAuthCode();
    try {
      return await writeTransaction(handleOf(db), async (trx) => {
        const before = await partnerOf(trx, user.id);
        if (before?.status === 'active') return { ok: false, problem: 'already a partner' } as const;
        const values = {
          auth_code: code,
          status: 'active' as const,
          ratio_bp: Number(ratio),
          bonus_bp: 0,
          granted_at: at,
          updated_at: at,
        };
        if (before)
          await withReferral(trx).updateTable('referral_partners').set(values).where('user_id', '=', user.id).execute();
        else
          await withReferral(trx)
            .insertInto('referral_partners')
            .values({ user_id: user.id, ...values })
            .execute();
        await recordAudit(trx, {
          action: 'referral_partner.grant',
          subjectType: 'user',
          subjectId: user.id,
          detail: { ratio: formatRatio(ratio), auth_code: code, before: before ? partnerWire(before) : null },
          at,
          ...(options.operator ? { operator: options.operator } : {}),
        });
        const row = await partnerOf(trx, user.id);
        if (!row) throw new Error('partner row vanished');
        return { ok: true, userId: user.id, partner: partnerWire(row) } as const;
      });
    } catch (err) {
      // A code drawn twice (about one in 10^13): draw again.
      if (isUniqueViolation(err) && attempt < 3) continue;
      throw err;
    }
  }
}

/** Changes an active partner's ratio; a bonus above the new ratio comes down to it. Audited. */
export async function setPartnerRatio(
  db: Kysely<Database>,
  who: string,
  ratioText: string,
  options: OperatorOptions = {},
): Promise<PartnerResult> {
  const ratio = operatorRatio(ratioText);
  if (ratio === null) return { ok: false, problem: 'bad ratio' };
  return changePartner(db, who, 'referral_partner.ratio', options, (row) => ({
    ratio_bp: Number(ratio),
    bonus_bp: Number(clampBonus(ratio, BigInt(row.bonus_bp))),
  }));
}

/** Ends a partner status: the default share applies again from the next fee on. Audited. */
export function revokePartner(db: Kysely<Database>, who: string, options: OperatorOptions = {}) {
  return changePartner(db, who, 'referral_partner.revoke', options, () => ({ status: 'revoked' as const }));
}

async function changePartner(
  db: Kysely<Database>,
  who: string,
  action: string,
  options: OperatorOptions,
  change: (row: ReferralPartnerRow) => Partial<Pick<ReferralPartnerRow, 'status' | 'ratio_bp' | 'bonus_bp'>>,
): Promise<PartnerResult> {
  const user = await findUser(db, who);
  if (!user) return { ok: false, problem: 'no such user' };
  const at = (options.now ?? Date.now)();
  return writeTransaction(handleOf(db), async (trx) => {
    const before = await lockedPartner(trx, user.id);
    if (before?.status !== 'active') return { ok: false, problem: 'not a partner' } as const;
    await withReferral(trx)
      .updateTable('referral_partners')
      .set({ ...change(before), updated_at: at })
      .where('user_id', '=', user.id)
      .execute();
    const row = await partnerOf(trx, user.id);
    if (!row) throw new Error('partner row vanished');
    await recordAudit(trx, {
      action,
      subjectType: 'user',
      subjectId: user.id,
      detail: { before: partnerWire(before), after: partnerWire(row) },
      at,
      ...(options.operator ? { operator: options.operator } : {}),
    });
    return { ok: true, userId: user.id, partner: partnerWire(row) } as const;
  });
}

/** The partner row, locked on PostgreSQL until the transaction ends (SQLite's write transaction is exclusive). */
function lockedPartner(trx: Kysely<Database>, userId: number) {
  const kind = handleOf(trx).kind;
  return withReferral(trx)
    .selectFrom('referral_partners')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(kind === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
}

/** bonus/setBonus: an active partner sets the bonus passed to its invitees, 0 to its own ratio. */
export async function setBonus(
  db: Kysely<Database>,
  userId: number,
  bonusText: string,
  now: () => number,
): Promise<PartnerInfo> {
  const bonus = parseRatio(bonusText);
  if (bonus === null) throw new BusinessError('referralRatioInvalid', { field: 'bonus' });
  return writeTransaction(handleOf(db), async (trx) => {
    const row = await lockedPartner(trx, userId);
    if (row?.status !== 'active') throw new BusinessError('referralNotPartner');
    if (bonus > BigInt(row.ratio_bp)) {
      throw new BusinessError('referralBonusAboveRatio', {
        field: 'bonus',
        data: { ratio: ratioPercent(BigInt(row.ratio_bp)) },
      });
    }
    const at = now();
    await withReferral(trx)
      .updateTable('referral_partners')
      .set({ bonus_bp: Number(bonus), updated_at: at })
      .where('user_id', '=', userId)
      .execute();
    return partnerWire({ ...row, bonus_bp: Number(bonus), updated_at: at });
  });
}

/** Every partner, active first, newest grant first. */
export async function listPartners(db: Kysely<Database>) {
  return withReferral(db)
    .selectFrom('referral_partners as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.user_id', 'u.username', 'p.auth_code', 'p.status', 'p.ratio_bp', 'p.bonus_bp', 'p.granted_at'])
    .orderBy('p.status')
    .orderBy('p.granted_at', 'desc')
    .orderBy('p.user_id')
    .execute();
}
