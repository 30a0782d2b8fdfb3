// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changePercentText } from './decimal-change';
import {
  compareDecimalText,
  isDecimalText,
  multiplyDecimalText,
  negateText,
  signOf,
  toDecimalText,
  truncateText,
} from './decimal-text';
import { Decimal, toDecimal, truncatedString } from './money';

/** decimal.js (through core/money) is the oracle here; the module under test never loads it. */
const Wide = Decimal.clone({ precision: 1000 });

/** Decimal text of every shape: signs, leading and trailing zeros, '.5' and '5.', exponents either way. */
const digitsOf = (alphabet: string, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet.split('')), maxLength });
const decimalTextOf = (alphabet: string) =>
  fc
    .record({
      sign: fc.constantFrom('', '-', '+'),
      int: digitsOf(alphabet, 30),
      point: fc.boolean(),
      frac: digitsOf(alphabet, 30),
      exp: fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.nat(40)), { nil: null }),
    })
    .filter(({ int, frac }) => int.length + frac.length > 0)
    .map(
      ({ sign, int, point, frac, exp }) =>
        `${sign}${int}${point || frac ? `.${frac}` : ''}${exp ? `${exp[0]}${exp[1]}${exp[2]}` : ''}`,
    );
const decimalText = decimalTextOf('0123456789');
/** Few distinct digits, so that pairs often tie or differ only far to the right. */
const narrowText = decimalTextOf('019');

const oracleSign = (text: string): number => new Decimal(text).comparedTo(0) || 0;

describe('decimal text, checked against decimal.js', () => {
  it('reads what decimal.js reads as a finite decimal, minus its hex, binary, octal and "_" forms', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(isDecimalText(text)).toBe(true);
        expect(toDecimalText(text)).toBe(new Decimal(text).toString());
      }),
    );
    const decimalJsReads = (text: string): boolean => {
      try {
        return new Decimal(text).isFinite();
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.eE+-_x '.split('')), maxLength: 12 }), (text) => {
        expect(isDecimalText(text)).toBe(decimalJsReads(text) && !/[_x]/.test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('gives what toDecimal(raw)?.toString() gives for strings, numbers and Decimals', () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(toDecimalText(n)).toBe(toDecimal(n)?.toString() ?? null);
      }),
    );
    fc.assert(
      fc.property(decimalText, fc.constantFrom('', ' ', '\t', '\n'), (text, space) => {
        expect(toDecimalText(`${space}${text}${space}`)).toBe(toDecimal(`${space}${text}${space}`)?.toString() ?? null);
        expect(toDecimalText(new Decimal(text))).toBe(new Decimal(text).toString());
      }),
    );
  });

  it('knows the sign', () => {
    fc.assert(
      fc.property(narrowText, (text) => {
        expect(signOf(text)).toBe(oracleSign(text));
      }),
    );
  });

  it('negates as Decimal#neg does', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(negateText(text)).toBe(new Decimal(text).neg().toString());
      }),
    );
  });

  it('compares exactly, at any length', () => {
    const same = (a: string, b: string) => {
      expect(compareDecimalText(a, b)).toBe(new Decimal(a).comparedTo(b) || 0);
    };
    fc.assert(fc.property(decimalText, decimalText, same));
    fc.assert(fc.property(narrowText, narrowText, same), { numRuns: 5000 });
    // The same value written another way compares equal; appending a nonzero digit moves it away from zero.
    fc.assert(
      fc.property(narrowText, (a) => {
        const plain = toDecimalText(a) ?? '';
        expect(compareDecimalText(a, plain)).toBe(0);
        expect(compareDecimalText(`${plain}${plain.includes('.') ? '' : '.'}0001`, plain)).toBe(
          signOf(plain) < 0 ? -1 : 1,
        );
      }),
    );
  });

  it('cuts as truncatedString does', () => {
    fc.assert(
      fc.property(decimalText, fc.nat(12), (text, digits) => {
        expect(truncateText(text, digits)).toBe(truncatedString(new Decimal(text), digits));
      }),
    );
  });

  it('tells the change in percent, cut, as decimal.js would', () => {
    const Cut = Decimal.clone({ precision: 1000, rounding: Decimal.ROUND_DOWN });
    fc.assert(
      fc.property(decimalText, decimalText, fc.nat(8), (from, to, digits) => {
        const want = new Cut(from).isZero()
          ? null
          : truncatedString(new Cut(to).minus(from).div(from).times(100), digits);
        expect(changePercentText(from, to, digits)).toBe(want);
      }),
    );
  });

  it('multiplies exactly', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(multiplyDecimalText(a, b)).toBe(new Wide(a).mul(b).toString());
      }),
    );
  });
});

