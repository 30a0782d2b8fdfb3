import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Poll, PollList } from '../../protocol/polls';
import { approveVerification } from '../../server/domains/identity';
import { addSamplePoll, closePoll, createPoll, PollInputError } from '../../server/domains/polls';
import { runOps } from '../../server/ops/cli';
import { translate } from '../../server/platform/i18n/messages';
import { apiChecks } from './api-checks';
import { appPerSuite, DATABASES, type TestApp, uniqueEmail } from './harness';

/**
 * Listing polls over HTTP on every database: anyone reads the open polls and recent results with their tallies; a
 * verified user votes once per poll and the vote is final (parallel submits count once, the database refuses edits);
 * unverified users, closed or not yet open polls, unknown polls and options are refused in the user's language and
 * change nothing; junk never reaches a 5xx. Operators open and close polls with audited commands.
 */
describe.each(DATABASES)('listing polls on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });
  const { ok, refused } = apiChecks(() => t);
  const action = { operator: 'it-operator' };
  const DAY = 86_400_000;
  const COINS = [
    { symbol: 'ATOM', name: 'Cosmos' },
    { symbol: 'NEAR', name: 'NEAR Protocol' },
    { symbol: 'ARB', name: 'Arbitrum' },
  ];

  async function verifiedUser() {
    const session = await t.registerByEmail(uniqueEmail('voter'));
    const submitted = await ok(
      'user/real_name',
      { country: 'DE', name: 'Test Voter', id_number: 'V0000001', address: 'Street 1', consent: '1' },
      session.token,
    );
    const review = await approveVerification(t.db, submitted.id, { operator: 'test' });
    if (!review.ok) throw new Error(review.problem);
    return session;
  }

  const openPoll = (days = 7, options = COINS) =>
    createPoll(t.db, { closesInDays: days, options }, { ...action, now: t.clock.now() });
  const pollOf = (list: PollList, id: number): Poll => {
    const found = list.polls.find((p) => p.id === id);
    if (!found) throw new Error(`poll ${id} not listed`);
    return found;
  };
  const optionId = (poll: Poll, symbol: string) => poll.options.find((o) => o.symbol === symbol)?.id ?? 0;
  const voteCount = async (pollId: number) =>
    Number(
      (await sql<{ n: number | string }>`select count(*) as n from poll_votes where poll_id = ${pollId}`.execute(t.db))
        .rows[0]?.n,
    );
  const auditActions = async () =>
    (
      await t.db
        .selectFrom('ops_audit')
        .select(['action', 'subject_id'])
        .where('subject_type', '=', 'poll')
        .orderBy('id')
        .execute()
    ).map((r) => `${r.action} ${r.subject_id}`);

  it('shows open polls with their options and zero tallies to guests, without a voter', async () => {
    const id = await openPoll();
    const list = await ok('vote/list', {});
    expect(list.voter).toBeNull();
    expect(list.server_time).toBe(t.clock.now());
    const poll = pollOf(list, id);
    expect(poll).toMatchObject({ kind: 'next_listing', status: 'open', total_votes: 0, my_option_id: null });
    expect(poll.closes_at - poll.opens_at).toBe(7 * DAY);
    expect(poll.options.map((o) => [o.symbol, o.name, o.votes])).toEqual([
      ['ATOM', 'Cosmos', 0],
      ['NEAR', 'NEAR Protocol', 0],
      ['ARB', 'Arbitrum', 0],
    ]);
    // A dead token reads like a guest on this public call.
    const dead = await t.call('vote/list', {}, { token: 'not-a-token' });
    expect(dead.body).toMatchObject({ type: 'ok', data: { voter: null } });
  });

  it('refuses an unverified user with SPEC 8’s prompt in their language, counting nothing', async () => {
    const id = await openPoll();
    const poll = pollOf(await ok('vote/list', {}), id);
    const user = await t.registerByEmail(uniqueEmail('unverified'));
    expect((await ok('vote/list', {}, user.token)).voter).toEqual({ verified: false });
    const fields = { poll_id: String(id), option_id: String(optionId(poll, 'NEAR')) };
    await refused('vote/set', fields, user.token, 'voteVerifyRequired');
    const de = await t.call('vote/set', fields, { token: user.token, lang: 'de' });
    expect(de.body).toMatchObject({ type: 'error', message: translate('de', 'voteVerifyRequired') });
    expect(de.body.message).toBe('Konto nicht verifiziert – jetzt zur Verifizierung?');
    // Pending verification is not verified either.
    const pending = await t.registerByEmail(uniqueEmail('pending'));
    await ok(
      'user/real_name',
      { country: 'DE', name: 'Pending Voter', id_number: 'P0000001', address: 'Street 2', consent: '1' },
      pending.token,
    );
    await refused('vote/set', fields, pending.token, 'voteVerifyRequired');
    expect(await voteCount(id)).toBe(0);
  });

  it('counts a verified user’s vote once, shows it as theirs, and refuses a second one', async () => {
    const id = await openPoll();
    const poll = pollOf(await ok('vote/list', {}), id);
    const user = await verifiedUser();
    expect((await ok('vote/list', {}, user.token)).voter).toEqual({ verified: true });
    const near = optionId(poll, 'NEAR');
    const voted = await ok('vote/set', { poll_id: String(id), option_id: String(near) }, user.token);
    expect(voted.poll).toMatchObject({ id, total_votes: 1, my_option_id: near, status: 'open' });
    expect(voted.poll.options.find((o) => o.id === near)?.votes).toBe(1);
    // Final: neither the same option nor another counts again.
    await refused('vote/set', { poll_id: String(id), option_id: String(near) }, user.token, 'pollAlreadyVoted');
    const atom = optionId(poll, 'ATOM');
    await refused('vote/set', { poll_id: String(id), option_id: String(atom) }, user.token, 'pollAlreadyVoted');
    // The caller sees their own vote; a guest and another user see the tally only.
    expect(pollOf(await ok('vote/list', {}, user.token), id).my_option_id).toBe(near);
    expect(pollOf(await ok('vote/list', {}), id)).toMatchObject({ total_votes: 1, my_option_id: null });
    const other = await verifiedUser();
    expect(pollOf(await ok('vote/list', {}, other.token), id).my_option_id).toBeNull();
    expect(await voteCount(id)).toBe(1);
  });

  it('counts parallel submits of one user once, and every user once', async () => {
    const id = await openPoll();
    const poll = pollOf(await ok('vote/list', {}), id);
    const [a, b, c] = await Promise.all([verifiedUser(), verifiedUser(), verifiedUser()]);
    if (!a || !b || !c) throw new Error('users');
    const submits = poll.options.flatMap((o) =>
      [a, b, c].flatMap((u) =>
        [1, 2, 3].map(() => t.call('vote/set', { poll_id: String(id), option_id: String(o.id) }, { token: u.token })),
      ),
    );
    const answers = await Promise.all(submits);
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const accepted = answers.filter((r) => r.body.type === 'ok');
    expect(accepted).toHaveLength(3);
    for (const r of answers.filter((x) => x.body.type !== 'ok')) {
      expect(r.body.message).toBe(translate('en', 'pollAlreadyVoted'));
    }
    expect(await voteCount(id)).toBe(3);
    const after = pollOf(await ok('vote/list', {}), id);
    expect(after.total_votes).toBe(3);
    expect(after.options.reduce((sum, o) => sum + o.votes, 0)).toBe(3);
  });

  it('adds up the tallies per option', async () => {
    const id = await openPoll();
    const poll = pollOf(await ok('vote/list', {}), id);
    const picks = ['ARB', 'ATOM', 'ARB', 'ARB', 'NEAR', 'ATOM'];
    for (const symbol of picks) {
      const user = await verifiedUser();
      await ok('vote/set', { poll_id: String(id), option_id: String(optionId(poll, symbol)) }, user.token);
    }
    const after = pollOf(await ok('vote/list', {}), id);
    expect(after.total_votes).toBe(6);
    expect(Object.fromEntries(after.options.map((o) => [o.symbol, o.votes]))).toEqual({ ATOM: 2, NEAR: 1, ARB: 3 });
  });

  it('refuses votes after the closing time and after an operator’s early close, keeping the results listed', async () => {
    const user = await verifiedUser();
    const timed = await openPoll(1);
    const early = await openPoll(30);
    const list = await ok('vote/list', {});
    const voteIn = (id: number, symbol = 'ARB') => ({
      poll_id: String(id),
      option_id: String(optionId(pollOf(list, id), symbol)),
    });
    const voter = await verifiedUser();
    await ok('vote/set', voteIn(early), voter.token);

    const closed = await closePoll(t.db, early, { ...action, now: t.clock.now() });
    expect(closed).toMatchObject({ status: 'closed', total_votes: 1, closed_at: t.clock.now() });
    await refused('vote/set', voteIn(early), user.token, 'pollClosed', 'poll_id');
    await expect(closePoll(t.db, early, { ...action, now: t.clock.now() })).rejects.toMatchObject({
      key: 'pollClosed',
    });

    t.clock.advance(DAY);
    await refused('vote/set', voteIn(timed), user.token, 'pollClosed', 'poll_id');
    const later = await ok('vote/list', {}, voter.token);
    expect(pollOf(later, timed).status).toBe('closed');
    expect(pollOf(later, early)).toMatchObject({ status: 'closed', total_votes: 1 });
    expect(pollOf(later, early).my_option_id).toBe(optionId(pollOf(list, early), 'ARB'));
    // Open polls come before results.
    const statuses = later.polls.map((p) => p.status);
    expect(statuses.indexOf('closed')).toBeGreaterThan(statuses.lastIndexOf('open'));
    // Results stay listed for 30 days after closing, then drop off.
    t.clock.advance(31 * DAY);
    const ids = (await ok('vote/list', {})).polls.map((p) => p.id);
    expect(ids).not.toContain(timed);
    expect(ids).not.toContain(early);
    expect(await voteCount(timed)).toBe(0);
  });

  it('refuses a poll that has not opened yet', async () => {
    const id = await createPoll(t.db, { closesInDays: 2, options: COINS }, { ...action, now: t.clock.now() + DAY });
    const poll = pollOf(await ok('vote/list', {}), id);
    expect(poll.status).toBe('upcoming');
    const user = await verifiedUser();
    await refused(
      'vote/set',
      { poll_id: String(id), option_id: String(optionId(poll, 'ATOM')) },
      user.token,
      'pollNotOpen',
    );
    expect(await voteCount(id)).toBe(0);
  });

  it('refuses unknown polls, options of another poll and junk with a clear envelope, never a 5xx', async () => {
    const user = await verifiedUser();
    const first = await openPoll();
    const second = await openPoll(7, [
      { symbol: 'SUI', name: 'Sui' },
      { symbol: 'APT', name: 'Aptos' },
    ]);
    const list = await ok('vote/list', {});
    const foreign = optionId(pollOf(list, second), 'SUI');
    await refused('vote/set', { poll_id: '999999', option_id: String(foreign) }, user.token, 'pollNotFound', 'poll_id');
    // Ids beyond an `integer` column are refused at the edge, before any query.
    await refused('vote/set', { poll_id: '9999999999', option_id: '1' }, user.token, 'invalidInput', 'poll_id');
    await refused(
      'vote/set',
      { poll_id: String(first), option_id: '9999999999' },
      user.token,
      'invalidInput',
      'option_id',
    );
    await refused(
      'vote/set',
      { poll_id: String(first), option_id: String(foreign) },
      user.token,
      'pollOptionNotFound',
      'option_id',
    );
    const junk: Record<string, string>[] = [
      {},
      { poll_id: String(first) },
      { poll_id: 'abc', option_id: '1' },
      { poll_id: '-1', option_id: '1' },
      { poll_id: '1e3', option_id: '1' },
      { poll_id: '99999999999999999999', option_id: '1' },
      { poll_id: String(first), option_id: '0' },
      { poll_id: String(first), option_id: "1' or 1=1 --" },
      { poll_id: String(first), option_id: 'x'.repeat(5000) },
    ];
    for (const fields of junk) {
      const r = await t.call('vote/set', fields, { token: user.token, lang: 'de' });
      expect(r.status, JSON.stringify(fields)).toBeLessThan(500);
      expect(r.body.type).toBe('error');
      expect(r.body.message).toBe(translate('de', 'invalidInput'));
    }
    // A JSON number is refused as such (its exact text is lost), in the envelope.
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/vote/set',
      headers: { authorization: user.token, lang: 'en', 'content-type': 'application/json' },
      payload: JSON.stringify({ poll_id: first, option_id: foreign }),
    });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({ type: 'error', message: translate('en', 'jsonNumberRefused') });
    // Without a session: SPEC 4's type 999.
    const guest = await t.call('vote/set', { poll_id: String(first), option_id: String(foreign) });
    expect(guest.body.type).toBe(999);
    expect(await voteCount(first)).toBe(0);
    expect(await voteCount(second)).toBe(0);
  });

  it('keeps votes final in the database itself', async () => {
    const id = await openPoll();
    const poll = pollOf(await ok('vote/list', {}), id);
    const user = await verifiedUser();
    await ok('vote/set', { poll_id: String(id), option_id: String(optionId(poll, 'ATOM')) }, user.token);
    await expect(
      sql`update poll_votes set option_id = option_id where poll_id = ${id}`.execute(t.db),
    ).rejects.toThrow();
    await expect(sql`delete from poll_votes where poll_id = ${id}`.execute(t.db)).rejects.toThrow();
    expect(await voteCount(id)).toBe(1);
  });

  it('lets operators open, list and close polls with audited commands, refusing bad input', async () => {
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    const before = await auditActions();
    expect(await runOps(['polls', 'add', '10', 'KAS:Kaspa', 'TIA:Celestia', 'SEI:Sei Network'], t.db, out)).toBe(0);
    const id = Number(/poll (\d+) is open/.exec(lines.join('\n'))?.[1]);
    expect(id).toBeGreaterThan(0);
    lines.length = 0;
    expect(await runOps(['polls', 'list'], t.db, out)).toBe(0);
    expect(lines.join('\n')).toMatch(new RegExp(`poll ${id}\\s+open`));
    expect(lines.join('\n')).toContain('SEI        Sei Network');

    const refusals: [string[], number][] = [
      [['polls', 'add', '10', 'KAS:Kaspa'], 1], // one option
      [['polls', 'add', '0', 'KAS:Kaspa', 'TIA:Celestia'], 1], // no days
      [['polls', 'add', '91', 'KAS:Kaspa', 'TIA:Celestia'], 1], // too long
      [['polls', 'add', '5', 'KAS:Kaspa', 'kas:Again'], 1], // twice
      [['polls', 'add', '5', 'BTC:Bitcoin', 'TIA:Celestia'], 1], // on the market already
      [['polls', 'add', '5', 'K-S:Bad', 'TIA:Celestia'], 1], // not a symbol
      [['polls', 'add', '5', 'KAS:', 'TIA:Celestia'], 1], // no name
      [['polls', 'add', 'soon', 'KAS:Kaspa', 'TIA:Celestia'], 2],
      [['polls', 'add', '5', 'KASKaspa', 'TIA:Celestia'], 2],
      [['polls', 'close', 'x'], 2],
      [['polls', 'close', '999999'], 1],
      [['polls', 'vote'], 2],
    ];
    for (const [args, code] of refusals) expect(await runOps(args, t.db, () => undefined), args.join(' ')).toBe(code);
    await expect(
      createPoll(t.db, { closesInDays: 3, options: [{ symbol: 'ETH', name: 'Ethereum' }, ...COINS] }, action),
    ).rejects.toBeInstanceOf(PollInputError);

    lines.length = 0;
    expect(await runOps(['polls', 'close', String(id)], t.db, out)).toBe(0);
    expect(lines[0]).toBe(`poll ${id} closed with 0 votes`);
    expect(await runOps(['polls', 'close', String(id)], t.db, () => undefined)).toBe(1);
    expect((await auditActions()).slice(before.length)).toEqual([`poll.create ${id}`, `poll.close ${id}`]);
  });

  it('adds the demo poll only on an install without polls', async () => {
    expect(await addSamplePoll(t.db, action)).toBeNull();
  });
});
