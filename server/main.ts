import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from './app';
import { type Config, readConfig } from './config';
import { openDatabase } from './db/connect';
import { migrateToLatest } from './db/migrations';
import { ensurePlatformInviteCode } from './domains/account/invite';
import { isEntryPoint } from './entry';
import { MarketFeed } from './market/feed';
import { MarketSimulator } from './market/simulator';

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
}

export function readMarketSettings(env: NodeJS.ProcessEnv = process.env): MarketSettings {
  const seed = env.MARKET_SEED?.trim();
  const open = env.MARKET_ALWAYS_OPEN?.trim().toLowerCase();
  return { seed: seed || DEFAULT_MARKET_SEED, alwaysOpen: open === '1' || open === 'true' };
}

/** The embedded market: the seeded simulator with its deterministic history. Not started yet. */
export function createMarketFeed(settings: MarketSettings = readMarketSettings()): MarketFeed {
  return new MarketFeed(new MarketSimulator({ seed: settings.seed, alwaysOpen: settings.alwaysOpen }));
}

/**
 * Starts the server from its configuration: opens (and on first start creates) the database, migrates it,
 * makes sure the platform invite code exists, and listens.
 */
export async function startServer(
  config: Config = readConfig(),
  overrides: Partial<Omit<AppOptions, 'database'>> = {},
): Promise<RunningServer> {
  const database = openDatabase(config);
  let feed: MarketFeed | undefined;
  try {
    await migrateToLatest(database);
    const market = overrides.market ?? { feed: createMarketFeed() };
    feed = market.feed;
    const app = await buildApp({
      database,
      logger: { level: config.logLevel },
      smtp: config.smtpUrl ? { url: config.smtpUrl, from: config.smtpFrom } : undefined,
      redisUrl: config.redisUrl,
      ...overrides,
      market,
    });
    app.log.info(
      database.kind === 'postgres'
        ? 'database: PostgreSQL (DATABASE_URL)'
        : `database: SQLite ${path.join(config.dataDir, 'app.db')}`,
    );
    if (!config.smtpUrl) app.log.info('no SMTP_URL: verification codes go to the code_outbox table');
    app.log.info(`Platform invite code: ${await ensurePlatformInviteCode(database.db, config.inviteCode)}`);

    await app.listen({ host: config.host, port: config.port });
    market.feed.start();
    if (!overrides.market) {
      const { seed, alwaysOpen } = readMarketSettings();
      app.log.info(`market: simulator, seed ${seed}${alwaysOpen ? ', stocks always open' : ', stocks in NYSE hours'}`);
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
        market.feed.close();
        await app.close();
        await database.db.destroy();
      },
    };
  } catch (err) {
    feed?.close();
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
