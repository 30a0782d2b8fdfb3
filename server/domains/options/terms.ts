import type { Kysely } from 'kysely';
import type { OptionSeconds } from '../../../protocol/options';
import { OPTION_DEFAULTS, type OptionPeriod, type OptionTerms } from '../../../protocol/rules/options';
import { currencyScale, isCurrency } from '../../ledger';
import { INSTRUMENTS } from '../../market';
import type { Database } from '../../platform/db/schema';
import { readSetting, writeSetting } from '../../platform/settings';

/**
 * The option terms in force for new contracts (RULES "Options"): periods with their payout ratios, the minimum
 * stake, the payable currencies and the instruments. Stored as one JSON setting; operators change it with
 * `npm run ops -- options ...`, audited. A contract keeps the period and ratio it was bought under (its row).
 */

const TERMS_KEY = 'options.terms';

export interface OptionSettings extends OptionTerms {
  symbols: readonly string[];
}

/** Coins that move (not the stablecoins, whose price hardly does). */
const DEFAULT_SYMBOLS = INSTRUMENTS.filter((i) => i.kind === 'coin' && !i.stable).map((i) => i.symbol);

export const DEFAULT_OPTION_SETTINGS: OptionSettings = { ...OPTION_DEFAULTS, symbols: DEFAULT_SYMBOLS };

export async function readOptionSettings(db: Kysely<Database>): Promise<OptionSettings> {
  const stored = await readSetting(db, TERMS_KEY);
  if (stored === undefined) return DEFAULT_OPTION_SETTINGS;
  return { ...DEFAULT_OPTION_SETTINGS, ...(JSON.parse(stored) as Partial<OptionSettings>) };
}

export async function optionSeconds(db: Kysely<Database>, currency?: string): Promise<OptionSeconds> {
  const settings = await readOptionSettings(db);
  const currencies = settings.payableCurrencies.filter((c) => currency === undefined || c === currency);
  return {
    currencies: currencies.map((c) => ({
      currency: c,
      scale: currencyScale(c),
      periods: settings.periods.map((p) => ({ seconds: p.seconds, ratio: p.ratio, min_stake: settings.minStake })),
    })),
    symbols: [...settings.symbols],
  };
}

/** What an operator may change, checked before it is stored. */
function problemOf(next: OptionSettings): string | null {
  if (next.periods.length === 0) return 'at least one period must be offered';
  for (const p of next.periods) {
    if (!Number.isSafeInteger(p.seconds) || p.seconds < 5 || p.seconds > 86_400) return `bad period: ${p.seconds}`;
    if (!/^0\.\d{1,4}$/.test(p.ratio)) return `a ratio is a fraction below 1 (e.g. 0.80): ${p.ratio}`;
  }
  if (!/^\d{1,9}(\.\d{1,6})?$/.test(next.minStake) || /^0+(\.0+)?$/.test(next.minStake)) {
    return `bad minimum stake: ${next.minStake}`;
  }
  if (next.payableCurrencies.length === 0 || !next.payableCurrencies.every(isCurrency)) return 'bad currency list';
  const known = new Set(INSTRUMENTS.map((i) => i.symbol));
  if (next.symbols.length === 0 || !next.symbols.every((s) => known.has(s))) return 'bad instrument list';
  return null;
}

/** Stores new terms for future contracts, audited in the same transaction. */
export async function setOptionSettings(
  db: Kysely<Database>,
  change: (current: OptionSettings) => OptionSettings,
  options: { operator?: string; now?: () => number } = {},
): Promise<{ ok: true; settings: OptionSettings } | { ok: false; problem: string }> {
  const current = await readOptionSettings(db);
  const next = change(current);
  const problem = problemOf(next);
  if (problem) return { ok: false, problem };
  await writeSetting(db, {
    key: TERMS_KEY,
    value: JSON.stringify(next),
    action: 'option_terms.set',
    detail: { previous: current, value: next },
    operator: options.operator,
    now: options.now,
  });
  return { ok: true, settings: next };
}

export const sortPeriods = (periods: readonly OptionPeriod[]): OptionPeriod[] =>
  [...periods].sort((a, b) => a.seconds - b.seconds);
