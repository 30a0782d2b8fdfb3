import { isDecimalText, signOf } from '../../../core/decimal-text';
import { type AccountType, ENTRY_KINDS, type EntryKind } from '../../../protocol/wallet';
import { formatNumber } from '../../lib/format';

/** Decimals of a wire amount: the server sends every amount with all of its currency's decimals. */
export const scaleOf = (value: string): number => value.split('.')[1]?.length ?? 0;

/** A balance with its currency's decimals where it has them, at least two: 0.125 BTC, 12,50 USDT. */
export const formatBalance = (value: string, lang: string, scale: number = scaleOf(value)): string =>
  formatNumber(value, lang, { min: 2, max: Math.max(2, scale) });

/** A USDT valuation: two decimals, cut (never rounded up). */
export const formatValuation = (value: string, lang: string): string => formatNumber(value, lang, { min: 2, max: 2 });

/** A signed ledger amount with an explicit plus for money coming in. */
export function formatSigned(value: string, lang: string, scale: number = scaleOf(value)): string {
  const text = formatBalance(value, lang, scale);
  return isDecimalText(value) && signOf(value) > 0 ? `+${text}` : text;
}

/** True for a decimal string that is exactly zero ('0.000000'). */
export const isZero = (value: string): boolean => !isDecimalText(value) || signOf(value) === 0;

/** i18n key of an account type's full name ("Spot account") and short label ("Spot"). */
export const typeName = (type: AccountType) => `assets.types.${type}` as const;
export const typeShort = (type: AccountType) => `assets.short.${type}` as const;

/**
 * Entry kinds the history names: every kind of the protocol but the hold placing and voiding, which move no money
 * and so never appear in history; anything newer shows as "other".
 */
type Kind = Exclude<EntryKind, 'hold_place' | 'hold_void'>;
const KINDS = ENTRY_KINDS.filter((k): k is Kind => k !== 'hold_place' && k !== 'hold_void');

export const kindName = (kind: string) =>
  (KINDS as readonly string[]).includes(kind)
    ? (`assets.kinds.${kind as Kind}` as const)
    : ('assets.kinds.other' as const);
