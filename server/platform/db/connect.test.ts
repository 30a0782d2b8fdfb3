import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from './connect';

/**
 * Two processes on one SQLite file (the server and `npm run ops`): a transaction that reads and then writes must not
 * fail because the other one committed in between. Here the other process is a second connection in this one.
 */
describe('SQLite transactions beside another process', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('take the write lock when they begin, so a commit elsewhere cannot fail their first write', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-connect-'));
    dirs.push(dir);
    const file = path.join(dir, 'app.db');
    const handle = openSqlite(file);
    await sql`create table t (id integer primary key, n integer not null)`.execute(handle.db);
    await sql`insert into t (id, n) values (1, 0)`.execute(handle.db);
    const other = new SqliteDatabase(file);
    // The other process does not wait: while this transaction holds the lock its write is refused at once.
    other.pragma('busy_timeout = 0');
    let otherWrote: boolean | undefined;
    try {
      await handle.db.transaction().execute(async (trx) => {
        await sql`select n from t where id = 1`.execute(trx);
        try {
          other.prepare('update t set n = n + 10 where id = 1').run();
          otherWrote = true;
        } catch (error) {
          expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
          otherWrote = false;
        }
        // With a deferred begin the other write went through and this one failed with SQLITE_BUSY.
        await sql`update t set n = n + 1 where id = 1`.execute(trx);
      });
      expect(otherWrote).toBe(false);
      const row = other.prepare('select n from t where id = 1').get() as { n: number };
      expect(row.n).toBe(1);
    } finally {
      other.close();
      await handle.db.destroy();
    }
  });
});
