import type { Kysely } from 'kysely';
import { houseEdge } from '../../../protocol/rules/options';
import type { Database } from '../../platform/db/schema';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import { readOptionSettings, setOptionSettings, sortPeriods } from './terms';

const USAGE =
  'usage: npm run ops -- options terms | options period <seconds> <ratio> | options drop-period <seconds> | ' +
  'options min-stake <amount> | options symbols <SYM,SYM,...>';

/**
 * `options ...`: the option terms for future contracts (periods and ratios, minimum stake, instruments), audited.
 * There is deliberately no command that touches a contract: results come only from the price record and the rule.
 */
export async function runOptionsCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, a, b] = args;
  if (sub === undefined || sub === 'terms') {
    const s = await readOptionSettings(db);
    for (const p of s.periods) {
      out(`${String(p.seconds).padStart(4)} s  ratio ${p.ratio}  house edge ${houseEdge(p.ratio)} of the stake`);
    }
    out(`minimum stake ${s.minStake} ${s.payableCurrencies.join(', ')}`);
    out(`instruments ${s.symbols.join(', ')}`);
    return 0;
  }
  const seconds = a && /^\d{1,6}$/.test(a) ? Number(a) : Number.NaN;
  let result: Awaited<ReturnType<typeof setOptionSettings>>;
  if (sub === 'period' && a && b) {
    result = await setOptionSettings(db, (s) => ({
      ...s,
      periods: sortPeriods([...s.periods.filter((p) => p.seconds !== seconds), { seconds, ratio: b }]),
    }));
  } else if (sub === 'drop-period' && a) {
    result = await setOptionSettings(db, (s) => ({ ...s, periods: s.periods.filter((p) => p.seconds !== seconds) }));
  } else if (sub === 'min-stake' && a) {
    result = await setOptionSettings(db, (s) => ({ ...s, minStake: a }));
  } else if (sub === 'symbols' && a) {
    const symbols = a
      .split(',')
      .map((x) => x.trim().toUpperCase())
      .filter(Boolean);
    result = await setOptionSettings(db, (s) => ({ ...s, symbols }));
  } else {
    out(USAGE);
    return 2;
  }
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out('option terms saved; they apply to contracts bought from now on');
  return 0;
}

export const optionOps: OpsCommand[] = [
  {
    name: 'options',
    help: [
      ['options terms', 'periods, payout ratios, house edge, minimum stake, instruments'],
      ['options period <s> <ratio>', 'offer a period (or change its ratio) for future contracts'],
      ['options drop-period <s>', 'stop offering a period'],
      ['options min-stake <amount>', 'the minimum stake'],
      ['options symbols <SYM,...>', 'the instruments options are offered on'],
    ],
    run: (words, { db, out }) => runOptionsCommand(words, db, out),
  },
];
