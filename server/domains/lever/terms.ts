import type { Kysely } from 'kysely';
import type { LeverInstrument } from '../../../protocol/lever';
import { LEVER_DEFAULTS, type LeverTerms } from '../../../protocol/rules/lever';
import { currencyScale } from '../../ledger';
import { INSTRUMENTS, instrumentBySymbol, tickSizeOf } from '../../market';
import type { Database } from '../../platform/db/schema';
import { readSetting, writeSetting } from '../../platform/settings';

/**
 * The lever terms in force for new positions (RULES "Lever"): per instrument its contract size and highest
 * leverage, and for all of them the leverage choices, the maintenance margin rate and the fee rate. Stored as one
 * JSON setting; operators change it with `npm run ops -- lever ...`, audited. A position keeps the terms it was
 * opened under (its row holds them).
 */

const TERMS_KEY = 'lever.terms';
export const LEVER_QUOTE = 'USDT' as const;

export interface LeverInstrumentSetting {
  contractSize: string;
  maxLeverage: number;
}

export interface LeverSettings {
  mmr: string;
  feeRate: string;
  leverages: readonly number[];
  instruments: Readonly<Record<string, LeverInstrumentSetting>>;
}

/**
 * Defaults: BTC 0.001 and ETH 0.01 per lot (RULES), the other coins sized so one lot is worth about 10 to 100 USDT
 * at their usual prices; BTC and ETH up to 100x, the others 50x, the most volatile small coins 20x.
 */
const DEFAULT_INSTRUMENTS: Record<string, LeverInstrumentSetting> = {
  BTC: { contractSize: '0.001', maxLeverage: 100 },
  ETH: { contractSize: '0.01', maxLeverage: 100 },
  SOL: { contractSize: '0.1', maxLeverage: 50 },
  BNB: { contractSize: '0.1', maxLeverage: 50 },
  XRP: { contractSize: '100', maxLeverage: 50 },
  ADA: { contractSize: '100', maxLeverage: 50 },
  DOGE: { contractSize: '500', maxLeverage: 20 },
  TRX: { contractSize: '500', maxLeverage: 20 },
  LTC: { contractSize: '1', maxLeverage: 50 },
  DOT: { contractSize: '10', maxLeverage: 20 },
  LINK: { contractSize: '5', maxLeverage: 20 },
  AVAX: { contractSize: '1', maxLeverage: 20 },
};

export const DEFAULT_LEVER_SETTINGS: LeverSettings = {
  mmr: LEVER_DEFAULTS.mmr,
  feeRate: LEVER_DEFAULTS.feeRate,
  leverages: LEVER_DEFAULTS.leverages,
  instruments: DEFAULT_INSTRUMENTS,
};

export async function readLeverSettings(db: Kysely<Database>): Promise<LeverSettings> {
  const stored = await readSetting(db, TERMS_KEY);
  if (stored === undefined) return DEFAULT_LEVER_SETTINGS;
  return { ...DEFAULT_LEVER_SETTINGS, ...(JSON.parse(stored) as Partial<LeverSettings>) };
}

/** The instrument's price steps, for any symbol lever can trade (whether or not it is offered now). */
export function leverPriceScale(symbol: string): number | undefined {
  const instrument = instrumentBySymbol(symbol);
  return instrument && instrument.kind === 'coin' && !instrument.stable ? instrument.priceScale : undefined;
}

/** The rule terms of a new position on `symbol`, or undefined when lever does not offer it. */
export function termsFor(settings: LeverSettings, symbol: string): LeverTerms | undefined {
  const offered = settings.instruments[symbol];
  const priceScale = leverPriceScale(symbol);
  if (!offered || priceScale === undefined) return undefined;
  return {
    contractSize: offered.contractSize,
    mmr: settings.mmr,
    feeRate: settings.feeRate,
    priceScale,
    quoteScale: currencyScale(LEVER_QUOTE),
  };
}

/** The leverages offered on `symbol`: the common choices up to the instrument's cap. */
export const leveragesFor = (settings: LeverSettings, symbol: string): number[] => {
  const cap = settings.instruments[symbol]?.maxLeverage ?? 0;
  return settings.leverages.filter((l) => l <= cap);
};

/** lever/deal's instruments. */
export function offeredInstruments(settings: LeverSettings): LeverInstrument[] {
  return INSTRUMENTS.filter((i) => settings.instruments[i.symbol] && leverPriceScale(i.symbol) !== undefined).map(
    (i) => ({
      symbol: i.symbol,
      contract_size: settings.instruments[i.symbol]?.contractSize ?? '0',
      leverages: leveragesFor(settings, i.symbol),
      mmr: settings.mmr,
      fee_rate: settings.feeRate,
      price_scale: i.priceScale,
      tick_size: tickSizeOf(i),
    }),
  );
}

const RATE_RE = /^0\.\d{1,6}$/;
const SIZE_RE = /^\d{1,9}(\.\d{1,8})?$/;

/** What an operator may change, checked before it is stored. */
function problemOf(next: LeverSettings): string | null {
  if (!RATE_RE.test(next.mmr) || /^0\.0+$/.test(next.mmr)) return `bad maintenance margin rate: ${next.mmr}`;
  if (!RATE_RE.test(next.feeRate)) return `bad fee rate: ${next.feeRate}`;
  if (next.leverages.length === 0 || !next.leverages.every((l) => Number.isSafeInteger(l) && l >= 1 && l <= 125)) {
    return 'bad leverage list';
  }
  for (const [symbol, setting] of Object.entries(next.instruments)) {
    if (leverPriceScale(symbol) === undefined) return `not a lever instrument: ${symbol}`;
    if (!SIZE_RE.test(setting.contractSize) || /^0+(\.0+)?$/.test(setting.contractSize)) {
      return `bad contract size for ${symbol}: ${setting.contractSize}`;
    }
    if (!Number.isSafeInteger(setting.maxLeverage) || setting.maxLeverage < 1) return `bad leverage cap for ${symbol}`;
  }
  return null;
}

/** Stores new terms for future positions, audited in the same transaction. */
export async function setLeverSettings(
  db: Kysely<Database>,
  change: (current: LeverSettings) => LeverSettings,
  options: { operator?: string; now?: () => number } = {},
): Promise<{ ok: true; settings: LeverSettings } | { ok: false; problem: string }> {
  const current = await readLeverSettings(db);
  const next = change(current);
  const problem = problemOf(next);
  if (problem) return { ok: false, problem };
  await writeSetting(db, {
    key: TERMS_KEY,
    value: JSON.stringify(next),
    action: 'lever_terms.set',
    detail: { previous: current, value: next },
    operator: options.operator,
    now: options.now,
  });
  return { ok: true, settings: next };
}
