import { createInterface } from 'node:readline';
import { accrueFinance } from '../../server/domains/finance';
import { Ledger } from '../../server/ledger/ledger';
import { openSqlite } from '../../server/platform/db/connect';

/**
 * The accrual as its own process for the kill -9 test: `<db file> <at> <orders per batch> <batch to stop in>`. Inside
 * that batch's transaction (its postings written, not committed) it says `inside <n>` and waits on stdin, where the
 * test kills it.
 */
const [file, at, batch, stopIn] = process.argv.slice(2);
if (!file || !at || !batch || !stopIn) throw new Error('usage: <db file> <at> <batch> <stop in batch>');
const handle = openSqlite(file);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
await accrueFinance(
  { database: handle, ledger: new Ledger(handle), now: Date.now },
  {
    at: Number(at),
    batch: Number(batch),
    insideBatch: async (n) => {
      if (n !== Number(stopIn)) return;
      process.stdout.write(`inside ${n}\n`);
      await lines.next();
    },
  },
);
process.stdout.write('done\n');
input.close();
await handle.db.destroy();
