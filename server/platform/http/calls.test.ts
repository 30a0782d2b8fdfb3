import { describe, expect, it } from 'vitest';
import { formFields } from './calls';

describe('formFields', () => {
  it('reads strings and booleans as form text', () => {
    expect(formFields({ amount: '1.5', agree: true })).toEqual({ fields: { amount: '1.5', agree: 'true' } });
  });

  it('refuses a JSON number with its path', () => {
    expect(formFields({ items: [{ qty: 1 }] })).toEqual({
      problem: { key: 'jsonNumberRefused', field: 'items.0.qty' },
    });
  });

  it('refuses a NUL character in any text, however deep', () => {
    expect(formFields({ account: 'a\u0000b' })).toEqual({ problem: { key: 'invalidInput', field: 'account' } });
    expect(formFields({ list: ['ok', 'x\u0000'] })).toEqual({ problem: { key: 'invalidInput', field: 'list.1' } });
  });

  it('refuses what is no object', () => {
    expect(formFields(['a'])).toEqual({ problem: { key: 'bodyMalformed' } });
  });
});
