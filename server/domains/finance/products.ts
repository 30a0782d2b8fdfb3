import type { Kysely, Selectable } from 'kysely';
import type { FinanceFamily, FinanceProduct } from '../../../protocol/finance';
import { coveredPrincipal, type FinanceTerms, simpleApr } from '../../../protocol/rules/finance';
import { currencyScale, formatAmount, withLedger } from '../../ledger';
import type { Database } from '../../platform/db/schema';
import type { FinanceProductsTable } from './tables';
import { withFinance } from './tables';

export type FinanceProductRow = Selectable<FinanceProductsTable>;

/** The terms an order bought now copies from its product. */
export const productTerms = (row: FinanceProductRow): FinanceTerms => ({
  dailyRate: row.daily_rate,
  cycleDays: row.cycle_days,
  penalty: { kind: row.penalty_kind, value: row.penalty_value },
});

/**
 * The finance reserve of a currency that no order is promised yet: what can still be sold against. Read from the
 * ledger account itself (the one source of truth), zero before the operator first funds it.
 */
export async function freeReserve(db: Kysely<Database>, currency: string): Promise<bigint> {
  const row = await withLedger(db)
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('user_id', 'is', null)
    .where('book', '=', 'real')
    .where('type', '=', 'finance_reserve')
    .where('currency', '=', currency)
    .executeTakeFirst();
  return BigInt(row?.balance ?? 0);
}

/** The largest principal one order can have now: the product's maximum, or less where the reserve covers less. */
export function capacityOf(row: FinanceProductRow, free: bigint): bigint {
  const covered = coveredPrincipal(free, productTerms(row));
  const max = BigInt(row.max_amount);
  return covered < max ? covered : max;
}

export function productWire(row: FinanceProductRow, free: bigint): FinanceProduct {
  const covered = row.on_sale === 1 ? capacityOf(row, free) : 0n;
  // Below the minimum nothing can be bought: shown as no capacity rather than a sliver nobody can buy.
  const capacity = covered < BigInt(row.min_amount) ? 0n : covered;
  return {
    id: row.id,
    family: row.family,
    name: row.name,
    currency: row.currency,
    scale: currencyScale(row.currency),
    cycle_days: row.cycle_days,
    daily_rate: row.daily_rate,
    apr: simpleApr(row.daily_rate),
    min_amount: formatAmount(row.currency, row.min_amount),
    max_amount: formatAmount(row.currency, row.max_amount),
    penalty: { kind: row.penalty_kind, value: row.penalty_value },
    capacity: formatAmount(row.currency, capacity),
    sold_out: capacity === 0n,
    recommended: row.recommended === 1,
  };
}

/** The products of a family (those on sale first, then by id), each with what it can sell now. */
export async function listProducts(
  db: Kysely<Database>,
  family: FinanceFamily,
  options: { recommendedOnly?: boolean } = {},
): Promise<FinanceProduct[]> {
  const rows = await withFinance(db)
    .selectFrom('finance_products')
    .selectAll()
    .where('family', '=', family)
    .$if(options.recommendedOnly === true, (qb) => qb.where('recommended', '=', 1).where('on_sale', '=', 1))
    .orderBy('on_sale', 'desc')
    .orderBy('id')
    .execute();
  const reserves = new Map<string, bigint>();
  for (const currency of new Set(rows.map((r) => r.currency))) reserves.set(currency, await freeReserve(db, currency));
  const products = rows.map((row) => productWire(row, reserves.get(row.currency) ?? 0n));
  return options.recommendedOnly ? products.filter((p) => !p.sold_out) : products;
}

export async function productById(
  db: Kysely<Database>,
  family: FinanceFamily,
  id: number,
): Promise<FinanceProductRow | undefined> {
  return withFinance(db)
    .selectFrom('finance_products')
    .selectAll()
    .where('id', '=', id)
    .where('family', '=', family)
    .executeTakeFirst();
}
