import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient } from 'redis';
import type { FailoverServerConfig } from './failover-server';

/**
 * The failover bench's cluster: a PostgreSQL database of its own (created for the run, dropped after it), a Redis
 * key prefix of its own (its keys deleted after it), and server processes (failover-server.ts) on both. Reads
 * what the processes print to know who holds which lease, and when each took it.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
/** crash-kit's registration sends this invite code. */
export const INVITE = 'PLATFORM';

export interface LeaseChange {
  process: string;
  name: string;
  held: boolean;
  ttlMs: number;
  /** When the bench read the line (ms). */
  at: number;
}

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  url: string;
  /** The signal that ended it, or its exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
  dead: boolean;
  /** The leases it holds now, as it last said. */
  leases: Set<string>;
}

export interface Cluster {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  servers: ServerProcess[];
  /** Every lease change any process printed, in the order read. */
  leaseLog: LeaseChange[];
  start(name: string): Promise<ServerProcess>;
  /** SIGKILL; resolves with the time the signal was sent once the process is gone. */
  killHard(server: ServerProcess): Promise<number>;
  stopCleanly(server: ServerProcess): Promise<void>;
  /** Kills whatever still runs, drops the database, deletes the Redis keys, removes the data dir. */
  cleanUp(): Promise<void>;
}

export async function openCluster(options: {
  /** A PostgreSQL server URL to create the run's database through (its own database is never touched). */
  adminUrl: string;
  redisUrl: string;
  market: Omit<FailoverServerConfig, 'prefix'>;
}): Promise<Cluster> {
  const database = `failover_${process.pid}`;
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database}`);
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(options.adminUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  const prefix = `failover:${process.pid}:`;
  // The data key file (bank card data) must be one for all processes: they share one data dir.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-failover-'));
  const config: FailoverServerConfig = { prefix, ...options.market };
  const servers: ServerProcess[] = [];
  const leaseLog: LeaseChange[] = [];

  const cluster: Cluster = {
    databaseUrl,
    redisUrl: options.redisUrl,
    prefix,
    servers,
    leaseLog,
    async start(name) {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(here, 'failover-server.ts'), JSON.stringify(config)],
        {
          cwd: path.join(here, '../..'),
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            LOG_LEVEL: 'error',
            HOST: '127.0.0.1',
            PORT: '0',
            DATA_DIR: dataDir,
            DATABASE_URL: databaseUrl,
            REDIS_URL: options.redisUrl,
            INVITE_CODE: INVITE,
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
        child.on('exit', (code, signal) => resolve(signal ?? code)),
      );
      const server: ServerProcess = { name, child, url: '', exited, dead: false, leases: new Set() };
      servers.push(server);
      void exited.then(() => {
        server.dead = true;
      });
      let listening: (url: string) => void = () => {};
      const ready = new Promise<string>((resolve) => {
        listening = resolve;
      });
      let pending = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const [word, a, b, c] = line.split(' ');
          if (word === 'listening' && a) listening(a);
          else if (word !== 'lease' && process.env.BENCH_LOG)
            fs.appendFileSync(process.env.BENCH_LOG, `${name} ${line}\n`);
          if (word === 'lease' && a && b) {
            const held = b === 'held';
            if (held) server.leases.add(a);
            else server.leases.delete(a);
            leaseLog.push({ process: name, name: a, held, ttlMs: Number(c), at: Date.now() });
          }
        }
      });
      server.url = await Promise.race([
        ready,
        exited.then((how) => {
          throw new Error(`server ${name} exited before listening: ${how}`);
        }),
      ]);
      return server;
    },
    async killHard(server) {
      server.child.kill('SIGKILL');
      const at = Date.now();
      const how = await server.exited;
      if (how !== 'SIGKILL') throw new Error(`server ${server.name} ended by ${how}, not SIGKILL`);
      return at;
    },
    async stopCleanly(server) {
      server.child.kill('SIGTERM');
      const how = await server.exited;
      if (how !== 0) throw new Error(`server ${server.name} stopped with ${how}`);
    },
    async cleanUp() {
      for (const server of servers) {
        if (server.dead) continue;
        server.child.kill('SIGKILL');
        await server.exited;
      }
      const redis = createClient({ url: options.redisUrl });
      await redis.connect();
      for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
        if (keys.length > 0) await redis.del(keys);
      }
      await redis.close();
      // BENCH_KEEP_DB=1 keeps the database to look into a failed run (dropped by the next run of this pid, or by hand).
      if (process.env.BENCH_KEEP_DB) console.log(`kept the database ${databaseUrl}`);
      else {
        const drop = new pg.Client({ connectionString: options.adminUrl });
        await drop.connect();
        await drop.query(`drop database if exists ${database} with (force)`);
        await drop.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** Resolves once `check` gives a value, polling every 25 ms; fails after `limitMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, limitMs = 60_000) {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
