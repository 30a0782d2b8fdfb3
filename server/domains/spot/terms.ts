import type { Kysely } from 'kysely';
import type { SpotConfig, SpotPair } from '../../../protocol/spot';
import { currencyScale } from '../../ledger';
import { formatUnits, INSTRUMENTS, type Instrument } from '../../market';
import type { Database } from '../../platform/db/schema';
import { writeSetting } from '../../platform/settings';

/**
 * The spot terms in force for new orders (RULES "Spot": fee 0.1% of the value, minimum value 5 USDT; the price band
 * protects a market buy by quantity). Operators change them with `npm run ops -- fees spot set ...`, audited; an
 * order keeps the terms it was placed under (its row stores them).
 */

export const SPOT_QUOTE_CURRENCY = 'USDT';
export const TERM_NAMES = ['fee_rate', 'min_value', 'price_band'] as const;
export type TermName = (typeof TERM_NAMES)[number];
const DEFAULTS: Readonly<Record<TermName, string>> = { fee_rate: '0.001', min_value: '5', price_band: '0.02' };
const settingKey = (name: TermName) => `spot.${name}`;

export interface Terms {
  feeRate: string;
  minValue: string;
  priceBand: string;
  quoteScale: number;
}

/** The pairs: every coin against USDT except USDT itself (US stocks are quotes only). */
export const SPOT_INSTRUMENTS: readonly Instrument[] = INSTRUMENTS.filter(
  (i) => i.kind === 'coin' && i.symbol !== SPOT_QUOTE_CURRENCY,
);
const bySymbol = new Map(SPOT_INSTRUMENTS.map((i) => [i.symbol, i]));
export const spotInstrument = (symbol: string): Instrument | undefined => bySymbol.get(symbol);

export function pairOf(i: Instrument): SpotPair {
  return {
    symbol: i.symbol,
    quote: SPOT_QUOTE_CURRENCY,
    price_step: formatUnits(1, i.priceScale),
    qty_step: formatUnits(1, i.qtyScale),
    price_scale: i.priceScale,
    qty_scale: i.qtyScale,
  };
}

export async function readTerms(db: Kysely<Database>): Promise<Terms> {
  const rows = await db
    .selectFrom('platform_settings')
    .select(['key', 'value'])
    .where(
      'key',
      'in',
      TERM_NAMES.map((n) => settingKey(n)),
    )
    .execute();
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const term = (name: TermName) => stored.get(settingKey(name)) ?? DEFAULTS[name];
  return {
    feeRate: term('fee_rate'),
    minValue: term('min_value'),
    priceBand: term('price_band'),
    quoteScale: currencyScale(SPOT_QUOTE_CURRENCY),
  };
}

export async function spotConfig(db: Kysely<Database>): Promise<SpotConfig> {
  const terms = await readTerms(db);
  return {
    fee_rate: terms.feeRate,
    min_value: terms.minValue,
    price_band: terms.priceBand,
    quote_scale: terms.quoteScale,
    pairs: SPOT_INSTRUMENTS.map(pairOf),
  };
}

/** A rate or amount an operator may set: a plain decimal, rates below 1. */
function termProblem(name: TermName, value: string): string | null {
  if (!/^\d{1,9}(\.\d{1,8})?$/.test(value)) return 'not a plain decimal (e.g. 0.001)';
  const isRate = name !== 'min_value';
  if (isRate && !/^0(\.\d+)?$/.test(value)) return 'a rate must be below 1 (0.001 is 0.1%)';
  return null;
}

/** Sets one term for future orders, audited in the same transaction. */
export async function setTerm(
  db: Kysely<Database>,
  name: TermName,
  value: string,
  options: { operator?: string; now?: () => number } = {},
): Promise<{ ok: true; previous: string } | { ok: false; problem: string }> {
  const problem = termProblem(name, value);
  if (problem) return { ok: false, problem };
  const key = settingKey(name);
  const previous = (await readTerms(db))[
    name === 'fee_rate' ? 'feeRate' : name === 'min_value' ? 'minValue' : 'priceBand'
  ];
  await writeSetting(db, {
    key,
    value,
    action: 'spot_terms.set',
    detail: { previous, value },
    operator: options.operator,
    now: options.now,
  });
  return { ok: true, previous };
}
