import { join } from 'node:path';
import { approveVerification } from '../../server/domains/identity';
import type { UserAccountType } from '../../server/ledger/accounts';
import { parseAmount } from '../../server/ledger/amounts';
import { Ledger } from '../../server/ledger/ledger';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';
import { postApi } from './users';

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

/** Basic identity verification through the API, approved as an operator would (its own browser tests exist). */
export async function verifyIdentity(server: { url: string; dataDir: string }, token: string): Promise<void> {
  const submitted = await postApi(
    server,
    'user/real_name',
    { country: 'DE', name: 'Test Trader', id_number: 'T0000001', address: 'Street 1', consent: '1' },
    token,
  );
  if (submitted.type !== 'ok') throw new Error(`user/real_name: ${submitted.message}`);
  await withServerDatabase(server, async (handle) => {
    const review = await approveVerification(handle.db, (submitted.data as { id: number }).id, { operator: 'e2e' });
    if (!review.ok) throw new Error(review.problem);
  });
}
