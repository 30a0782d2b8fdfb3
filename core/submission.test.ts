import { describe, expect, it } from 'vitest';
import { createSubmission } from './submission';

describe('createSubmission', () => {
  it('keeps the id while the same submission is retried, and makes a new one when it changes or was accepted', () => {
    let n = 0;
    const s = createSubmission(() => `id-${++n}`);
    expect(s.requestId({ amount: '1' })).toBe('id-1');
    expect(s.requestId({ amount: '1' })).toBe('id-1');
    expect(s.requestId({ amount: '2' })).toBe('id-2');
    expect(s.requestId({ amount: '1' })).toBe('id-3');
    s.accepted();
    expect(s.requestId({ amount: '1' })).toBe('id-4');
  });

  it('makes v4 UUIDs by default', () => {
    expect(createSubmission().requestId({})).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
