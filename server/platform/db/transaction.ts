import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from './connect';
import type { Database } from './schema';

/**
 * Runs `work` in a transaction that may check balances and then write them.
 *
 * SQLite: Kysely's `transaction()` sends a deferred BEGIN, which reads under a shared lock and only asks for the
 * write lock at the first write; another process (the ops CLI, a second server) may have written in between and
 * the upgrade then fails with SQLITE_BUSY. BEGIN IMMEDIATE takes the write lock first (waiting up to the
 * busy_timeout), so what the transaction reads stays true until it commits. Kysely's single-connection mutex
 * already keeps this process's own transactions from interleaving.
 *
 * PostgreSQL: a read-committed transaction; the ledger takes row locks (SELECT ... FOR UPDATE) on what it checks.
 */
export async function writeTransaction<T>(
  handle: DatabaseHandle,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (handle.kind === 'postgres') return handle.db.transaction().execute(work);
  return handle.db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (err) {
      // SQLite rolls back by itself after some errors (e.g. a full disk); a second rollback then fails and
      // would hide the error that matters.
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * Runs `work` on one consistent snapshot (the consistency check reads several tables while the server writes):
 * a repeatable-read, read-only transaction on PostgreSQL; on SQLite (WAL) any transaction reads one snapshot.
 */
export function snapshotTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
}
