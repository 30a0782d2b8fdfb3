import type { Kysely } from 'kysely';
import { verifyPriceChain } from '../../market';
import type { Database } from '../../platform/db/schema';
import type { OpsCommand, Out } from '../../platform/ops/commands';

/**
 * `npm run ops -- market verify`: recomputes the price record's hash chain from genesis and every batch's digest
 * whose ticks are still there (server/market/price-chain.ts). Exit code 1 on the first difference, so a cron job
 * or a monitor can alert on it.
 */
export async function runMarketCommand(words: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  if (words.length !== 1 || words[0] !== 'verify') {
    out('usage: npm run ops -- market verify');
    return 2;
  }
  const check = await verifyPriceChain(db);
  out(`batches: ${check.batches}`);
  out(`checked: ${check.checked} (digest recomputed from their ticks)`);
  out(`pruned:  ${check.pruned} (ticks past the retention; link checked)`);
  if (check.difference) {
    out(`DIFFERENCE: ${check.difference}`);
    return 1;
  }
  out('the price record matches its hash chain');
  return 0;
}

export const marketOps: OpsCommand[] = [
  {
    name: 'market',
    help: [['market verify', 'recompute the price record hash chain; exit 1 on a difference']],
    run: (words, { db, out }) => runMarketCommand(words, db, out),
  },
];
