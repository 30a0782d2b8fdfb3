import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { RateLimiter } from '../../platform/security/rate-limit';
import type { Sessions } from '../../platform/security/sessions';
import type { CodeService } from './codes';
import type { AccountLimits } from './limits';
import type { PasswordHasher } from './passwords';

/** What the account operations work with; built once per app in app.ts. */
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
