import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type AppOptions, buildApp, type MarketOptions } from './app';
import { type Config, readConfig } from './config';
import { ensurePlatformInviteCode } from './domains/account';
import { assertDataKey, CardVault, loadDataKey } from './domains/bank-cards';
import { uploadsDirOf } from './domains/uploads';
import { isEntryPoint } from './entry';
import {
  allInstruments,
  BINANCE_SPOT_URL,
  CompositePriceSource,
  connectSharedSource,
  ExchangePriceSource,
  lastRecordedSeqs,
  listings,
  loadListedCoins,
  MarketFeed,
  type MarketLogger,
  MarketSimulator,
  type PriceSource,
  RedisTickSource,
  type SimulatorOptions,
} from './market';
import { migrateToLatest } from './migrations';
import { openDatabase } from './platform/db/connect';
import type { LeaseStore } from './platform/jobs/leases';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const hostForUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** The simulator's seed when MARKET_SEED is unset: the same prices and history on every fresh start. */
export const DEFAULT_MARKET_SEED = 'tradewave';

export interface MarketSettings {
  seed: string;
  /** MARKET_ALWAYS_OPEN=1: US stocks trade around the clock (demos); otherwise only in NYSE hours. */
  alwaysOpen: boolean;
  /** MARKET_SOURCE=binance: the coins' live prices come from the exchange at this websocket URL (MARKET_WS_URL). */
  live?: { exchange: 'binance'; url: string };
}

const MARKET_SOURCES = ['simulator', 'binance'];

export function readMarketSettings(env: NodeJS.ProcessEnv = process.env): MarketSettings {
  const seed = env.MARKET_SEED?.trim();
  const open = env.MARKET_ALWAYS_OPEN?.trim().toLowerCase();
  const settings: MarketSettings = { seed: seed || DEFAULT_MARKET_SEED, alwaysOpen: open === '1' || open === 'true' };
  const source = env.MARKET_SOURCE?.trim().toLowerCase() || 'simulator';
  if (!MARKET_SOURCES.includes(source)) {
    throw new Error(`MARKET_SOURCE must be one of ${MARKET_SOURCES.join(', ')}, got ${env.MARKET_SOURCE}`);
  }
  const url = env.MARKET_WS_URL?.trim() || undefined;
  if (url !== undefined && !/^wss?:\/\/[^/\s]+/.test(url)) {
    throw new Error(`MARKET_WS_URL must be a ws:// or wss:// URL, got ${env.MARKET_WS_URL}`);
  }
  if (source === 'binance') settings.live = { exchange: 'binance', url: url ?? BINANCE_SPOT_URL };
  return settings;
}

/**
 * The market, not started yet: the seeded simulator with its deterministic history; with live settings the
 * exchange's coins come live (with no simulated history under them) while the stocks stay simulated.
 */
export function createMarketFeed(
  settings: MarketSettings = readMarketSettings(),
  logger?: MarketLogger,
  startSeqs?: ReadonlyMap<string, number>,
): MarketFeed {
  return new MarketFeed(createPriceSource(settings, logger, {}, startSeqs).source);
}

/** The price source of `settings` and the simulator inside it. */
export function createPriceSource(
  settings: MarketSettings,
  logger: MarketLogger | undefined,
  simulatorOptions: Partial<SimulatorOptions> = {},
  startSeqs?: ReadonlyMap<string, number>,
): { source: PriceSource; simulator: MarketSimulator } {
  const simulator = new MarketSimulator({
    seed: settings.seed,
    alwaysOpen: settings.alwaysOpen,
    startSeqs,
    // The coins listed at run time that this process knows (loadListedCoins at start): walked from their listing.
    listed: listings.all(),
    ...simulatorOptions,
  });
  if (!settings.live) return { source: simulator, simulator };
  const exchange = new ExchangePriceSource({ url: settings.live.url, logger, startSeqs });
  return { source: new CompositePriceSource(simulator, exchange), simulator };
}

/**
 * With REDIS_URL: one market for every server process. The lease holder runs the price source of `settings`
 * and publishes its ticks; the others apply them (see server/market/shared/redis-tick-source.ts).
 */
export async function createSharedMarketFeed(
  redisUrl: string,
  settings: MarketSettings = readMarketSettings(),
  logger?: MarketLogger,
  startSeqs?: ReadonlyMap<string, number>,
): Promise<MarketFeed> {
  const source = await connectSharedSource({
    url: redisUrl,
    seed: settings.seed,
    logger,
    startSeqs,
    // Every process builds the same walk from the origin, numbered from the origin's base (not its own reading of the
    // record, which may have moved on since the market started).
    createLocal: (origin) =>
      createPriceSource(
        { ...settings, seed: origin.seed },
        logger,
        { liveStart: origin.liveStart, maxCatchUpSteps: Number.POSITIVE_INFINITY },
        new Map(Object.entries(origin.seqBase ?? {})),
      ),
  });
  return new MarketFeed(source);
}

/** Stops the feed and, for the shared market, leaves the election and closes its Redis connections. */
async function closeMarketFeed(feed: MarketFeed): Promise<void> {
  feed.close();
  if (feed.source instanceof RedisTickSource) await feed.source.close();
}

