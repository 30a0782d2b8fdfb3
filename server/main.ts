import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from './app';
import { type Config, readConfig } from './config';
import { openDatabase } from './db/connect';
import { migrateToLatest } from './db/migrations';
import { ensurePlatformInviteCode } from './domains/account/invite';
import { isEntryPoint } from './entry';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

const hostForUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

/**
 * Starts the server from its configuration: opens (and on first start creates) the database, migrates it,
 * makes sure the platform invite code exists, and listens.
 */
export async function startServer(
  config: Config = readConfig(),
  overrides: Partial<Omit<AppOptions, 'database'>> = {},
): Promise<RunningServer> {
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const app = await buildApp({
      database,
      logger: { level: config.logLevel },
      smtp: config.smtpUrl ? { url: config.smtpUrl, from: config.smtpFrom } : undefined,
      redisUrl: config.redisUrl,
      ...overrides,
    });
    app.log.info(
      database.kind === 'postgres'
        ? 'database: PostgreSQL (DATABASE_URL)'
        : `database: SQLite ${path.join(config.dataDir, 'app.db')}`,
    );
    if (!config.smtpUrl) app.log.info('no SMTP_URL: verification codes go to the code_outbox table');
    app.log.info(`Platform invite code: ${await ensurePlatformInviteCode(database.db, config.inviteCode)}`);

    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${hostForUrl(config.host)}:${port}`;
    app.log.info(`listening on ${url}`);
    return {
      app,
      url,
      async close() {
        await app.close();
        await database.db.destroy();
      },
    };
  } catch (err) {
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
