import { describe, expect, it } from 'vitest';
import { pollEndedAt, pollStatusAt, votePercent, voteRequest } from './polls';

// The listing polls' shared rules: where a poll stands on the server's clock, the exact display share, and the vote
// call's fields (the server enforces them, the client sends them).

describe('listing polls', () => {
  const poll = { opens_at: 1_000, closes_at: 5_000, closed_at: null };

  it('is upcoming before it opens, open until it closes, closed from its closing time', () => {
    expect(pollStatusAt(poll, 999)).toBe('upcoming');
    expect(pollStatusAt(poll, 1_000)).toBe('open');
    expect(pollStatusAt(poll, 4_999)).toBe('open');
    expect(pollStatusAt(poll, 5_000)).toBe('closed');
    expect(pollEndedAt(poll)).toBe(5_000);
  });

  it('is closed from the moment an operator closed it early', () => {
    const early = { ...poll, closed_at: 3_000 };
    expect(pollStatusAt(early, 2_999)).toBe('open');
    expect(pollStatusAt(early, 3_000)).toBe('closed');
    expect(pollEndedAt(early)).toBe(3_000);
  });

  it('shows shares with one decimal, cut, from integers', () => {
    expect(votePercent(1, 3)).toBe('33.3');
    expect(votePercent(2, 3)).toBe('66.6');
    expect(votePercent(3, 3)).toBe('100.0');
    expect(votePercent(1, 8)).toBe('12.5');
    expect(votePercent(1, 1_000_000)).toBe('0.0');
    expect(votePercent(0, 0)).toBe('0.0');
    expect(votePercent(5, 0)).toBe('0.0');
    // Large tallies stay exact (no float division).
    expect(votePercent(2 ** 52, 2 ** 53 - 1)).toBe('50.0');
    expect(votePercent(Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER)).toBe('99.9');
  });

  it('takes a poll id and an option id as record ids', () => {
    expect(voteRequest.parse({ poll_id: '3', option_id: ' 12 ' })).toEqual({ poll_id: 3, option_id: 12 });
    const issue = (input: object) => voteRequest.safeParse(input).error?.issues[0];
    expect(issue({ poll_id: '0', option_id: '1' })).toMatchObject({ message: 'invalidInput', path: ['poll_id'] });
    expect(issue({ poll_id: '1', option_id: '1.5' })).toMatchObject({ message: 'invalidInput', path: ['option_id'] });
    expect(issue({ poll_id: '1' })).toMatchObject({ message: 'invalidInput', path: ['option_id'] });
  });
});
