import { parseLocaleAmount } from '../../core/locale-amount';
import { formatNumber } from './format';

/**
 * Amount fields in the user's own number format (DESIGN "Numbers on screen"): a German user types `1.000,5` and means
 * one thousand and a half. While typing, a field keeps digits and both separators; on submit the text is read with
 * the language's separators into the exact wire form (`1000.5`). Text that is no number in that language goes to
 * the server's own check as typed, which refuses it with its message.
 */

/** What an amount field keeps while the user types. */
export const amountKeystrokes = (typed: string): string => typed.replace(/[^\d.,]/g, '').slice(0, 32);

/** The exact decimal string to send for what the user typed in `lang`. */
export const wireAmount = (typed: string, lang: string): string => parseLocaleAmount(typed, lang) ?? typed.trim();

/** A value put into an amount field for the user ("all"): their format, no grouping, at most `scale` decimals. */
export const editableAmount = (value: string, lang: string, scale = 8): string =>
  formatNumber(value, lang, { min: 0, max: scale, grouping: false });
