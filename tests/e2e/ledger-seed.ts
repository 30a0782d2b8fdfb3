import { join } from 'node:path';
import type { UserAccountType } from '../../server/ledger/accounts';
import { parseAmount } from '../../server/ledger/amounts';
import { Ledger } from '../../server/ledger/ledger';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';

/**
 * Set-up the product has no path for (money without a real deposit, the operator's settings and reviews): done on
 * the server's own database file, opened beside the running server (SQLite waits for its write lock) and closed
 * again, so the server never sees an open handle between tests.
 */
export async function withServerDatabase<T>(
  server: { dataDir: string },
  work: (handle: DatabaseHandle) => Promise<T>,
): Promise<T> {
  const handle = openSqlite(join(server.dataDir, 'app.db'));
  try {
    return await work(handle);
  } finally {
    await handle.db.destroy();
  }
}

/** Test set-up only, never a product path: money straight into one of a user's accounts, like a deposit. */
export async function depositDirectly(
  server: { dataDir: string },
  deposit: { userId: number; requestId: string; currency: string; amount: string; to: UserAccountType },
): Promise<void> {
  const parsed = parseAmount(deposit.currency, deposit.amount);
  if (!parsed.ok) throw new Error(parsed.error);
  const units = parsed.units;
  await withServerDatabase(server, async (handle) => {
    await new Ledger(handle).credit({
      userId: deposit.userId,
      requestId: deposit.requestId,
      kind: 'deposit',
      currency: deposit.currency,
      amount: units,
      from: 'deposits_clearing',
      to: deposit.to,
    });
  });
}
