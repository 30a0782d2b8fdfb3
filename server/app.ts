import { fileURLToPath } from 'node:url';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../protocol/identity';
import type { AccountServices } from './domains/account';
import {
  type AccountLimits,
  accountHandlers,
  type CodeSender,
  CodeService,
  codeSenderFor,
  DEFAULT_ACCOUNT_LIMITS,
  type HashCost,
  OutboxSender,
  PasswordHasher,
} from './domains/account';
import { bankCardHandlers } from './domains/bank-cards';
import { appealsConsoleSection, c2cExpiryJob, c2cHandlers, c2cServices, c2cTopic } from './domains/c2c';
import {
  chatHandlers,
  chatReadCommand,
  chatSendCommand,
  chatTopic,
  chatUploadReaders,
  supportConsoleSection,
} from './domains/chat';
import { accrualJob, financeHandlers } from './domains/finance';
import { fundingHandlers } from './domains/funding';
import { helpConsoleSection, helpHandlers } from './domains/help';
import { identityHandlers } from './domains/identity';
import { ieoHandlers, ieoStepsJob, ieoTopic } from './domains/ieo';
import { inspectionConsoleSection, inspectionHandlers, pruneTracesJob } from './domains/inspection';
import { LeverEngine, leverHandlers, positionsTopic } from './domains/lever';
import { marketHandlers, marketRealtime } from './domains/market';
import { newsConsoleSection, newsHandlers } from './domains/news';
import { registerOpsConsole } from './domains/operators';
import { OptionsEngine, optionHandlers, optionsTopic } from './domains/options';
import { pollHandlers } from './domains/polls';
import { referralHandlers, referralRebatesJob } from './domains/referral';
import { ordersTopic, SpotEngine, spotHandlers } from './domains/spot';
import { registerUploadRoutes, UploadStore, uploadHandlers } from './domains/uploads';
import { walletHandlers } from './domains/wallet';
import { walletAddressHandlers } from './domains/wallet-addresses';
import { walletLoginHandlers } from './domains/wallet-login';
import { Ledger } from './ledger';
import type { MarketFeed } from './market';
import { ListingWatcher, PriceRecorder, type RecorderOptions } from './market';
import type { DatabaseHandle } from './platform/db/connect';
import { registerApiDocs } from './platform/http/api-docs';
import { type CallHandlers, registerCalls } from './platform/http/calls';
import { envelopeServerOptions, registerErrorHandling, replyNotFound } from './platform/http/errors';
import { hasBuiltClient, registerSpa } from './platform/http/static';
import { type LeaseStore, LocalLeases, RedisLeases } from './platform/jobs/leases';
import { JobRunner } from './platform/jobs/runner';
import { attachRealtime, dropEndedSessions, type RealtimeServer, SESSION_CHECK_MS } from './platform/realtime/gateway';
import { PrivateChannels } from './platform/realtime/private-topics';
import { connectRedis } from './platform/realtime/redis';
import { accountTopic, type LocalRooms, socketSink, UserEventRelay } from './platform/realtime/user-events';
import { RateLimiter } from './platform/security/rate-limit';
import { Sessions } from './platform/security/sessions';

declare module 'fastify' {
  interface FastifyInstance {
    /** The socket.io server on this app's HTTP server. */
    io: RealtimeServer;
    /** Private topics and socket commands (domains register theirs when the app is built). */
    channels: PrivateChannels;
  }
}

