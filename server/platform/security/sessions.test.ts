import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertUser, openMemoryDatabase } from '../../testing';
import type { DatabaseHandle } from '../db/connect';
import { LAST_USED_STEP_MS, SESSION_TTL_MS, Sessions, tokenFromHeader, USER_AGENT_MAX } from './sessions';

describe('sessions', () => {
  let handle: DatabaseHandle;
  let clock: number;
  let sessions: Sessions;
  let userId: number;
  beforeEach(async () => {
    handle = await openMemoryDatabase();
    clock = 1_000;
    sessions = new Sessions(handle.db, () => clock);
    userId = await insertUser(handle);
  });
  afterEach(() => handle.db.destroy());

  it('reads plain and Bearer tokens; empty, null and undefined mean none', () => {
    expect(tokenFromHeader('abc')).toBe('abc');
    expect(tokenFromHeader('Bearer abc')).toBe('abc');
    expect(tokenFromHeader('bearer   abc ')).toBe('abc');
    for (const none of [undefined, '', '  ', 'Bearer ', 'null', 'undefined'])
      expect(tokenFromHeader(none)).toBeUndefined();
  });

  it('issues 256-bit base64url tokens and stores only their hash', async () => {
    const token = await sessions.create(userId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await handle.db.selectFrom('sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]?.expires_at).toBe(clock + SESSION_TTL_MS);
  });

  it('resolves live sessions; unknown, revoked and expired ones are invalid', async () => {
    const token = await sessions.create(userId);
    const lookup = await sessions.resolve(token);
    expect(lookup).toMatchObject({ state: 'valid', session: { userId } });
    expect(await sessions.resolve(undefined)).toEqual({ state: 'none' });
    expect(await sessions.resolve('nope')).toEqual({ state: 'invalid' });
    expect(await sessions.resolve('x'.repeat(10_000))).toEqual({ state: 'invalid' });

    if (lookup.state !== 'valid') throw new Error('unreachable');
    await sessions.revoke(lookup.session.id);
    expect(await sessions.resolve(token)).toEqual({ state: 'invalid' });

    const later = await sessions.create(userId);
    clock += SESSION_TTL_MS;
    expect(await sessions.resolve(later)).toEqual({ state: 'invalid' });
  });

  it('revokes all sessions, or all but one, and counts the live ones', async () => {
    const tokens = [await sessions.create(userId), await sessions.create(userId), await sessions.create(userId)];
    const keep = await sessions.resolve(tokens[0]);
    if (keep.state !== 'valid') throw new Error('unreachable');
    expect(await sessions.countActive(userId)).toBe(3);
    expect(await sessions.revokeAll(userId, { keep: keep.session.id })).toBe(2);
    expect(await sessions.countActive(userId)).toBe(1);
    expect((await sessions.resolve(tokens[0])).state).toBe('valid');
    expect(await sessions.revokeAll(userId)).toBe(1);
    expect(await sessions.countActive(userId)).toBe(0);
  });

  it('lists the live sessions with their User-Agent, last use at most a minute behind, most recent first', async () => {
    const phone = await sessions.create(userId, undefined, { userAgent: 'phone-agent' });
    clock += 10;
    await sessions.create(userId, undefined, { userAgent: 'x'.repeat(USER_AGENT_MAX + 50) });
    const ended = await sessions.resolve(await sessions.create(userId));
    if (ended.state !== 'valid') throw new Error('unreachable');
    await sessions.revoke(ended.session.id);
    const other = await insertUser(handle, { email: 'other@example.com' });
    await sessions.create(other);

    let list = await sessions.listLive(userId);
    expect(list.map((l) => [l.userAgent?.length, l.createdAt, l.lastUsedAt])).toEqual([
      [USER_AGENT_MAX, 1_010, 1_010],
      ['phone-agent'.length, 1_000, 1_000],
    ]);

    // A request within the minute writes nothing; one after it moves "last used" to its time.
    clock += LAST_USED_STEP_MS - 11;
    await sessions.resolve(phone);
    expect((await sessions.listLive(userId))[1]?.lastUsedAt).toBe(1_000);
    clock += 1;
    await sessions.resolve(phone);
    list = await sessions.listLive(userId);
    expect(list[0]).toMatchObject({ userAgent: 'phone-agent', lastUsedAt: 1_000 + LAST_USED_STEP_MS });
  });

  it('ends a session only for its own user, once, and never an expired one', async () => {
    const mine = await sessions.resolve(await sessions.create(userId));
    const other = await insertUser(handle, { email: 'other@example.com' });
    const theirs = await sessions.resolve(await sessions.create(other));
    if (mine.state !== 'valid' || theirs.state !== 'valid') throw new Error('unreachable');
    expect(await sessions.endFromList(userId, [theirs.session.id])).toBe(0);
    expect(await sessions.countActive(other)).toBe(1);
    expect(await sessions.endFromList(userId, [mine.session.id, theirs.session.id])).toBe(1);
    expect(await sessions.endFromList(userId, [mine.session.id])).toBe(0);
    const ended = await handle.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', mine.session.id)
      .executeTakeFirst();
    expect(ended).toMatchObject({ revoked_at: clock, ended_from_list: clock });
    const late = await sessions.resolve(await sessions.create(userId));
    if (late.state !== 'valid') throw new Error('unreachable');
    clock += SESSION_TTL_MS;
    expect(await sessions.endFromList(userId, [late.session.id])).toBe(0);
  });
});
