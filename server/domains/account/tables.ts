import type { Generated, Kysely } from 'kysely';
import type { CodeScene } from '../../../protocol';
import type { Database } from '../../platform/db/schema';

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

/** Simulated delivery of the platform's e-mails when there is no SMTP: each message as the user would read it. */
export interface MailOutboxTable {
  id: Generated<number>;
  address: string;
  subject: string;
  body: string;
  created_at: number;
}

// A type alias, not an interface: withTables wants a record type (an interface has no index signature).
export type AccountTables = {
  verification_codes: VerificationCodesTable;
  code_outbox: CodeOutboxTable;
  mail_outbox: MailOutboxTable;
};

export type AccountDb = Kysely<Database & AccountTables>;

/** The app's database (or a transaction) seen with this domain's tables, typed here beside the code that owns them. */
export const withAccount = (db: Kysely<Database>): AccountDb => db.withTables<AccountTables>();