export interface AppOptions {
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
  /**
   * The market feed behind the market calls and socket topics; the caller starts and stops it. Without one the
   * market calls answer "not found" and no topics exist (tests that do not need prices skip its cost).
   */
  market?: MarketOptions;
  /** Where uploaded images go (main.ts: DATA_DIR/uploads); without one, a private temp directory on first use. */
  uploadsDir?: string;
  /** Largest accepted upload in bytes (default MAX_UPLOAD_BYTES, 5 MiB). */
  maxUploadBytes?: number;
  /** Where cluster jobs take their leases; default Redis with `redisUrl`, else this process alone. */
  leases?: LeaseStore;
  /** How often this process relays new user events to its sockets (default 1000 ms). */
  userEventsPollMs?: number;
  /** How often the finance accrual job looks for interest due (default 60 s; a day falls due at 00:00 UTC). */
  financeAccrualMs?: number;
  /** How often the IEO job looks for steps due (default 5 s). */
  ieoStepsMs?: number;
  /** How often the C2C job cancels unpaid orders whose payment window ended (default 5 s). */
  c2cExpiryMs?: number;
  /** How often the referral job pays the rebates of new trading fees (default 5 s). */
  referralRebatesMs?: number;
  /** The key that encrypts bank card data at rest (main.ts: DATA_KEY or DATA_DIR/data.key); tests may leave it out. */
  dataKey?: Uint8Array;
  /** PUBLIC_ORIGIN: the origins wallet login messages may name; none: loopback hosts only (README "Wallet login"). */
  publicOrigins?: readonly string[];
}

export interface MarketOptions {
  feed: MarketFeed;
  /** Record every published price to `price_ticks` (default true); false leaves the table alone. */
  record?: boolean | RecorderOptions;
  /** Socket update batching interval in ms (default 250: at most 4 messages a second per topic). */
  flushMs?: number;
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
  const limits = { ...DEFAULT_ACCOUNT_LIMITS, ...options.limits };
  const limiter = new RateLimiter(options.database, now);
  const sessions = new Sessions(db, now);
  const sender = options.codeSender ?? codeSenderFor(options.smtp, new OutboxSender(db, now, app.log));
  const account: AccountServices = {
    db,
    now,
    log: app.log,
    limits,
    limiter,
    hasher: new PasswordHasher(options.hashCost),
    codes: new CodeService({ db, limiter, sender, limits, now, log: app.log }),
    sessions,
  };
  const feed = options.market?.feed;
  // The one ledger of this app: every balance change of every area goes through it.
  const ledger = new Ledger(options.database, now);
  const uploads = new UploadStore({
    db,
    dir: options.uploadsDir,
    maxBytes: options.maxUploadBytes ?? MAX_UPLOAD_BYTES,
    now,
  });
  // Spot orders are accepted by every process; the engine acts only where the jobs runner gives it its lease.
  const spotEngine = feed
    ? new SpotEngine({
        database: options.database,
        ledger,
        feed,
        now,
        onError: (err) => app.log.error({ err }, 'spot engine'),
      })
    : undefined;
  if (spotEngine) {
    jobs.register(spotEngine.job());
    app.addHook('onClose', () => spotEngine.close());
  }
  const optionsEngine = feed
    ? new OptionsEngine({
        database: options.database,
        ledger,
        feed,
        now,
        onError: (err) => app.log.error({ err }, 'options engine'),
      })
    : undefined;
  if (optionsEngine) {
    jobs.register(optionsEngine.job());
    app.addHook('onClose', () => optionsEngine.close());
  }
  const leverEngine = feed
    ? new LeverEngine({
        database: options.database,
        ledger,
        feed,
        lastPrice: (symbol) => feed.quote(symbol)?.last,
        now,
        onError: (err) => app.log.error({ err }, 'lever engine'),
      })
    : undefined;
  if (leverEngine) {
    jobs.register(leverEngine.job());
    app.addHook('onClose', () => leverEngine.close());
  }
  // Finance products do not need the market: their yield is a fixed rate, paid by the accrual job.
  const finance = { database: options.database, ledger, now };
  jobs.register(accrualJob(finance, options.financeAccrualMs));
  // IEO steps (allotment, lapse, listing, unlock) run at each project's times; a listing adds its coin to the market.
  jobs.register(ieoStepsJob(finance, options.ieoStepsMs));
  // C2C: escrow per order; unpaid orders expire by the job (payment details sealed with the data key).
  const c2c = c2cServices({ database: options.database, ledger, now, dataKey: options.dataKey });
  jobs.register(c2cExpiryJob(c2c, options.c2cExpiryMs));
  // Referral rebates: a share of each referred user's trading fees, paid from the fee account by a cluster job.
  const referral = { database: options.database, ledger, now };
  jobs.register(referralRebatesJob(referral, options.referralRebatesMs));
  // Chat (customer service, C2C order chats): members read a conversation's images too.
  const chat = { database: options.database, limiter, now };
  const inspection = { database: options.database, now };
  jobs.register(pruneTracesJob(inspection));
  uploads.shareAttached(chatUploadReaders(db));
  const handlers: CallHandlers = {
    ...accountHandlers(account),
    ...walletLoginHandlers({ account, publicOrigins: options.publicOrigins ?? [] }),
    ...marketHandlers({ feed, database: options.database, now }),
    ...walletAddressHandlers({ account, database: options.database }),
    ...bankCardHandlers({ database: options.database, now, dataKey: options.dataKey }),
    ...uploadHandlers(uploads),
    ...identityHandlers({ database: options.database, now }),
    ...walletHandlers({ ledger, feed, database: options.database }),
    ...fundingHandlers({ account, database: options.database, ledger, now }),
    ...spotHandlers({
      database: options.database,
      ledger,
      feed,
      now,
      ...(spotEngine ? { onAccepted: (row) => spotEngine.accepted(row) } : {}),
    }),
    ...optionHandlers({
      database: options.database,
      ledger,
      feed,
      now,
      ...(optionsEngine ? { onAccepted: (row) => optionsEngine.accepted(row) } : {}),
    }),
    ...financeHandlers(finance),
    ...ieoHandlers(finance),
    ...c2cHandlers(c2c),
    ...helpHandlers({ database: options.database }),
    ...newsHandlers({ database: options.database, now }),
    ...pollHandlers({ database: options.database, now }),
    ...inspectionHandlers(inspection),
    ...chatHandlers(chat),
    ...referralHandlers(referral),
    ...leverHandlers({
      database: options.database,
      ledger,
      feed,
      now,
      ...(leverEngine ? { onChanged: (row) => leverEngine.changed(row) } : {}),
    }),
  };
  registerCalls(app, handlers, sessions, { db: options.database.db, now });
  registerApiDocs(app);
  await registerUploadRoutes(app, { store: uploads, sessions, limiter });
  // The support console's calls (/api/ops/...): their own scope, sessions and roles; a user's token opens nothing there.
  await registerOpsConsole(app, {
    database: options.database,
    now,
    limiter,
    uploads,
    hashCost: options.hashCost,
    dataKey: options.dataKey,
    log: app.log,
    sections: [
      supportConsoleSection(chat),
      appealsConsoleSection(c2c),
      helpConsoleSection({ database: options.database, now }),
      newsConsoleSection({ database: options.database, now }),
      inspectionConsoleSection(inspection),
    ],
  });

