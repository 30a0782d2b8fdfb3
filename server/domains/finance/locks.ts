import type { Kysely } from 'kysely';
import { withLedger } from '../../ledger';
import type { DialectKind } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';

/**
 * Every finance transaction that moves promised yield first locks the currency's `finance_reserve` and
 * `finance_yield` accounts, in id order (on PostgreSQL; SQLite's write transaction is exclusive anyway). The ledger
 * locks accounts in id order too, so a buy, a redemption and an accrual batch all queue on the reserve before they
 * take any other lock (holds, then accounts), and none can deadlock another. The reserve exists before anything can
 * be sold (the operator funded it); the yield account is created by the first sale, under the reserve's lock.
 */
export async function lockFinanceBooks(trx: Kysely<Database>, kind: DialectKind, currency: string): Promise<void> {
  if (kind !== 'postgres') return;
  await withLedger(trx)
    .selectFrom('ledger_accounts')
    .select('id')
    .where('user_id', 'is', null)
    .where('book', '=', 'real')
    .where('type', 'in', ['finance_reserve', 'finance_yield'])
    .where('currency', '=', currency)
    .orderBy('id')
    .forUpdate()
    .execute();
}
