import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { RateLimiter } from '../../security/rate-limit';
import type { CodeService } from './codes';
import type { AccountLimits } from './limits';
import type { PasswordHasher } from './passwords';
import type { Sessions } from './sessions';

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
