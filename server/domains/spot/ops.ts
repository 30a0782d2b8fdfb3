import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import { readTerms, setTerm, TERM_NAMES, type TermName } from './terms';

const USAGE = 'usage: npm run ops -- fees spot | fees spot set <fee_rate|min_value|price_band> <value>';

/** `fees spot [set <term> <value>]`: the spot terms for future orders (RULES "Spot"); a change is audited. */
export async function runSpotFeesCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, name, value] = args;
  if (sub === undefined || sub === 'list') {
    const terms = await readTerms(db);
    out(`fee_rate   ${terms.feeRate}  (fraction of the value, in USDT, rounded up)`);
    out(`min_value  ${terms.minValue} USDT`);
    out(`price_band ${terms.priceBand}  (protection of a market buy by quantity)`);
    return 0;
  }
  if (sub !== 'set' || !name || !value || !(TERM_NAMES as readonly string[]).includes(name)) {
    out(USAGE);
    return 2;
  }
  const result = await setTerm(db, name as TermName, value);
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out(`spot ${name} ${result.previous} -> ${value}, for orders placed from now on`);
  return 0;
}

/** The spot part of the `fees` command (server/ops/cli.ts routes `fees spot ...` here). */
export const spotFeesOps: OpsCommand = {
  name: 'fees',
  help: [
    ['fees spot', 'spot fee rate, minimum order value and price band in force'],
    ['fees spot set <term> <value>', 'change one for future orders (audited)'],
  ],
  run: (words, { db, out }) => runSpotFeesCommand(words, db, out),
};
