import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLedger } from '../../server/ledger';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';
import { insertUser } from '../../server/testing';
import { DATABASES, openTestDatabase, type TestDatabase } from './harness';
import { type BurstConfig, startBurst } from './ledger-burst';

/**
 * A process doing transfers is killed with SIGKILL in the middle of its burst. Whatever it acknowledged must
 * be in the database after reopening, nothing may be half-applied, and the ledger must still add up.
 */
describe.each(DATABASES)('ledger after a killed writer on %s', (kind) => {
  let database: TestDatabase;
  let burstDatabase: BurstConfig['database'];
  const FUNDS = 1_000_000;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    if (kind === 'sqlite') {
      const file = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
        database.handle.db,
      );
      burstDatabase = { kind, file: file.rows[0]?.file ?? '' };
    } else {
      const schema = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.handle.db);
      burstDatabase = { kind, url: process.env.TEST_DATABASE_URL ?? '', schema: schema.rows[0]?.schema ?? '' };
    }
  });
  afterAll(() => database?.close());

  it('keeps every acknowledged transfer and nothing half-done', async () => {
    const handle = database.handle;
    const userId = await insertUser(handle);
    await new Ledger(handle).credit({
      userId,
      requestId: 'funding',
      kind: 'deposit',
      currency: 'USDT',
      amount: FUNDS,
      from: 'deposits_clearing',
      to: 'coin',
    });

    const acked: string[] = [];
    const killedAfter = 150 + Math.floor(Math.random() * 100);
    const child = startBurst(
      { database: burstDatabase, userId, prefix: 'burst-', amount: 7, mode: 'pingpong', count: 0 },
      (line) => {
        const [word, requestId] = line.split(' ');
        if (word === 'ack' && requestId) acked.push(requestId);
        if (acked.length === killedAfter) child.kill('SIGKILL');
      },
    );
    const exit = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    expect(exit).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThanOrEqual(killedAfter);

    // Reopen: a new connection (for SQLite a new handle on the file, which recovers the WAL of the dead writer).
    const reopened: DatabaseHandle = burstDatabase.kind === 'sqlite' ? openSqlite(burstDatabase.file) : handle;
    try {
      const entries = await withLedger(reopened.db)
        .selectFrom('ledger_entries as e')
        .leftJoin('ledger_postings as p', 'p.entry_id', 'e.id')
        .select([
          'e.request_id',
          sql<number>`count(p.id)`.as('postings'),
          sql<string>`cast(coalesce(sum(p.amount), 0) as text)`.as('total'),
        ])
        .where('e.user_id', '=', userId)
        .where('e.request_id', 'like', 'burst-%')
        .groupBy('e.request_id')
        .execute();
      const applied = new Map(entries.map((e) => [e.request_id, e]));
      for (const requestId of acked) expect(applied.has(requestId), requestId).toBe(true);
      // At most the one request in flight at the kill may have committed without its ack being read.
      expect(entries.length - acked.length).toBeGreaterThanOrEqual(0);
      expect(entries.length - acked.length).toBeLessThanOrEqual(1);
      for (const entry of entries) {
        expect([entry.request_id, Number(entry.postings), entry.total]).toEqual([entry.request_id, 2, '0']);
      }
      const balances = await new Ledger(reopened).balances(userId);
      const coin = balances.find((b) => b.type === 'coin')?.balance ?? 0;
      const option = balances.find((b) => b.type === 'option')?.balance ?? 0;
      expect(coin + option).toBe(FUNDS);
      // Transfers alternate coin -> option -> coin, so the applied count says where the 7 units are.
      expect(option).toBe(entries.length % 2 === 1 ? 7 : 0);
      expect(describeProblems(await checkLedger(reopened.db))).toEqual([]);
    } finally {
      if (reopened !== handle) await reopened.db.destroy();
    }
  });
});