describe('decimal text, by example', () => {
  it('turns the sign of a value, exactly, and leaves zero unsigned', () => {
    expect(negateText('0.300000')).toBe('-0.3');
    expect(negateText('-2.396968')).toBe('2.396968');
    expect(negateText('0.000000')).toBe('0');
    expect(negateText('-0')).toBe('0');
    expect(negateText('+1e-7')).toBe('-0.0000001');
    expect(() => negateText('fee')).toThrow(RangeError);
  });

  it('accepts decimal strings and nothing else', () => {
    for (const text of [
      '0',
      '-0',
      '+5',
      '.5',
      '5.',
      '007.50',
      '1e-7',
      '1E+3',
      '-12.5e2',
      '123456789012345678901234567890.5',
    ]) {
      expect(isDecimalText(text), text).toBe(true);
    }
    for (const text of [
      '',
      ' 1',
      '1 ',
      '.',
      '-',
      '+',
      '1,5',
      '1.2.3',
      '--1',
      '1e',
      'e5',
      '1e5.5',
      '0x10',
      '0b1',
      '0o7',
    ]) {
      expect(isDecimalText(text), JSON.stringify(text)).toBe(false);
    }
    for (const text of ['1_000', 'NaN', 'Infinity', '-Infinity', '1e9000000000000001']) {
      expect(isDecimalText(text), text).toBe(false);
    }
    // Below decimal.js's smallest exponent a value is zero, as decimal.js reads it.
    expect(toDecimalText('1e-9000000000000001')).toBe('0');
  });

  it('gives the plain form', () => {
    expect(toDecimalText(' 0.10 ')).toBe('0.1');
    expect(toDecimalText('-0.000')).toBe('0');
    expect(toDecimalText('1e-7')).toBe('0.0000001');
    expect(toDecimalText('+1.5E3')).toBe('1500');
    expect(toDecimalText(1e21)).toBe('1000000000000000000000');
    expect(toDecimalText(0.1)).toBe('0.1');
    expect(toDecimalText(Number.NaN)).toBeNull();
    expect(toDecimalText(null)).toBeNull();
    expect(toDecimalText(new Decimal('0.1').plus('0.2'))).toBe('0.3');
  });

  it('signs, compares, cuts and multiplies beyond float precision', () => {
    expect(signOf('-0.00')).toBe(0);
    expect(signOf('-0.001')).toBe(-1);
    expect(compareDecimalText('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareDecimalText('0.1000000000000000000001', '0.1')).toBe(1);
    expect(compareDecimalText('-0.1000000000000000000001', '-0.1')).toBe(-1);
    expect(compareDecimalText('1.50', '1.5')).toBe(0);
    expect(compareDecimalText('-0', '0')).toBe(0);
    expect(compareDecimalText('-2', '1')).toBe(-1);
    expect(compareDecimalText('99', '100')).toBe(-1);
    expect(truncateText('1.23456', 4)).toBe('1.2345');
    expect(truncateText('-1.99999', 2)).toBe('-1.99');
    expect(truncateText('-0.00009', 4)).toBe('0.0000');
    expect(truncateText('5.9', 0)).toBe('5');
    expect(truncateText('12345678901234567890.123456789', 3)).toBe('12345678901234567890.123');
    expect(multiplyDecimalText('12.5', '0.2')).toBe('2.5');
    expect(multiplyDecimalText('-0.1', '0.1')).toBe('-0.01');
    expect(multiplyDecimalText('0', '-3')).toBe('0');
    expect(multiplyDecimalText('123456789.123456789', '987654321.987654321')).toBe(
      '121932631356500531.347203169112635269',
    );
  });

  it("tells a bar's change in percent", () => {
    expect(changePercentText('64000', '64640', 2)).toBe('1.00');
    expect(changePercentText('3', '2', 2)).toBe('-33.33');
    expect(changePercentText('3', '2.99999', 2)).toBe('0.00');
    expect(changePercentText('0', '5', 2)).toBeNull();
    expect(() => changePercentText('1', 'x', 2)).toThrow(RangeError);
  });

  it('refuses what is not decimal text', () => {
    expect(() => signOf('abc')).toThrow(RangeError);
    expect(() => compareDecimalText('1', '1,5')).toThrow(RangeError);
    expect(() => multiplyDecimalText('NaN', '1')).toThrow(RangeError);
    expect(() => truncateText('x', 2)).toThrow(RangeError);
    expect(() => truncateText('1.5', -1)).toThrow(RangeError);
    expect(() => truncateText('1.5', 1.5)).toThrow(RangeError);
  });
});
