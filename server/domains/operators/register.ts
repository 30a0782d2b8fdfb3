import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../platform/db/connect';
import { requestLang } from '../../platform/http/errors';
import type { RateLimiter } from '../../platform/security/rate-limit';
import { type HashCost, PasswordHasher } from '../account';
import { CardVault, ephemeralDataKey } from '../bank-cards';
import type { UploadStore } from '../uploads';
import { type OpsSection, opsGate, registerOpsCalls, sendImage } from './console';
import { type ConsoleServices, DEFAULT_OPS_LOGIN_LIMITS, type OpsLoginLimits } from './login';
import { consoleSection, uploadFile } from './reviews';
import { DEFAULT_OPERATOR_SESSION_TIMES, OperatorSessions, type OperatorSessionTimes } from './sessions';
import { registerOperatorUpload } from './upload';
import { OpsViewLog } from './views';

export interface OpsConsoleOptions {
  database: DatabaseHandle;
  now: () => number;
  limiter: RateLimiter;
  /** Where review images are (the app's upload store). */
  uploads: UploadStore;
  /** argon2 cost; tests lower it. */
  hashCost?: HashCost | undefined;
  /** The data key that seals TOTP secrets (DATA_KEY or DATA_DIR/data.key); without one, this process's test key. */
  dataKey?: Uint8Array | undefined;
  sessionTimes?: Partial<OperatorSessionTimes>;
  limits?: Partial<OpsLoginLimits>;
  /** The console calls of other modules (support inbox, C2C appeals, help articles), each with its role. */
  sections?: readonly OpsSection[];
  log?: ConsoleServices['log'];
}

/**
 * The support console's server side: /api/ops/... in a Fastify scope of its own, behind the console session
 * (X-Ops-Token) and the role of each call. buildApp calls this once.
 */
export async function registerOpsConsole(app: FastifyInstance, options: OpsConsoleOptions): Promise<ConsoleServices> {
  const services: ConsoleServices = {
    database: options.database,
    now: options.now,
    hasher: new PasswordHasher(options.hashCost),
    vault: new CardVault(options.dataKey ?? ephemeralDataKey()),
    limiter: options.limiter,
    limits: { ...DEFAULT_OPS_LOGIN_LIMITS, ...options.limits },
    sessions: new OperatorSessions(options.database.db, options.now, {
      ...DEFAULT_OPERATOR_SESSION_TIMES,
      ...options.sessionTimes,
    }),
    log: options.log,
  };
  const gate = opsGate(services.sessions);
  await app.register(async (scope) => {
    const sections = [consoleSection(services), ...(options.sections ?? [])];
    const viewLog = new OpsViewLog(options.database, options.now);
    registerOpsCalls(scope, gate, sections, viewLog);
    await registerOperatorUpload(scope, gate, options);
    // Every image the console shows comes from a section (identity photos, deposit proofs, chat photos), so none is
    // served without its audit: recorded once per session and image, and only when the image is there to send.
    for (const route of sections.flatMap((section) => section.images ?? [])) {
      scope.get(`/api/${route.path}`, async (request, reply) => {
        const session = await gate(request, reply, route.access);
        if (!session) return reply;
        const image = await route.image(request.query as Record<string, unknown>);
        const file = await uploadFile(options.database.db, options.uploads, image?.uploadId ?? null);
        return sendImage(reply, requestLang(request), file, async () => {
          if (image) await viewLog.record(session, image.view);
        });
      });
    }
  });
  return services;
}
