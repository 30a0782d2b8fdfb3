import { formatNumber as formatExactNumber } from '../../lib/format';

/** A fee rate ('0.001') as a percent in the user's language ('0.1%'), exactly: the rate's digits moved by two. */
export function formatPercentRate(rate: string, lang: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!match) return rate;
  const digits = `${match[1] ?? '0'}${(match[2] ?? '').padEnd(2, '0')}`;
  const fraction = (match[2] ?? '').slice(2);
  const whole = digits.slice(0, digits.length - fraction.length).replace(/^0+(?=\d)/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return `${formatExactNumber(text, lang, { min: 0, max: 6 })}%`;
}
