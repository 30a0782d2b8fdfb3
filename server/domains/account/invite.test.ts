import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import { insertUser, openMemoryDatabase } from '../../testing';
import {
  ensurePlatformInviteCode,
  INVITE_ALPHABET,
  newUserInviteCode,
  platformInviteCode,
  randomInviteCode,
  referrerOf,
  unusedValue,
} from './invite';

describe('invite codes', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await openMemoryDatabase();
  });
  afterEach(() => handle.db.destroy());

  const addUser = (inviteCode: string) => insertUser(handle, { invite_code: inviteCode });

  it('uses an alphabet without look-alike characters', () => {
    expect(INVITE_ALPHABET).not.toMatch(/[01ILO]/);
    for (let i = 0; i < 200; i++) expect(randomInviteCode()).toMatch(new RegExp(`^[${INVITE_ALPHABET}]{8}$`));
  });

  it('creates the platform code once (random), and an operator-given code replaces it', async () => {
    expect(await platformInviteCode(handle.db)).toBeUndefined();
    const first = await ensurePlatformInviteCode(handle.db);
    expect(first).toMatch(/^[A-Z2-9]{8}$/);
    expect(await ensurePlatformInviteCode(handle.db)).toBe(first);
    expect(await ensurePlatformInviteCode(handle.db, ' welcome ')).toBe('WELCOME');
    expect(await ensurePlatformInviteCode(handle.db)).toBe('WELCOME');
  });

  it('resolves user codes to the user, the platform code to null, anything else to inviteInvalid', async () => {
    await ensurePlatformInviteCode(handle.db, 'PLATFORM');
    const id = await addUser('ABCD2345');
    expect(await referrerOf(handle.db, 'abcd2345 ')).toBe(id);
    expect(await referrerOf(handle.db, 'platform')).toBeNull();
    const error = await referrerOf(handle.db, 'NOPE').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BusinessError);
    expect(error).toMatchObject({ key: 'inviteInvalid', field: 'invite_code' });
  });

  it('new user codes avoid taken ones', async () => {
    await ensurePlatformInviteCode(handle.db);
    const code = await newUserInviteCode(handle.db);
    expect(code).not.toBe(await platformInviteCode(handle.db));
    const draws = ['TAKEN', 'TAKEN', 'FREE'];
    expect(
      await unusedValue(
        () => draws.shift() ?? 'X',
        async (v) => v === 'TAKEN',
      ),
    ).toBe('FREE');
    await expect(
      unusedValue(
        () => 'SAME',
        async () => true,
      ),
    ).rejects.toThrow(/no free value/);
  });
});
