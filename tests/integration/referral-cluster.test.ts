import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rebateSplit } from '../../protocol/rules/referral';
import { leverLedgerIds } from '../../server/domains/lever/submit';
import { grantPartner, payRebates, setBonus, withReferral } from '../../server/domains/referral';
import { withLedger } from '../../server/ledger';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { LocalLeases } from '../../server/platform/jobs/leases';
import { insertUser } from '../../server/testing';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase } from './harness';

/**
 * The rebate job in two apps on one database (RULES "Referral and partners": each fee rebated once): with shared
 * leases only one runs it at a time; with leases of their own (two processes that cannot see each other's) both run
 * it at once, and a direct round runs beside them. Either way every fee gets one row and its entries once.
 */
describe.each(DATABASES)('referral rebate job in two apps on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  let serial = 0;
  async function feesFor(referrer: number, count: number) {
    const ledger = new Ledger(database.handle);
    const fees: Array<{ payer: number; amount: number }> = [];
    for (let i = 0; i < count; i++) {
      const payer = await insertUser(database.handle, { referrer_id: referrer });
      await ledger.credit({
        userId: payer,
        requestId: 'seed',
        kind: 'deposit',
        currency: 'USDT',
        amount: 100_000_000,
        from: 'deposits_clearing',
        to: 'contract',
      });
      for (let k = 0; k < 3; k++) {
        const amount = 999_999 + 31 * ++serial;
        await ledger.debit({
          userId: payer,
          requestId: leverLedgerIds.fee(serial),
          kind: 'fee',
          currency: 'USDT',
          amount,
          from: 'contract',
          to: 'fees',
        });
        fees.push({ payer, amount });
      }
    }
    return fees;
  }

  async function rebatedOnce(
    referrer: number,
    fees: ReadonlyArray<{ payer: number; amount: number }>,
    ratio: bigint,
    bonus: bigint,
  ) {
    const ledger = new Ledger(database.handle);
    const payers = [...new Set(fees.map((f) => f.payer))];
    const rows = await withReferral(database.handle.db)
      .selectFrom('referral_rebates')
      .selectAll()
      .where('payer_id', 'in', payers)
      .execute();
    expect(rows).toHaveLength(fees.length);
    const entries = await withLedger(database.handle.db)
      .selectFrom('ledger_entries')
      .select(['user_id', 'request_id'])
      .where('kind', '=', 'rebate')
      .where('user_id', 'in', [referrer, ...payers])
      .execute();
    const nonZero = rows.reduce(
      (n, r) => n + (Number(r.referrer_amount) > 0 ? 1 : 0) + (Number(r.invitee_amount) > 0 ? 1 : 0),
      0,
    );
    expect(entries).toHaveLength(nonZero);
    let referrerTotal = 0;
    for (const payer of payers) {
      const own = fees.filter((f) => f.payer === payer);
      const bonusTotal = own.reduce((n, f) => n + Number(rebateSplit(BigInt(f.amount), ratio, bonus).invitee), 0);
      referrerTotal += own.reduce((n, f) => n + Number(rebateSplit(BigInt(f.amount), ratio, bonus).referrer), 0);
      const coin = (await ledger.balances(payer)).find((b) => b.type === 'coin' && b.currency === 'USDT');
      expect(coin?.balance ?? 0).toBe(bonusTotal);
    }
    const coin = (await ledger.balances(referrer)).find((b) => b.type === 'coin' && b.currency === 'USDT');
    expect(coin?.balance ?? 0).toBe(referrerTotal);
    expect(describeProblems(await checkLedger(database.handle.db))).toEqual([]);
  }

  async function twoApps(leases: () => LocalLeases): Promise<TestApp[]> {
    return Promise.all([0, 1].map(() => startTestApp(database.handle, { referralRebatesMs: 10, leases: leases() })));
  }

  async function allRebated(count: () => Promise<number>, total: number) {
    await vi.waitFor(async () => expect(await count()).toBe(total), { timeout: 30_000, interval: 50 });
  }

  const rowCount = async (referrer: number) =>
    Number(
      (
        await withReferral(database.handle.db)
          .selectFrom('referral_rebates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('referrer_id', '=', referrer)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('pays every fee once with two apps sharing the job lease', async () => {
    const referrer = await insertUser(database.handle);
    const fees = await feesFor(referrer, 12);
    const shared = new LocalLeases();
    const apps = await twoApps(() => shared);
    try {
      await allRebated(() => rowCount(referrer), fees.length);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
    await rebatedOnce(referrer, fees, 2000n, 0n);
  });

  it('pays every fee once when both apps and a direct round run it at the same time', async () => {
    const referrer = await insertUser(database.handle);
    expect((await grantPartner(database.handle.db, String(referrer), '0.45')).ok).toBe(true);
    await setBonus(database.handle.db, referrer, '0.15', Date.now);
    const fees = await feesFor(referrer, 20);
    const apps = await twoApps(() => new LocalLeases());
    try {
      const ledger = new Ledger(database.handle);
      await Promise.all(
        [0, 1, 2].map(() => payRebates({ database: database.handle, ledger, now: Date.now }, { batch: 7 })),
      );
      await allRebated(() => rowCount(referrer), fees.length);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
    await rebatedOnce(referrer, fees, 4500n, 1500n);
  });
});
