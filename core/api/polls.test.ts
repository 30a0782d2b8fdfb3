import { describe, expect, it, vi } from 'vitest';
import { castVote, fetchPolls } from './polls';
import { failAnswer, fakeApiServer, okAnswer } from './testing';

// The envelope rules are core/api/client.test.ts's; here only the polls': the paths and methods, the fields sent, the
// answers parsed by the contract, and a refused vote handed back (not toasted) with its message and field.

const server = fakeApiServer();
const poll = {
  id: 2,
  kind: 'next_listing',
  status: 'open',
  opens_at: 1,
  closes_at: 2,
  closed_at: null,
  total_votes: 1,
  options: [
    { id: 5, symbol: 'ATOM', name: 'Cosmos', votes: 1 },
    { id: 6, symbol: 'NEAR', name: 'NEAR Protocol', votes: 0 },
  ],
  my_option_id: 5,
};

describe('poll calls', () => {
  it('reads the polls and sends a vote as two record ids', async () => {
    server.answer = () => okAnswer({ polls: [poll], voter: { verified: true }, server_time: 3 });
    expect(await fetchPolls()).toEqual({ polls: [poll], voter: { verified: true }, server_time: 3 });
    server.answer = () => okAnswer({ poll });
    expect(await castVote(2, 5)).toEqual({ ok: true, poll });
    expect(server.sent).toEqual([
      { path: 'vote/list', method: 'GET', form: {} },
      { path: 'vote/set', method: 'POST', form: { poll_id: '2', option_id: '5' } },
    ]);
  });

  it('hands a refusal back with its message and field', async () => {
    server.answer = () => failAnswer('This poll has closed', 'poll_id', 'votePollClosed');
    expect(await castVote(2, 5)).toEqual({
      ok: false,
      message: 'This poll has closed',
      field: 'poll_id',
      reason: 'votePollClosed',
      answered: true,
    });
    // An answer that breaks the contract is a failure, not a poll (the client warns about it).
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.answer = () => okAnswer({ poll: { ...poll, status: 'paused' } });
    expect((await castVote(2, 5)).ok).toBe(false);
    server.answer = () => okAnswer({ polls: 'none' });
    expect(await fetchPolls()).toBe(false);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
