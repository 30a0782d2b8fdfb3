import { describe, expect, it } from 'vitest';
import { maskIdNumber, maskName } from './service';

describe('masking of submitted identity fields', () => {
  it('keeps the first letter of each name part (at most eight stars per part)', () => {
    expect(maskName('Max Mustermann')).toBe('M** M********');
    expect(maskName('Åsa  Öberg')).toBe('Å**  Ö****');
    expect(maskName('李')).toBe('李');
  });

  it('keeps the last four characters of an ID number', () => {
    expect(maskIdNumber('L01X00T47')).toBe('*****0T47');
    expect(maskIdNumber('ABCD')).toBe('***D');
    expect(maskIdNumber('X'.repeat(30))).toBe(`${'*'.repeat(12)}XXXX`);
  });
});
