import { fileURLToPath } from 'node:url';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../protocol/identity';
import { calls, DOMAINS } from './domains';
import { type AccountLimits, accountServices, type CodeSender, type HashCost } from './domains/account';
import { accountGuardsOf, callRoutes, startDomains, tracedOrdersOf } from './domains/compose';
import type { DomainContext, DomainSettings } from './domains/contract';
import { UploadStore } from './domains/uploads';
import { Ledger } from './ledger';
import { type MarketFeed, marketSnapshotOf } from './market';
import type { DatabaseHandle } from './platform/db/connect';
import { registerApiDocs } from './platform/http/api-docs';
import { registerCalls } from './platform/http/calls';
import { envelopeServerOptions, registerErrorHandling, replyNotFound } from './platform/http/errors';
import { hasBuiltClient, registerSpa } from './platform/http/static';
import { type LeaseStore, LocalLeases, RedisLeases } from './platform/jobs/leases';
import { JobRunner } from './platform/jobs/runner';
import { attachRealtime, dropEndedSessions, type RealtimeServer, SESSION_CHECK_MS } from './platform/realtime/gateway';
import { PrivateChannels } from './platform/realtime/private-topics';
import { connectRedis } from './platform/realtime/redis';
import { type LocalRooms, socketSink, UserEventRelay } from './platform/realtime/user-events';
import { RateLimiter } from './platform/security/rate-limit';
import { Sessions } from './platform/security/sessions';

export type { MarketOptions } from './domains/contract';

declare module 'fastify' {
  interface FastifyInstance {
    /** The socket.io server on this app's HTTP server. */
    io: RealtimeServer;
    /** Private topics and socket commands (domains register theirs when the app is built). */
    channels: PrivateChannels;
  }
}

/** How the app is built; the domains' own settings (DomainSettings: market, jobs' intervals, data key...) too. */
export interface AppOptions extends DomainSettings {
  /** An open, migrated database; the caller owns it (closing the app leaves it open). */
  database: DatabaseHandle;
  /** The server's clock in milliseconds; tests move it to expire codes and sessions. */
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
  limits?: Partial<AccountLimits>;
  /** argon2 cost; tests lower it, production keeps the default. */
  hashCost?: HashCost;
  /** Where codes go; by default SMTP for e-mail when `smtp` is given, else the code_outbox table. */
  codeSender?: CodeSender;
  smtp?: { url: string; from: string } | undefined;
  /** The built client to serve at `/`; default `dist/` of the project when it holds an index.html; false for none. */
  staticDir?: string | false;
  redisUrl?: string | undefined;
  /** Behind a reverse proxy, trust its X-Forwarded-For so rate limits see the client's IP. */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** Where cluster jobs take their leases; default Redis with `redisUrl`, else this process alone. */
  leases?: LeaseStore;
  /** How often this process relays new user events to its sockets (default 1000 ms). */
  userEventsPollMs?: number;
}

const DEFAULT_DIST = fileURLToPath(new URL('../dist', import.meta.url));

/** Requests are small forms; anything much bigger is a mistake or an attack. */
export const BODY_LIMIT = 64 * 1024;

