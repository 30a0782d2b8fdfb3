import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { RateLimiter } from '../../platform/security/rate-limit';
import type { Sessions } from '../../platform/security/sessions';
import { type CodeSender, codeSenderFor, OutboxSender } from './code-sender';
import { CodeService } from './codes';
import { type AccountLimits, DEFAULT_ACCOUNT_LIMITS } from './limits';
import { type HashCost, PasswordHasher } from './passwords';

/** What the account operations work with; built once per app (accountServices) and shared with other domains. */
export interface AccountServices {
  db: Kysely<Database>;
  now: () => number;
  log: FastifyBaseLogger;
  limits: AccountLimits;
  limiter: RateLimiter;
  hasher: PasswordHasher;
  codes: CodeService;
  sessions: Sessions;
}

export interface AccountServicesOptions {
  db: Kysely<Database>;
  now: () => number;
  log: FastifyBaseLogger;
  limiter: RateLimiter;
  sessions: Sessions;
  limits?: Partial<AccountLimits> | undefined;
  /** argon2 cost; tests lower it, production keeps the default. */
  hashCost?: HashCost | undefined;
  /** Where codes go; by default SMTP for e-mail when `smtp` is given, else the code_outbox table. */
  codeSender?: CodeSender | undefined;
  smtp?: { url: string; from: string } | undefined;
}

/** The app's account services: limits over their defaults, the password hasher, and codes sent where configured. */
export function accountServices(options: AccountServicesOptions): AccountServices {
  const { db, now, log, limiter, sessions } = options;
  const limits = { ...DEFAULT_ACCOUNT_LIMITS, ...options.limits };
  const sender = options.codeSender ?? codeSenderFor(options.smtp, new OutboxSender(db, now, log));
  return {
    db,
    now,
    log,
    limits,
    limiter,
    hasher: new PasswordHasher(options.hashCost),
    codes: new CodeService({ db, limiter, sender, limits, now, log }),
    sessions,
  };
}
