import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { interestDueAt, interestStartDay } from '../../protocol/rules/finance';
import { accrueFinance, buyFinance, runFinanceCommand, withFinance } from '../../server/domains/finance';
import { withLedger } from '../../server/ledger';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { migrateToLatest } from '../../server/migrations';
import { openSqlite } from '../../server/platform/db/connect';
import { insertUser } from '../../server/testing';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * kill -9 in the middle of an accrual round (RULES "Finance": no day is paid twice, missed days are caught up): the
 * accrual runs as its own process on a SQLite file and is killed inside a batch's transaction, after two batches
 * committed. What committed stays, the killed batch leaves no trace, and the next round pays exactly the rest.
 */
describe('finance accrual killed mid-round', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-finance-crash-'));
  const file = path.join(dir, 'app.db');
  const handle = openSqlite(file);
  afterAll(async () => {
    await handle.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the committed batches, loses the killed one whole, and the next round pays exactly the rest', async () => {
    await migrateToLatest(handle);
    const ledger = new Ledger(handle);
    const ops = (...words: string[]) => runFinanceCommand(words, handle.db, () => {});
    expect(await ops('fund', 'USDT', '10000')).toBe(0);
    expect(await ops('add', 'trust', 'USDT', '10', '0.001', '100', '1000', 'Crash test')).toBe(0);
    const boughtAt = Date.UTC(2026, 10, 20, 12);
    const services = { database: handle, ledger, now: () => boughtAt };
    const users: number[] = [];
    for (let i = 0; i < 40; i++) {
      const userId = await insertUser(handle);
      users.push(userId);
      await ledger.credit({
        userId,
        requestId: 'seed',
        kind: 'deposit',
        currency: 'USDT',
        amount: 1_000_000_000,
        from: 'deposits_clearing',
        to: 'trust',
      });
      await buyFinance(services, userId, 'trust', { product_id: 1, amount: '1000', agree: true, request_id: 'buy' });
    }
    // Three days due for each of the 40 orders: batches of 10 orders, killed inside the third.
    const at = interestDueAt(interestStartDay(boughtAt), 3);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'finance-accrual-child.ts'), file, String(at), '10', '3'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += chunk;
        if (out.includes('inside 3')) resolve();
      });
      void exited.then((how) => reject(new Error(`accrual exited before its third batch: ${how}\n${out}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const paidDays = async () =>
      (
        await withFinance(handle.db)
          .selectFrom('finance_orders')
          .select(['user_id', 'days_paid'])
          .orderBy('id')
          .execute()
      ).map((r) => r.days_paid);
    const interestEntries = async () =>
      (
        await withLedger(handle.db)
          .selectFrom('ledger_entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('kind', '=', 'interest')
          .executeTakeFirstOrThrow()
      ).n;
    // Two batches of 10 orders committed their three days each; the killed batch and the last one did nothing.
    expect(await paidDays()).toEqual([...Array(20).fill(3), ...Array(20).fill(0)]);
    expect(Number(await interestEntries())).toBe(60);
    expect(describeProblems(await checkLedger(handle.db))).toEqual([]);

    const rest = await accrueFinance(services, { at });
    expect(rest).toEqual({ orders: 20, days: 60, completed: 0 });
    expect(await paidDays()).toEqual(Array(40).fill(3));
    expect(Number(await interestEntries())).toBe(120);
    for (const userId of users) {
      const trust = (await ledger.balances(userId)).find((b) => b.type === 'trust');
      // 1,000 principal held; 3 days × 1 USDT of interest paid, once each.
      expect(trust).toMatchObject({ balance: 1_003_000_000, held: 1_000_000_000 });
    }
    expect(describeProblems(await checkLedger(handle.db))).toEqual([]);
    const lines: string[] = [];
    expect(await runFinanceCommand(['reserve'], handle.db, (l) => lines.push(l))).toBe(0);
  });
});
