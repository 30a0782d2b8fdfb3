import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

/** An operator of the support console (server/domains/operators): an account of its own, never a user. */
export interface OperatorsTable {
  id: Generated<number>;
  /** Lower case, unique; the name the audit log records for the operator's actions. */
  name: string;
  /** argon2id (the account module's PasswordHasher). */
  password_hash: string;
  /** The TOTP secret (base32), sealed under the data key. */
  totp_secret_enc: string;
  /** The last TOTP time step a login used: a code of that step or an earlier one is refused. */
  totp_last_step: number | null;
  /** Comma-separated roles of support, reviewer, qa, admin (protocol/ops-console.ts OPS_ROLES). */
  roles: string;
  disabled_at: number | null;
  created_at: number;
  last_login_at: number | null;
}

/** A console session of an operator; only sha256(token) is stored (like user sessions). */
export interface OperatorSessionsTable {
  id: Generated<number>;
  operator_id: number;
  token_hash: string;
  created_at: number;
  /** Renewed by requests: the session ends after a while without any (idle expiry). */
  last_seen_at: number;
  /** The session ends then whatever happens (absolute expiry). */
  expires_at: number;
  revoked_at: number | null;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type OperatorsTables = {
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
};

export type OperatorsDb = Kysely<Database & OperatorsTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withOperators = (db: Kysely<Database>): OperatorsDb => db.withTables<OperatorsTables>();
