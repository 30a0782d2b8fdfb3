import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { firstIssue, formFields } from './calls';
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

describe('firstIssue', () => {
  const failed = (schema: z.ZodMiniType, value: unknown) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) throw new Error('expected a refusal');
    return parsed.error;
  };

  it("names the errors table's key a check carries, and the field", () => {
    const schema = z.object({ email: z.string().check(z.minLength(1, { error: 'emailRequired' })) });
    expect(firstIssue(failed(schema, { email: '' }))).toEqual({ key: 'emailRequired', field: 'email' });
  });

  it("reads zod's own text (a check without a key) as invalidInput", () => {
    const schema = z.object({ qty: z.string().check(z.maxLength(2)) });
    const error = failed(schema, { qty: 'abc' });
    expect(error.issues[0]?.message).not.toBe('invalidInput');
    expect(firstIssue(error)).toEqual({ key: 'invalidInput', field: 'qty' });
  });
});
