import { describe, expect, it } from 'vitest';
import { formFields } from './calls';
import { BODY_DEPTH_MAX } from './nesting';

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

  it('refuses a body nested deeper than BODY_DEPTH_MAX, however deep, without exhausting the stack', () => {
    const nested = (depth: number) => {
      let value: unknown = 'x';
      for (let i = 1; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
      return { a: value };
    };
    expect(formFields(nested(BODY_DEPTH_MAX))).toEqual({ fields: expect.any(Object) });
    for (const depth of [BODY_DEPTH_MAX + 1, 10_000, 1_000_000]) {
      expect(formFields(nested(depth))).toEqual({ problem: { key: 'bodyTooDeep' } });
    }
  });

  it('refuses what is no object', () => {
    expect(formFields(['a'])).toEqual({ problem: { key: 'bodyMalformed' } });
  });
});
