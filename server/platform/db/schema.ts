import type { Generated, Insertable, Selectable } from 'kysely';
import type { Lang } from '../../../protocol';

/**
 * Table types for Kysely. Shared by SQLite and PostgreSQL, so: times are integer milliseconds
 * (bigint in PostgreSQL, read back as numbers), booleans would be 0/1 integers, ids are auto-increment integers.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lowercased. */
  email: string | null;
  /** Calling code digits without '+', e.g. '49'. */
  area_code: string | null;
  /** National number digits without trunk zero, e.g. '15112345678'. */
  mobile: string | null;
  /** `+<area_code><mobile>`: the unique form of the phone number, also the code address. */
  phone: string | null;
  password_hash: string;
  fund_password_hash: string | null;
  invite_code: string;
  /** User whose invite code was used; null when the platform code was used. */
  referrer_id: number | null;
  lang: Lang;
  created_at: number;
  last_login_at: number | null;
  /** The phrase every e-mail to the user carries (anti-phishing code); null when none is set. */
  anti_phishing: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The browser's User-Agent at sign-in, cut to 512 characters; null for sessions started before it was kept. */
  user_agent: string | null;
  /** When a request last carried the token, at most a minute behind; null until the first such request. */
  last_used_at: number | null;
  /** When the user ended it from the device list (its device is no longer a known one); null otherwise. */
  ended_from_list: number | null;
}

/** One row per counted event; a limit counts the rows of its bucket inside its window. */
export interface RateLimitHitsTable {
  id: Generated<number>;
  bucket: string;
  at: number;
}

export interface PlatformSettingsTable {
  key: string;
  value: string;
}

/** One operator action (`npm run ops`); append-only. `detail` is JSON. */
export interface OpsAuditTable {
  id: Generated<number>;
  at: number;
  /** OPS_OPERATOR, else the OS user who ran the command. */
  operator: string;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: string;
}

/** A private event for one user, relayed to the sockets of that user. `payload` is JSON. */
export interface UserEventsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  payload: string;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  rate_limit_hits: RateLimitHitsTable;
  platform_settings: PlatformSettingsTable;
  ops_audit: OpsAuditTable;
  user_events: UserEventsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
