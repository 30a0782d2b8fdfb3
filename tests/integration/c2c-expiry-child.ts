import { createInterface } from 'node:readline';
import { expireC2cOrders } from '../../server/domains/c2c';
import { Ledger } from '../../server/ledger/ledger';
import { openSqlite } from '../../server/platform/db/connect';

/**
 * The C2C expiry as its own process for the kill -9 test: `<db file> <at> <order to stop in>`. Inside that order's
 * transaction (its status, escrow release and events written, not committed) it says `inside <n>` and waits on stdin,
 * where the test kills it.
 */
const [file, at, stopIn] = process.argv.slice(2);
if (!file || !at || !stopIn) throw new Error('usage: <db file> <at> <order to stop in>');
const handle = openSqlite(file);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const expired = await expireC2cOrders(
  { database: handle, ledger: new Ledger(handle), now: Date.now },
  {
    at: Number(at),
    insideOrder: async (_row, n) => {
      if (n !== Number(stopIn)) return;
      process.stdout.write(`inside ${n}\n`);
      await lines.next();
    },
  },
);
process.stdout.write(`done ${expired}\n`);
input.close();
await handle.db.destroy();
