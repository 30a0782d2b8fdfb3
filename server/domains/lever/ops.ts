import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import { leveragesFor, readLeverSettings, setLeverSettings } from './terms';

const USAGE =
  'usage: npm run ops -- lever terms | lever mmr <rate> | lever fee <rate> | lever leverages <1,2,5,...> | ' +
  'lever instrument <SYM> <contract size> <max leverage> | lever drop <SYM>';

/**
 * `lever ...`: the lever terms for future positions (maintenance margin rate, fee rate, leverage choices, instruments
 * with their contract size and leverage cap), audited. There is deliberately no command that touches a position:
 * closes and liquidations come only from the price record and the rules.
 */
export async function runLeverCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, a, b, c] = args;
  if (sub === undefined || sub === 'terms') {
    const s = await readLeverSettings(db);
    out(`maintenance margin rate ${s.mmr}  fee rate ${s.feeRate}  leverages ${s.leverages.join(', ')}`);
    for (const [symbol, i] of Object.entries(s.instruments)) {
      out(`${symbol.padEnd(6)} lot ${i.contractSize.padEnd(8)} up to ${leveragesFor(s, symbol).at(-1) ?? '-'}x`);
    }
    return 0;
  }
  let result: Awaited<ReturnType<typeof setLeverSettings>>;
  if (sub === 'mmr' && a) result = await setLeverSettings(db, (s) => ({ ...s, mmr: a }));
  else if (sub === 'fee' && a) result = await setLeverSettings(db, (s) => ({ ...s, feeRate: a }));
  else if (sub === 'leverages' && a) {
    const leverages = a.split(',').map((x) => (/^\d{1,3}$/.test(x.trim()) ? Number(x.trim()) : Number.NaN));
    result = await setLeverSettings(db, (s) => ({ ...s, leverages: [...new Set(leverages)].sort((x, y) => x - y) }));
  } else if (sub === 'instrument' && a && b && c) {
    const symbol = a.toUpperCase();
    const maxLeverage = /^\d{1,3}$/.test(c) ? Number(c) : Number.NaN;
    result = await setLeverSettings(db, (s) => ({
      ...s,
      instruments: { ...s.instruments, [symbol]: { contractSize: b, maxLeverage } },
    }));
  } else if (sub === 'drop' && a) {
    const symbol = a.toUpperCase();
    result = await setLeverSettings(db, (s) => ({
      ...s,
      instruments: Object.fromEntries(Object.entries(s.instruments).filter(([k]) => k !== symbol)),
    }));
  } else {
    out(USAGE);
    return 2;
  }
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out('lever terms saved; they apply to positions opened from now on');
  return 0;
}

export const leverOps: OpsCommand[] = [
  {
    name: 'lever',
    help: [
      ['lever terms', 'maintenance margin rate, fee rate, leverages, instruments'],
      ['lever mmr <rate>', 'the maintenance margin rate, e.g. 0.005'],
      ['lever fee <rate>', 'the fee rate at open and at close, e.g. 0.0005'],
      ['lever leverages <1,2,...>', 'the leverage choices'],
      ['lever instrument <SYM> <size> <max>', 'offer an instrument (or change its lot and leverage cap)'],
      ['lever drop <SYM>', 'stop offering an instrument to new positions'],
    ],
    run: (words, { db, out }) => runLeverCommand(words, db, out),
  },
];
