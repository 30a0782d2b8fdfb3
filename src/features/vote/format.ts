import { votePercent } from '../../../protocol/polls';
import { localeOf } from '../../lib/format';

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * An option's share in the locale's percent pattern ("33,3 %" in de, "33.3%" in en), from the exact one-decimal text
 * of protocol/polls.ts: Intl reads the string as an exact decimal, and the exponent suffix divides it by 100 without
 * arithmetic (percent style multiplies by 100).
 */
export function formatShare(votes: number, total: number, lang: string): string {
  const percent = votePercent(votes, total);
  let nf = formatters.get(lang);
  if (!nf) {
    const options: Intl.NumberFormatOptions = {
      style: 'percent',
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
      roundingMode: 'trunc',
    };
    try {
      nf = new Intl.NumberFormat(localeOf(lang), options);
    } catch {
      nf = new Intl.NumberFormat('en-US', options);
    }
    formatters.set(lang, nf);
  }
  return nf.format(`${percent}e-2` as Intl.StringNumericLiteral);
}

/** The bar's width as a CSS percentage: the same exact text, never a float quotient. */
export const barWidth = (votes: number, total: number): string => `${votePercent(votes, total)}%`;

/** The options with the most votes once a poll has any (ties: all of them). */
export function leadingOptions(options: readonly { id: number; votes: number }[]): Set<number> {
  const top = options.reduce((max, o) => Math.max(max, o.votes), 0);
  return new Set(top > 0 ? options.filter((o) => o.votes === top).map((o) => o.id) : []);
}