/** Fastify's trust setting for TRUST_PROXY; a hop count becomes "trust the nearest n hops". */
function proxyTrust(setting: Config['trustProxy']): AppOptions['trustProxy'] {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/** The start log's line about the market. */
export function describeMarket({ seed, alwaysOpen, live }: MarketSettings): string {
  const stocks = alwaysOpen ? 'stocks always open' : 'stocks in NYSE hours';
  if (!live) return `market: simulator, seed ${seed}, ${stocks}`;
  return `market: ${live.exchange} live coins from ${live.url}; stocks and their history from the simulator, seed ${seed}, ${stocks}`;
}

/**
 * How a test entry rewires the server: server/clock-hook/main.ts (CLOCK_HOOK=1, browser tests only) gives it one
 * controllable clock and a market on that clock. Production passes none, and never reaches the hook's code.
 */
export interface ServerWiring {
  /** The app's clock and where its jobs take their leases. */
  now: () => number;
  leases: LeaseStore;
  /** The market of `settings` (not started), replacing the embedded or shared one. */
  market(
    settings: MarketSettings,
    logger: MarketLogger,
    startSeqs: ReadonlyMap<string, number> | undefined,
  ): MarketFeed;
  /** Once the app is built, before it listens. */
  built?(app: FastifyInstance): void;
  /** Once it listens and its feed runs. */
  started?(app: FastifyInstance): void;
}

/**
 * Starts the server from its configuration: opens (and on first start creates) the database, migrates it,
 * makes sure the platform invite code exists, and listens.
 */
export async function startServer(
  config: Config = readConfig(),
  overrides: Partial<Omit<AppOptions, 'database'>> = {},
  wiring?: ServerWiring,
): Promise<RunningServer> {
  if (config.clockHook && !wiring) {
    throw new Error('CLOCK_HOOK=1 is for browser tests: start server/clock-hook/main.ts, not the production entry');
  }
  const database = openDatabase(config);
  let feed: MarketFeed | undefined;
  // The feed exists before the app (and its logger); it logs only once started, when the app is there.
  let log: FastifyBaseLogger | undefined;
  const marketLogger: MarketLogger = { info: (m) => log?.info(m), warn: (m) => log?.warn(m) };
  try {
    // The key of the bank card data at rest; created (DATA_DIR/data.key) on first start when DATA_KEY is unset.
    const dataKey = loadDataKey({ dataKey: config.dataKey, dataDir: config.dataDir });
    await migrateToLatest(database);
    // A wrong key (another DATA_KEY, a forgotten rotation) stops the start instead of failing every card call.
    await assertDataKey(database.db, new CardVault(dataKey.key));
    const settings = overrides.market ? undefined : readMarketSettings();
    // Coins listed at run time (IEO listings), before the feed is built: its simulator walks them from their listing
    // with the static instruments (the ledger loads its currencies itself). Later listings come by the app's poll.
    await loadListedCoins(database.db);
    // Tick numbers continue above what the price record holds: a restarted simulator walks again from its start and a
    // live exchange numbers its trades per process, and a (symbol, seq) the record holds must never come back with
    // another time or price.
    const startSeqs = settings
      ? await lastRecordedSeqs(
          database.db,
          allInstruments().map((i) => i.symbol),
        )
      : undefined;
    const market: MarketOptions = overrides.market ?? {
      feed:
        wiring && settings
          ? wiring.market(settings, marketLogger, startSeqs)
          : config.redisUrl
            ? await createSharedMarketFeed(config.redisUrl, settings, marketLogger, startSeqs)
            : createMarketFeed(settings, marketLogger, startSeqs),
    };
    feed = market.feed;
    const app = await buildApp({
      database,
      logger: { level: config.logLevel },
      smtp: config.smtpUrl ? { url: config.smtpUrl, from: config.smtpFrom } : undefined,
      redisUrl: config.redisUrl,
      trustProxy: proxyTrust(config.trustProxy),
      uploadsDir: uploadsDirOf(config.dataDir),
      dataKey: dataKey.key,
      publicOrigins: config.publicOrigins,
      ...(config.staticDir ? { staticDir: config.staticDir } : {}),
      ...(wiring ? { now: wiring.now, leases: wiring.leases } : {}),
      ...overrides,
      market,
    });
    log = app.log;
    app.log.info(
      database.kind === 'postgres'
        ? 'database: PostgreSQL (DATABASE_URL)'
        : `database: SQLite ${path.join(config.dataDir, 'app.db')}`,
    );
    if (dataKey.created) {
      app.log.warn(`data key: created ${dataKey.file}; keep a copy: without it the stored bank card numbers are lost`);
    }
    if (!config.smtpUrl) app.log.info('no SMTP_URL: verification codes go to the code_outbox table');
    app.log.info(`Platform invite code: ${await ensurePlatformInviteCode(database.db, config.inviteCode)}`);

    wiring?.built?.(app);
    await app.listen({ host: config.host, port: config.port });
    market.feed.start();
    if (settings) app.log.info(describeMarket(settings));
    wiring?.started?.(app);
    if (market.feed.source instanceof RedisTickSource) {
      const role = market.feed.source.isLeader ? 'leads (runs the prices)' : "follows the leader's ticks";
      app.log.info(`market: shared by the server processes over REDIS_URL; this one ${role}`);
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${hostForUrl(config.host)}:${port}`;
    app.log.info(`listening on ${url}`);
    return {
      app,
      url,
      async close() {
        // Stop the prices first; closing the app then writes the last recorded ones.
        await closeMarketFeed(market.feed);
        await app.close();
        await database.db.destroy();
      },
    };
  } catch (err) {
    if (feed) await closeMarketFeed(feed);
    await database.db.destroy();
    throw err;
  }
}

/** Closes cleanly on Ctrl-C or a stop signal, so SQLite's WAL is checkpointed and sockets say goodbye. */
export function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1);
      closing = true;
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
    });
  }
}

if (isEntryPoint(import.meta.url)) {
  const server = await startServer();
  closeOnSignals(server.close);
}
