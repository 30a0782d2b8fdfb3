import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import type { OpsCommand, Out } from '../platform/ops/commands';
import { checkLedger, describeProblems, describeTotals } from './consistency';

async function checkLedgerCommand(db: Kysely<Database>, out: Out): Promise<number> {
  const started = performance.now();
  const report = await checkLedger(db);
  const elapsed = Math.ceil(performance.now() - started);
  out(
    `ledger: ${report.accounts} accounts, ${report.postings} postings, ${report.openHolds} open holds (checked in ${elapsed} ms)`,
  );
  for (const line of describeTotals(report)) out(line);
  const problems = describeProblems(report);
  if (problems.length === 0) {
    out('consistent: balances match postings, held amounts match open holds, every currency sums to zero');
    return 0;
  }
  out(`${problems.length} problem(s):`);
  for (const problem of problems) out(`  ${problem}`);
  return 1;
}

/** The ledger's operator commands. */
export const ledgerOps: OpsCommand[] = [
  {
    name: 'ledger',
    help: [
      [
        'ledger check',
        'recompute every balance from the postings and every held amount from the open holds; exit 1 on any difference',
      ],
    ],
    run: async (words, { db, out }) => {
      if (words[0] === 'check') return checkLedgerCommand(db, out);
      out('usage: npm run ops -- ledger check');
      return 2;
    },
  },
];
