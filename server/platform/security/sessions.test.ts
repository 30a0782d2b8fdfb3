import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertUser, openMemoryDatabase } from '../../testing';
import type { DatabaseHandle } from '../db/connect';
import { SESSION_TTL_MS, Sessions, tokenFromHeader } from './sessions';

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
});
