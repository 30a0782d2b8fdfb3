import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { RateLimiter } from '../../platform/security/rate-limit';
import type { Sessions } from '../../platform/security/sessions';
import { type CodeSender, codeSenderFor, OutboxSender } from './code-sender';
import { CodeService } from './codes';
import { type AccountLimits, DEFAULT_ACCOUNT_LIMITS } from './limits';
import { type Mailer, mailerFor, OutboxMailer } from './mail';
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
  /** The platform's e-mails (a new sign-in, ...): SMTP when configured, else mail_outbox. */
  mailer: Mailer;
  /** PUBLIC_ORIGIN: the sites an e-mail may link to (none: loopback hosts only). */
  publicOrigins: readonly string[];
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
  publicOrigins?: readonly string[] | undefined;
}

/** The app's account services: limits over their defaults, the password hasher, and codes sent where configured. */
export function accountServices(options: AccountServicesOptions): AccountServices {
  const { db, now, log, limiter, sessions } = options;
  const limits = { ...DEFAULT_ACCOUNT_LIMITS, ...options.limits };
  const outboxMailer = new OutboxMailer(db, now, log);
  const smtp = options.smtp ? mailerFor(db, options.smtp, () => outboxMailer) : undefined;
  const mailer = smtp ?? outboxMailer;
  const sender = options.codeSender ?? codeSenderFor(smtp, new OutboxSender(db, now, log, outboxMailer));
  return {
    db,
    now,
    log,
    limits,
    limiter,
    hasher: new PasswordHasher(options.hashCost),
    codes: new CodeService({ db, limiter, sender, limits, now, log }),
    sessions,
    mailer,
    publicOrigins: options.publicOrigins ?? [],
  };
}
