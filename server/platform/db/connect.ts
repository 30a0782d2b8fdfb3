import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  type SqliteDatabase as SqliteDriverDatabase,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type DialectKind = 'sqlite' | 'postgres';

/** An open database plus the dialect, which migrations and a few dialect-specific queries need. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DialectKind;
}

const INT8_OID = 20;

/**
 * PostgreSQL returns bigint (our millisecond times, count(*)) as strings by default. Our values stay far
 * below 2^53, so reading them as numbers keeps both dialects returning the same types.
 */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function openPostgres(config: pg.PoolConfig): DatabaseHandle {
  const pool = new pg.Pool({ max: 10, ...config, types: pgTypes });
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), kind: 'postgres' };
}

export function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  // WAL lets `npm run ops` read while the server writes; busy_timeout makes a second process wait instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }),
    kind: 'sqlite',
  };
}

/** Distinct statements kept prepared per connection (the oldest unused is dropped beyond this). */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * The connection as Kysely's SQLite driver sees it, with prepared statements kept by their SQL text: the driver
 * prepares every query anew, and compiling the same few dozen statements again and again was a quarter of the time
 * of a burst of fills. Safe to reuse: a statement holds no parameters between runs (each run binds its own), SQLite
 * re-prepares it by itself after a schema change, and one that is still being iterated (a streamed select) is not
 * handed out twice: that call gets a fresh statement.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDriverDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close() {
      cache.clear();
      sqlite.close();
    },
    prepare(query: string) {
      // Kysely opens a transaction with a plain (deferred) `begin`: it takes the write lock at its first write, and
      // when another process (the server beside `npm run ops`) committed since the transaction's first read, SQLite
      // fails that write at once with SQLITE_BUSY, busy_timeout or not. `begin immediate` takes the lock at the start,
      // where busy_timeout waits for it. One connection per process serialises its transactions anyway.
      const text = query === 'begin' ? 'begin immediate' : query;
      const hit = cache.get(text);
      if (hit && !hit.busy) {
        // Most recently used last, so the first key is the one to drop.
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const statement = sqlite.prepare(text);
      if (!hit) {
        cache.set(text, statement);
        if (cache.size > STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      return statement;
    },
  };
}

/** PostgreSQL when a URL is given, else the embedded SQLite file `<dataDir>/app.db`. */
export function openDatabase(options: { databaseUrl?: string | undefined; dataDir: string }): DatabaseHandle {
  if (options.databaseUrl) return openPostgres({ connectionString: options.databaseUrl });
  return openSqlite(path.join(options.dataDir, 'app.db'));
}

/** True when an insert or update broke a unique constraint (SQLite and PostgreSQL report it differently). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err)) return false;
  return err.code === '23505' || err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The handle of an open Kysely instance (the ops commands get the instance; some need to know the dialect). */
export function handleOf(db: Kysely<Database>): DatabaseHandle {
  return { db, kind: db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite' };
}
