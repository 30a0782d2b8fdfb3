import type { Generated, Kysely } from 'kysely';
import type { VerificationLevel } from '../../../protocol';
import type { Database } from '../../platform/db/schema';

export type IdentityState = 'pending' | 'verified' | 'rejected';

/** One submission of identity verification. At most one pending or verified row per user and level. */
export interface IdentityVerificationsTable {
  id: Generated<number>;
  user_id: number;
  level: VerificationLevel;
  state: IdentityState;
  /** Basic level: ISO 3166 alpha-2 country, full name, ID number, contact address. */
  country: string | null;
  name: string | null;
  id_number: string | null;
  address: string | null;
  /** Advanced level: the three photos. */
  front_upload_id: number | null;
  back_upload_id: number | null;
  hold_upload_id: number | null;
  /** The operator's reason for a rejection. */
  reason: string | null;
  created_at: number;
  reviewed_at: number | null;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type IdentityTables = {
  identity_verifications: IdentityVerificationsTable;
};

export type IdentityDb = Kysely<Database & IdentityTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withIdentity = (db: Kysely<Database>): IdentityDb => db.withTables<IdentityTables>();
