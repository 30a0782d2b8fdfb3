import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { rebateSplit } from '../../protocol/rules/referral';
import { leverLedgerIds } from '../../server/domains/lever/submit';
import { grantPartner, payRebates, setBonus, withReferral } from '../../server/domains/referral';
import { withLedger } from '../../server/ledger';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { migrateToLatest } from '../../server/migrations';
import { openSqlite } from '../../server/platform/db/connect';
import { insertUser } from '../../server/testing';

const here = path.dirname(fileURLToPath(import.meta.url));

function runChild(file: string, args: string[]) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'referral-rebates-child.ts'), file, ...args],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return { child, exited, output: () => out };
}

async function saying(run: { child: ChildProcess; exited: Promise<unknown>; output: () => string }, text: string) {
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (run.output().includes(text)) resolve();
    };
    run.child.stdout?.on('data', check);
    check();
    void run.exited.then((how) => reject(new Error(`child exited before "${text}": ${how}\n${run.output()}`)));
  });
}

/**
 * kill -9 in the middle of a rebate round, then two processes finishing the rest at once (RULES "Referral and
 * partners": each fee rebated exactly once): the round runs as its own process on a SQLite file and is killed inside a
 * batch's transaction after two batches committed. What committed stays, the killed batch leaves no trace (no row, no
 * entry), and two rounds started together in two processes pay exactly the rest, each fee once.
 */
describe('referral rebates killed mid-round', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-referral-crash-'));
  const file = path.join(dir, 'app.db');
  const handle = openSqlite(file);
  afterAll(async () => {
    await handle.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps committed batches, loses the killed one whole, and two processes then pay each remaining fee once', async () => {
    await migrateToLatest(handle);
    const ledger = new Ledger(handle);
    const partner = await insertUser(handle);
    const plain = await insertUser(handle);
    expect((await grantPartner(handle.db, String(partner), '0.3')).ok).toBe(true);
    await setBonus(handle.db, partner, '0.1', Date.now);
    const fees: Array<{ payer: number; referrer: number; amount: number }> = [];
    for (let i = 0; i < 10; i++) {
      const referrer = i % 2 === 0 ? partner : plain;
      const payer = await insertUser(handle, { referrer_id: referrer });
      await ledger.credit({
        userId: payer,
        requestId: 'seed',
        kind: 'deposit',
        currency: 'USDT',
        amount: 1_000_000_000,
        from: 'deposits_clearing',
        to: 'contract',
      });
      for (let k = 0; k < 5; k++) {
        const amount = 1_000_003 + i * 7_919 + k * 104_729;
        await ledger.debit({
          userId: payer,
          requestId: leverLedgerIds.fee(i * 10 + k),
          kind: 'fee',
          currency: 'USDT',
          amount,
          from: 'contract',
          to: 'fees',
        });
        fees.push({ payer, referrer, amount });
      }
    }

    // 50 fees in batches of 10, killed inside the third batch.
    const killed = runChild(file, ['10', '3']);
    await saying(killed, 'inside 3');
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');

    const counts = async () => {
      const rows = await withReferral(handle.db).selectFrom('referral_rebates').selectAll().execute();
      const entries = await withLedger(handle.db)
        .selectFrom('ledger_entries')
        .select(['user_id', 'request_id'])
        .where('kind', '=', 'rebate')
        .execute();
      return { rows, entries };
    };
    const expectedEntries = (rows: Awaited<ReturnType<typeof counts>>['rows']) =>
      rows.reduce((n, r) => n + (Number(r.referrer_amount) > 0 ? 1 : 0) + (Number(r.invitee_amount) > 0 ? 1 : 0), 0);
    const afterKill = await counts();
    expect(afterKill.rows).toHaveLength(20);
    expect(afterKill.entries).toHaveLength(expectedEntries(afterKill.rows));
    expect(describeProblems(await checkLedger(handle.db))).toEqual([]);

    // Two processes at once pay the rest; whichever commits a fee first pays it, the other skips it.
    const runs = [runChild(file, ['5']), runChild(file, ['5'])];
    await Promise.all(runs.map((r) => saying(r, 'done')));
    expect(await Promise.all(runs.map((r) => r.exited))).toEqual([0, 0]);
    const paid = runs.map((r) => Number(/done (\d+)/.exec(r.output())?.[1]));
    expect(paid.reduce((sum, n) => sum + n, 0)).toBe(30);
    expect((await payRebates({ database: handle, ledger, now: Date.now })).fees).toBe(0);

    const done = await counts();
    expect(done.rows).toHaveLength(50);
    expect(new Set(done.rows.map((r) => r.fee_posting_id)).size).toBe(50);
    expect(done.entries).toHaveLength(expectedEntries(done.rows));
    expect(new Set(done.entries.map((e) => `${e.user_id}/${e.request_id}`)).size).toBe(done.entries.length);
    // Every user received exactly the split of each of their fees, once.
    const expected = new Map<number, number>();
    for (const fee of fees) {
      const split =
        fee.referrer === partner
          ? rebateSplit(BigInt(fee.amount), 3000n, 1000n)
          : rebateSplit(BigInt(fee.amount), 2000n);
      expected.set(fee.referrer, (expected.get(fee.referrer) ?? 0) + Number(split.referrer));
      expected.set(fee.payer, (expected.get(fee.payer) ?? 0) + Number(split.invitee));
    }
    for (const [userId, amount] of expected) {
      const coin = (await ledger.balances(userId)).find((b) => b.type === 'coin' && b.currency === 'USDT');
      expect(coin?.balance ?? 0, `user ${userId}`).toBe(amount);
    }
    expect(describeProblems(await checkLedger(handle.db))).toEqual([]);
  });
});