  const staticDir = options.staticDir ?? DEFAULT_DIST;
  if (staticDir && hasBuiltClient(staticDir)) await registerSpa(app, staticDir);
  else app.setNotFoundHandler(replyNotFound);

  const record = options.market?.record ?? true;
  if (feed && record) {
    const recorder = new PriceRecorder(options.database, feed, {
      now,
      onError: (err) => app.log.error({ err }, 'price_ticks flush failed'),
      ...(typeof record === 'object' ? record : {}),
    });
    jobs.register(recorder.job());
    app.addHook('onClose', () => recorder.close());
  }
  if (feed) {
    // Coins listed at run time (IEO listings), by this process or another: the feed serves each from its listing on
    // (after the recorder, which records the ticks of their first moments too).
    const listingWatcher = new ListingWatcher(db, feed);
    await listingWatcher.poll();
    jobs.register(listingWatcher.job());
    app.addHook('onClose', () => listingWatcher.close());
  }
  // Private topics and socket commands: each domain registers its own here.
  const channels = new PrivateChannels(now, options.database.db);
  channels.topic(accountTopic(db));
  channels.topic(ordersTopic(db));
  channels.topic(optionsTopic(db));
  channels.topic(positionsTopic(db));
  channels.topic(ieoTopic(db));
  channels.topic(c2cTopic(c2c));
  channels.topic(chatTopic(db));
  channels.command(chatSendCommand(chat));
  channels.command(chatReadCommand(chat));
  const realtimeModules = [channels.module()];
  if (feed) realtimeModules.push(marketRealtime(feed, { now, flushMs: options.market?.flushMs }));
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