/** Builds the whole server: /api calls, socket.io, the static client. Call `listen` or `inject` on the result. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const now = options.now ?? Date.now;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    // Errors before any route (Node's parser, bad URL encoding) are answered in the envelope too.
    ...envelopeServerOptions,
  });

  await app.register(formbody, { bodyLimit: BODY_LIMIT });
  acceptEmptyJson(app);
  // Only forms and JSON are requests here; Fastify would otherwise hand plain text to the handlers.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);

  const { db } = options.database;
  // Background work of every module runs here: cluster jobs in one process at a time, process jobs in each.
  const jobs = new JobRunner({
    leases: options.leases ?? (options.redisUrl ? await redisLeases(app, options.redisUrl) : new LocalLeases(now)),
    onError: (job, err) => app.log.error({ err, job }, 'job round failed'),
  });
  const limiter = new RateLimiter(options.database, now);
  const sessions = new Sessions(db, now);
  const ctx: DomainContext = {
    database: options.database,
    db,
    now,
    log: app.log,
    // The one ledger of this app: every balance change of every domain goes through it.
    ledger: new Ledger(options.database, now),
    feed: options.market?.feed,
    limiter,
    sessions,
    account: accountServices({ ...options, db, now, log: app.log, limiter, sessions }),
    uploads: new UploadStore({
      db,
      dir: options.uploadsDir,
      maxBytes: options.maxUploadBytes ?? MAX_UPLOAD_BYTES,
      now,
    }),
    settings: options,
    accountGuards: accountGuardsOf(DOMAINS),
    tracedOrders: tracedOrdersOf(DOMAINS),
  };

  const parts = await startDomains(DOMAINS, ctx);
  for (const part of parts) {
    for (const job of part.jobs ?? []) jobs.register(job);
    const { close } = part;
    if (close) app.addHook('onClose', async () => await close());
  }
  registerCalls(app, callRoutes(DOMAINS, parts), sessions, { db, now });
  const composed = { console: parts.flatMap((p) => p.console ?? []) };
  for (const part of parts) await part.routes?.(app, composed);

  const staticDir = options.staticDir ?? DEFAULT_DIST;
  if (staticDir && hasBuiltClient(staticDir)) await registerSpa(app, staticDir, snapshotOf(options.market?.feed, now));
  else app.setNotFoundHandler(replyNotFound);

  // Private topics and socket commands of every domain.
  const channels = new PrivateChannels(now, db);
  for (const part of parts) {
    for (const topic of part.topics ?? []) channels.topic(topic);
    for (const command of part.commands ?? []) channels.command(command);
  }
  const realtimeModules = [channels.module(), ...parts.flatMap((p) => p.realtime ?? [])];
  // The documents describe what was registered just above, read when first asked for.
  registerApiDocs(app, calls, () => ({
    market: Object.assign({}, ...realtimeModules.map((m) => m.documented ?? {})),
    ...channels.surface(),
  }));
  app.decorate('io', await attachRealtime(app, { sessions, redisUrl: options.redisUrl, modules: realtimeModules }));
  app.decorate('channels', channels);
  // Private per-user events (verification reviewed, ...), also those written by the ops CLI in another process:
  // the legacy `account` event and the private topics that carry them.
  const toRooms = socketSink(app.io as unknown as LocalRooms);
  const relay = new UserEventRelay(
    db,
    (userId, event) => {
      toRooms(userId, event);
      channels.deliver(userId, event.kind, event.data);
    },
    {
      intervalMs: options.userEventsPollMs,
      onError: (err) => app.log.error({ err }, 'user event delivery failed'),
    },
  );
  await relay.start();
  jobs.register({
    name: 'user-events',
    scope: 'process',
    everyMs: relay.everyMs,
    run: async () => void (await relay.poll()),
  });
  jobs.register({
    name: 'socket-sessions',
    scope: 'process',
    everyMs: SESSION_CHECK_MS,
    run: async () => void (await dropEndedSessions(app.io, sessions)),
  });
  jobs.start();
  app.addHook('preClose', () => jobs.close());
  return app;
}

/** Job leases in Redis, on a connection closed with the app. */
async function redisLeases(app: FastifyInstance, url: string): Promise<RedisLeases> {
  const client = await connectRedis(url, (err) => app.log.error({ err }, 'redis connection error (job leases)'));
  app.addHook('onClose', async () => {
    await client.close();
  });
  return new RedisLeases(client);
}

/** Calls without fields may come as JSON with an empty body; read that as `{}` instead of failing. */
function acceptEmptyJson(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    return parseJson(request, text, done);
  });
}

/** The market snapshot the home page carries; none without a feed. */
function snapshotOf(feed: MarketFeed | undefined, now: () => number) {
  if (!feed) return undefined;
  return () => marketSnapshotOf(feed, now);
}
