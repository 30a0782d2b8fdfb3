import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import type { Job } from '../platform/jobs/runner';
import { COIN_SCALE, currencyScale, isCurrency, isStaticCurrency, registerListedCurrency } from './amounts';
import { withLedger } from './tables';

/*
 * The ledger's own currencies table (`ledger_currencies`, migration 0026): a coin listed at run time becomes a
 * currency in the listing's transaction (Ledger.addCurrency, joined with `within`), so the coin and the right to hold it
 * commit together. Every process loads the table explicitly at start and polls it; nothing fills the process's
 * scales as a side effect of an import.
 */

/** How often a process looks for currencies added by another one. */
export const CURRENCIES_POLL_MS = 2_000;

/** Registers every currency of the table in this process; returns how many were new to it. */
export async function loadCurrencies(db: Kysely<Database>): Promise<number> {
  const rows = await withLedger(db)
    .selectFrom('ledger_currencies')
    .select(['symbol', 'scale'])
    .orderBy('created_at')
    .execute();
  let added = 0;
  for (const row of rows) {
    if (isCurrency(row.symbol)) continue;
    registerListedCurrency(row.symbol, row.scale);
    added += 1;
  }
  return added;
}

/** Every process loads new currencies for itself (its own scales): a `process` job. */
export function currenciesJob(db: Kysely<Database>, everyMs = CURRENCIES_POLL_MS): Job {
  return {
    name: 'ledger-currencies',
    scope: 'process',
    everyMs,
    run: async () => void (await loadCurrencies(db)),
  };
}

/**
 * Writes `symbol` as a currency of `scale` decimals (idempotent: a currency of that scale already is fine, another
 * scale throws) and registers it in this process at once. A rolled-back caller's transaction leaves it registered
 * here but not in the table: adding it again writes the same row.
 */
export async function addCurrency(
  db: Kysely<Database>,
  symbol: string,
  scale: number = COIN_SCALE,
  now: () => number = Date.now,
): Promise<void> {
  if (isStaticCurrency(symbol)) throw new Error(`${symbol} is a static currency`);
  // Checks the symbol and the scale before anything is written.
  registerListedCurrency(symbol, scale);
  await withLedger(db)
    .insertInto('ledger_currencies')
    .values({ symbol, scale, created_at: now() })
    .onConflict((oc) => oc.column('symbol').doNothing())
    .execute();
  const row = await withLedger(db)
    .selectFrom('ledger_currencies')
    .select('scale')
    .where('symbol', '=', symbol)
    .executeTakeFirstOrThrow();
  if (row.scale !== currencyScale(symbol)) throw new Error(`${symbol} is a currency of scale ${row.scale} already`);
}
