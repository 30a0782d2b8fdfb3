import { createInterface } from 'node:readline';
import { payRebates } from '../../server/domains/referral';
import { Ledger } from '../../server/ledger/ledger';
import { openSqlite } from '../../server/platform/db/connect';

/**
 * A rebate round as its own process for the kill -9 and two-process tests: `<db file> <fees per batch> [batch to stop
 * in]`. Inside that batch's transaction (its rows and entries written, not committed) it says `inside <n>` and waits on
 * stdin, where the test kills it. Without a batch to stop in it runs the round through and says `done <fees>`.
 */
const [file, batch, stopIn] = process.argv.slice(2);
if (!file || !batch) throw new Error('usage: <db file> <batch> [stop in batch]');
const handle = openSqlite(file);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const result = await payRebates(
  { database: handle, ledger: new Ledger(handle), now: Date.now },
  {
    batch: Number(batch),
    insideBatch: async (n) => {
      if (stopIn === undefined || n !== Number(stopIn)) return;
      process.stdout.write(`inside ${n}\n`);
      await lines.next();
    },
  },
);
process.stdout.write(`done ${result.fees}\n`);
input.close();
await handle.db.destroy();
