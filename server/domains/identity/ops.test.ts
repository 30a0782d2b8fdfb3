import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runOps } from '../../ops/cli';
import { runAuditCommand } from '../../platform/audit';
import type { DatabaseHandle } from '../../platform/db/connect';
import { insertUser, openMemoryDatabase } from '../../testing';
import { withUploads } from '../uploads';
import { runUploadsCommand } from './ops';
import { withIdentity } from './tables';

describe('ops kyc, uploads and audit commands', () => {
  let handle: DatabaseHandle;
  let lines: string[];
  let userId: number;
  const out = (line: string) => lines.push(line);
  const run = (...args: string[]) => runOps(args, handle.db, out);

  const submit = async (level: 'basic' | 'advanced', fields: Record<string, unknown> = {}) => {
    const row = await withIdentity(handle.db)
      .insertInto('identity_verifications')
      .values({
        user_id: userId,
        level,
        state: 'pending',
        country: level === 'basic' ? 'DE' : null,
        name: level === 'basic' ? 'Erika Mustermann' : null,
        id_number: level === 'basic' ? 'L01X00T47' : null,
        address: level === 'basic' ? 'Heidestraße 17, Köln' : null,
        front_upload_id: null,
        back_upload_id: null,
        hold_upload_id: null,
        reason: null,
        created_at: 1_700_000_000_000,
        reviewed_at: null,
        ...fields,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  beforeEach(async () => {
    handle = await openMemoryDatabase();
    userId = await insertUser(handle, { username: 'erika1234' });
    lines = [];
    process.env.OPS_OPERATOR = 'ops-test';
  });
  afterEach(async () => {
    delete process.env.OPS_OPERATOR;
    await handle.db.destroy();
  });

  it('lists pending verifications unmasked, approves and rejects with a reason, and logs each decision', async () => {
    expect(await run('kyc', 'list')).toBe(0);
    expect(lines).toEqual(['no verifications waiting for review']);
    const basic = await submit('basic');
    lines = [];
    await run('kyc', 'list');
    expect(lines[0]).toMatch(new RegExp(`^#${basic} +basic +user ${userId} \\(erika1234\\)`));
    expect(lines[1]).toContain('Erika Mustermann  ID L01X00T47');

    lines = [];
    expect(await run('kyc', 'approve', String(basic))).toBe(0);
    expect(lines).toEqual([`verification ${basic} (basic, user ${userId}) is now verified`]);
    expect(await run('kyc', 'approve', String(basic))).toBe(1);
    expect(lines.at(-1)).toBe(`verification ${basic} is verified, not pending`);

    const advanced = await submit('advanced');
    expect(await run('kyc', 'reject', String(advanced))).toBe(1);
    expect(lines.at(-1)).toBe('a rejection needs a reason');
    expect(await run('kyc', 'reject', String(advanced), 'back', 'photo', 'blurred')).toBe(0);
    const row = await withIdentity(handle.db)
      .selectFrom('identity_verifications')
      .select(['state', 'reason'])
      .where('id', '=', advanced)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'rejected', reason: 'back photo blurred' });

    const events = await handle.db.selectFrom('user_events').selectAll().orderBy('id').execute();
    expect(events.map((e) => [e.user_id, e.kind, JSON.parse(e.payload)])).toEqual([
      [userId, 'verification', { level: 'basic', state: 'verified', reason: null }],
      [userId, 'verification', { level: 'advanced', state: 'rejected', reason: 'back photo blurred' }],
    ]);

    lines = [];
    expect(await runAuditCommand([], handle.db, out)).toBe(0);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/ops-test +kyc\.reject +identity_verification \d+ +\{.*"reason":"back photo blurred"/);
    expect(lines[1]).toMatch(/ops-test +kyc\.approve/);
  });

  it('says how to use it when the arguments are wrong', async () => {
    for (const args of [['kyc'], ['kyc', 'approve'], ['kyc', 'approve', 'x'], ['kyc', 'frob'], ['uploads', 'path']]) {
      lines = [];
      expect(await run(...args)).toBe(2);
      expect(lines[0]).toMatch(/^usage: npm run ops -- (kyc|uploads)/);
    }
    expect(await run('kyc', 'approve', '42')).toBe(1);
    expect(lines.at(-1)).toBe('no verification 42');
    expect(await runAuditCommand(['many'], handle.db, out)).toBe(2);
    expect(await run('help')).toBe(0);
    expect(lines.at(-1)).toContain('kyc approve <id>');
  });

  it('prints where an upload is stored', async () => {
    const upload = await withUploads(handle.db)
      .insertInto('uploads')
      .values({
        user_id: userId,
        file_name: `${'a'.repeat(32)}.jpg`,
        mime: 'image/jpeg',
        size: 1234,
        sha256: 'f'.repeat(64),
        created_at: 1,
        deleted_at: null,
        attached_to: 'identity:7',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await runUploadsCommand(['path', String(upload.id)], handle.db, out, '/srv/tw/uploads')).toBe(0);
    expect(lines).toEqual([
      `/srv/tw/uploads/${'a'.repeat(32)}.jpg`,
      `  user ${userId}, image/jpeg, 1234 bytes, used by identity:7`,
    ]);
    expect(await runUploadsCommand(['path', '999'], handle.db, out, '/x')).toBe(1);
    expect(lines.at(-1)).toBe('no upload 999');
  });
});
