import { toDecimalText } from './decimal-text';

/*
 * Reading amounts the user typed, in the separators of their language. Apart from core/money.ts (which re-exports
 * parseLocaleAmount) so that an amount field loads no decimal library: reading and canonicalising digits needs none.
 */

interface AmountSymbols {
  decimal: string;
  group: string;
}

const amountSymbolCache = new Map<string, AmountSymbols>();

/**
 * The decimal and group separators of a language, from Intl. 1234567.5 rather than 1234.5: Spanish (CLDR
 * minimumGroupingDigits 2) does not group four digits, so 1234.5 shows no group separator. The number is a fixed
 * probe, not an amount. NFKC as on the input (a no-break space group becomes a plain space).
 */
function amountSymbols(lang: string): AmountSymbols {
  const cached = amountSymbolCache.get(lang);
  if (cached) return cached;
  let decimal = '.';
  let group = ',';
  try {
    for (const part of new Intl.NumberFormat(lang).formatToParts(1234567.5)) {
      if (part.type === 'decimal') decimal = part.value.normalize('NFKC');
      if (part.type === 'group') group = part.value.normalize('NFKC');
    }
  } catch {
    // A tag Intl cannot take: keep the en symbols.
  }
  const found = { decimal, group };
  amountSymbolCache.set(lang, found);
  return found;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What a user typed into an amount field, read with the separators of their language: a canonical decimal string
 * ('1000.5': '.' decimal, no grouping, no leading or trailing zeros) or null when it is not a number. Range, sign
 * and scale rules are the caller's (`amountProblem`); a leading '-' or '+' is read, not judged.
 *
 * The rules, with D the language's decimal separator and G its group separator (de, es: D ',' G '.'; en, ja, ko,
 * th, zh: D '.' G ','):
 * - D at most once; what follows it is digits only.
 * - G only in valid positions: before D (or in the whole number when there is no D), in groups of exactly three
 *   digits after a first group of one to three that does not start with 0 ('1.000.000' in de, '12,345' in en).
 *   Anything else with G in it is invalid: '1.00,5' in de, '1,00.5' in en.
 * - The other of '.' and ',' is accepted as the decimal point when that is unambiguous, because a phone keyboard
 *   may offer only one of them (iOS shows the device region's separator, not the app language's): a single one,
 *   with no D in the text, that cannot be a group separator. So in de '1.5', '0.001' and '1.0005' are decimals, but
 *   '1.000' and '12.345' are one thousand and twelve thousand (valid grouping wins); in en '1,5' is one and a half
 *   and '1,000' is one thousand. Both separators mixed the foreign way round ('1,000.5' in de) are invalid.
 *   (So while a German types '1.5', '1.50', '1.500' the value reads 1.5, 1.5, 1500: typing the comma avoids that.)
 * - Full-width digits and separators (Japanese, Chinese input methods) and Thai digits are read as digits; spaces
 *   around the text are ignored, spaces inside it are invalid unless the language groups with a space.
 */
export function parseLocaleAmount(text: string, lang: string): string | null {
  const { decimal, group } = amountSymbols(lang);
  const alternative = decimal === ',' ? '.' : ',';
  const normalized = text
    .normalize('NFKC')
    .replace(/[\u0E50-\u0E59]/g, (c) => String((c.codePointAt(0) ?? 0x0e50) - 0x0e50))
    .replace(/\u2212/g, '-')
    .trim();
  const signed = /^([+-]?)(.+)$/.exec(normalized);
  if (!signed) return null;
  const sign = signed[1] === '-' ? '-' : '';
  const body = signed[2] ?? '';

  const grouped = new RegExp(`^[1-9]\\d{0,2}(?:${escapeRe(group)}\\d{3})+$`);
  const plainInt = (s: string) => /^\d*$/.test(s);
  const canonical = (int: string, frac: string): string | null => {
    if (int === '' && frac === '') return null;
    return toDecimalText(`${sign}${int || '0'}.${frac || '0'}`);
  };
  const split = (sep: string): [string, string] | null => {
    const parts = body.split(sep);
    return parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : null;
  };

  if (body.includes(decimal)) {
    const pieces = split(decimal);
    if (!pieces) return null;
    const [int, frac] = pieces;
    if (!plainInt(frac)) return null;
    if (plainInt(int)) return canonical(int, frac);
    return grouped.test(int) ? canonical(int.split(group).join(''), frac) : null;
  }
  if (plainInt(body)) return canonical(body, '');
  if (grouped.test(body)) return canonical(body.split(group).join(''), '');
  // No D, and not a whole number grouped with G: a single '.' or ',' (the one that is not D) as the decimal point.
  const pieces = split(alternative);
  if (!pieces) return null;
  const [int, frac] = pieces;
  return plainInt(int) && plainInt(frac) ? canonical(int, frac) : null;
}
