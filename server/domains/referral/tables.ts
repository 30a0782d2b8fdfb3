import type { Generated, Kysely, Selectable } from 'kysely';
import type { PartnerStatus, RebateSource } from '../../../protocol/referral';
import type { Database } from '../../platform/db/schema';

/** A referral partner's terms (migration 0020). */
export interface ReferralPartnersTable {
  user_id: number;
  /** Created at random by the grant; shown to the partner. */
  auth_code: string;
  status: PartnerStatus;
  /** Basis points (protocol/rules/referral.ts). */
  ratio_bp: number;
  bonus_bp: number;
  granted_at: number;
  updated_at: number;
}

/** One rebated trading fee (unique per fee posting); amounts in minor units of `currency`. */
export interface ReferralRebatesTable {
  id: Generated<number>;
  fee_posting_id: number;
  source: RebateSource;
  /** The invitee who paid the fee. */
  payer_id: number;
  referrer_id: number;
  currency: string;
  fee: number;
  /** The terms applied (the partner's, or the default share with no bonus). */
  ratio_bp: number;
  bonus_bp: number;
  referrer_amount: number;
  invitee_amount: number;
  created_at: number;
}

export type ReferralPartnerRow = Selectable<ReferralPartnersTable>;
export type ReferralRebateRow = Selectable<ReferralRebatesTable>;

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type ReferralTables = {
  referral_partners: ReferralPartnersTable;
  referral_rebates: ReferralRebatesTable;
};

export type ReferralDb = Kysely<Database & ReferralTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withReferral = (db: Kysely<Database>): ReferralDb => db.withTables<ReferralTables>();
