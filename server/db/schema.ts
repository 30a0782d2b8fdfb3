import type { Generated, Insertable, Selectable } from 'kysely';
import type { CodeScene, Lang } from '../../protocol';

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
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export type CodeChannel = 'email' | 'sms';

export interface VerificationCodesTable {
  id: Generated<number>;
  channel: CodeChannel;
  address: string;
  scene: CodeScene;
  code_hash: string;
  created_at: number;
  expires_at: number;
  /** Wrong attempts so far; the code is dead at the limit. */
  tries: number;
  consumed_at: number | null;
}

/** Simulated delivery: where codes go when there is no SMTP (and always for SMS). Read by e2e tests and `ops codes`. */
export interface CodeOutboxTable {
  id: Generated<number>;
  channel: CodeChannel;
  address: string;
  scene: CodeScene;
  code: string;
  created_at: number;
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

/** Every published price, so a settlement can be checked against the feed later (DESIGN "Fair outcomes"). */
export interface PriceTicksTable {
  id: Generated<number>;
  instrument_id: number;
  symbol: string;
  /** Server ms of the price. */
  ts: number;
  /** Exact decimal string, as published. */
  price: string;
  /** The feed's per-instrument sequence number. */
  seq: number;
}

/** A user's favourite instruments (currency/user_currency_list). */
export interface FavouritesTable {
  user_id: number;
  symbol: string;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  code_outbox: CodeOutboxTable;
  rate_limit_hits: RateLimitHitsTable;
  platform_settings: PlatformSettingsTable;
  price_ticks: PriceTicksTable;
  favourites: FavouritesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewPriceTick = Insertable<PriceTicksTable>;
