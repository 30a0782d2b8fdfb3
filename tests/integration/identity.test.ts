import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withIdentity } from '../../server/domains/identity';
import { approveVerification, listPendingVerifications, rejectVerification } from '../../server/domains/identity/ops';
import { withUploads } from '../../server/domains/uploads';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, type TestDatabase, uniqueEmail } from './harness';
import { uploadedId } from './uploads-helpers';

/**
 * Identity verification over real HTTP and sockets: basic, then advanced with three uploads; the operator review
 * (the ops functions, as the CLI runs them) with its audit entry; the live `account` event; bad input and other
 * users' ids change nothing.
 */

const BASIC = {
  country: 'DE',
  name: 'Erika Mustermann',
  id_number: 'L01X00T47',
  address: 'Heidestraße 17, 51147 Köln',
  consent: '1',
};

describe.each(DATABASES)('identity verification on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let url: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-identity-'));
  const sockets: Socket[] = [];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { uploadsDir: dir, userEventsPollMs: 50 });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t?.close();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const info = async (token: string) => {
    const r = await t.call('user/real_name_info', {}, { token });
    expect(r.body.type).toBe('ok');
    return r.body.data as {
      basic: { state: string; reason: string | null; name: string | null; id_number: string | null };
      advanced: { state: string; reason: string | null };
    };
  };
  const countRows = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from identity_verifications`.execute(t.db)).rows[0]?.n);
  const auditRows = () => t.db.selectFrom('ops_audit').selectAll().orderBy('id').execute();
  const latestId = async (userId: number) =>
    (
      await withIdentity(t.db)
        .selectFrom('identity_verifications')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    ).id;

  async function verifiedBasic() {
    const who = await t.registerByEmail(uniqueEmail());
    expect((await t.call('user/real_name', BASIC, { token: who.token })).body.type).toBe('ok');
    const result = await approveVerification(t.db, await latestId(who.user.id), { operator: 'tester' });
    expect(result.ok).toBe(true);
    return who;
  }

  it('basic: submit, see it under review (masked), approve, see it verified', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail());
    expect(await info(token)).toMatchObject({ basic: { state: 'none' }, advanced: { state: 'none' } });

    const r = await t.call('user/real_name', BASIC, { token });
    expect(r.body).toMatchObject({ type: 'ok', data: { state: 'pending' } });
    expect(await info(token)).toMatchObject({
      basic: { state: 'pending', name: 'E**** M********', id_number: '*****0T47', reason: null },
    });
    const again = await t.call('user/real_name', BASIC, { token });
    expect(again.body).toMatchObject({ type: 'error', message: 'Your verification is already under review' });

    const pending = await listPendingVerifications(t.db);
    const mine = pending.find((p) => p.userId === user.id);
    expect(mine).toMatchObject({ level: 'basic', name: 'Erika Mustermann', idNumber: 'L01X00T47', country: 'DE' });

    const approved = await approveVerification(t.db, mine?.id ?? 0, { operator: 'alice' });
    expect(approved).toMatchObject({ ok: true, state: 'verified', userId: user.id });
    expect((await info(token)).basic.state).toBe('verified');
    const audit = (await auditRows()).at(-1);
    expect(audit).toMatchObject({
      operator: 'alice',
      action: 'kyc.approve',
      subject_type: 'identity_verification',
      subject_id: String(mine?.id),
    });
    expect(JSON.parse(audit?.detail ?? '{}')).toEqual({ user_id: user.id, level: 'basic' });
    const done = await t.call('user/real_name', BASIC, { token });
    expect(done.body.message).toBe('This level is already verified');

    // A second review of the same row changes nothing and logs nothing.
    const before = (await auditRows()).length;
    expect(await rejectVerification(t.db, mine?.id ?? 0, 'late')).toMatchObject({ ok: false });
    expect(await approveVerification(t.db, 987_654)).toEqual({ ok: false, problem: 'no verification 987654' });
    expect((await auditRows()).length).toBe(before);
  });

  it('basic: every missing or bad field gets its own message, in the caller language, and nothing is stored', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const before = await countRows();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ country: '' }, 'country', 'Please choose your country'],
      [{ country: 'XX' }, 'country', 'Please choose a country from the list'],
      [{ country: 'Germany' }, 'country', 'Please choose a country from the list'],
      [{ name: '  ' }, 'name', 'Please enter your full name'],
      [{ id_number: '' }, 'id_number', 'Please enter your ID number'],
      [{ id_number: 'A<script>' }, 'id_number', 'The ID number has 4 to 40 letters and digits'],
      [{ address: '' }, 'address', 'Please enter your contact address'],
      [{ consent: '0' }, 'consent', 'Please agree to the notices and the privacy policy'],
      [{ name: 'x'.repeat(101) }, 'name', 'The input is too long'],
    ];
    for (const [change, field, message] of cases) {
      const r = await t.call('user/real_name', { ...BASIC, ...change }, { token });
      expect(r.body, JSON.stringify(change)).toMatchObject({ type: 'error', code: 0, message });
      if (field !== 'country' || change.country === '' || change.country === 'Germany') {
        expect(r.body.field).toBe(field);
      }
    }
    const { consent: _, ...noConsent } = BASIC;
    const german = await t.call('user/real_name', noConsent, { token, lang: 'de' });
    expect(german.body.message).toBe('Bitte stimme den Hinweisen und der Datenschutzerklärung zu');
    expect(await countRows()).toBe(before);
    expect((await info(token)).basic.state).toBe('none');
  });

  it('advanced: refused before basic is verified, with nothing attached', async () => {
    const { token, user } = await t.registerByEmail(uniqueEmail());
    const ids = [await uploadedId(t, token), await uploadedId(t, token), await uploadedId(t, token)];
    const fields = { front: String(ids[0]), back: String(ids[1]), hold: String(ids[2]), consent: '1' };
    const before = await countRows();
    const early = await t.call('user/real_name2', fields, { token });
    expect(early.body).toMatchObject({ type: 'error', message: 'Please complete the basic verification first' });

    // Under review is not enough either.
    await t.call('user/real_name', BASIC, { token });
    const stillEarly = await t.call('user/real_name2', fields, { token, lang: 'de' });
    expect(stillEarly.body.message).toBe('Bitte schließe zuerst die Basis-Verifizierung ab');
    expect(await countRows()).toBe(before + 1);
    const attached = await withUploads(t.db)
      .selectFrom('uploads')
      .select('attached_to')
      .where('user_id', '=', user.id)
      .execute();
    expect(attached.every((u) => u.attached_to === null)).toBe(true);
  });

  it('advanced: three own photos, approved live over the socket; the photos can no longer be removed', async () => {
    const { token, user } = await verifiedBasic();
    const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const events: unknown[] = [];
    socket.on('account', (e: unknown) => events.push(e));

    const [front, back, hold] = [await uploadedId(t, token), await uploadedId(t, token), await uploadedId(t, token)];
    const r = await t.call(
      'user/real_name2',
      { front: String(front), back: String(back), hold: String(hold), consent: '1' },
      { token },
    );
    expect(r.body).toMatchObject({ type: 'ok', data: { state: 'pending' } });
    const id = (r.body.data as { id: number }).id;
    await expect
      .poll(() => events)
      .toContainEqual({
        kind: 'verification',
        data: { level: 'advanced', state: 'pending', reason: null },
      });

    const removal = await t.call('upload/delete', { id: String(front) }, { token });
    expect(removal.body.message).toBe('This image belongs to a submitted verification and cannot be removed');

    expect(await approveVerification(t.db, id, { operator: 'bob' })).toMatchObject({ ok: true });
    await expect
      .poll(() => events)
      .toContainEqual({
        kind: 'verification',
        data: { level: 'advanced', state: 'verified', reason: null },
      });
    expect(await info(token)).toMatchObject({ basic: { state: 'verified' }, advanced: { state: 'verified' } });
    const tags = await withUploads(t.db)
      .selectFrom('uploads')
      .select('attached_to')
      .where('user_id', '=', user.id)
      .execute();
    expect(tags.map((u) => u.attached_to)).toEqual([`identity:${id}`, `identity:${id}`, `identity:${id}`]);
  });

  it("advanced: another user's photos, repeated or missing photos and missing consent are refused; nothing changes", async () => {
    const { token, user } = await verifiedBasic();
    const stranger = await t.registerByEmail(uniqueEmail());
    const theirs = await uploadedId(t, stranger.token);
    const mine = [await uploadedId(t, token), await uploadedId(t, token), await uploadedId(t, token)];
    const fields = { front: String(mine[0]), back: String(mine[1]), hold: String(mine[2]), consent: '1' };
    const before = await countRows();

    const cases: Array<[Record<string, string>, string, string]> = [
      [{ front: String(theirs) }, 'front', 'This image was not found – please upload it again'],
      [{ hold: '999999' }, 'hold', 'This image was not found – please upload it again'],
      [{ back: fields.front }, 'back', 'Please use a separate photo for each field'],
      [{ front: '' }, 'front', 'Please upload the front of your ID'],
      [{ back: '' }, 'back', 'Please upload the back of your ID'],
      [{ hold: '' }, 'hold', 'Please upload a photo of you holding your ID'],
      [{ front: '1; drop table uploads' }, 'front', 'Invalid input'],
      [{ consent: '' }, 'consent', 'Please agree to the notices and the privacy policy'],
    ];
    for (const [change, field, message] of cases) {
      const r = await t.call('user/real_name2', { ...fields, ...change }, { token });
      expect(r.body, JSON.stringify(change)).toMatchObject({ type: 'error', message, field });
    }
    expect(await countRows()).toBe(before);
    const uploads = await withUploads(t.db).selectFrom('uploads').select(['user_id', 'attached_to']).execute();
    expect(
      uploads.filter((u) => u.user_id === user.id || u.user_id === stranger.user.id).every((u) => !u.attached_to),
    ).toBe(true);
    expect((await info(token)).advanced.state).toBe('none');
  });

  it('a rejection carries its reason to the user, who may then submit again', async () => {
    const { token, user } = await verifiedBasic();
    const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const events: unknown[] = [];
    socket.on('account', (e: unknown) => events.push(e));

    const photos = async () => ({
      front: String(await uploadedId(t, token)),
      back: String(await uploadedId(t, token)),
      hold: String(await uploadedId(t, token)),
      consent: '1',
    });
    const first = await t.call('user/real_name2', await photos(), { token });
    const id = (first.body.data as { id: number }).id;
    expect(await rejectVerification(t.db, id, '   ')).toEqual({ ok: false, problem: 'a rejection needs a reason' });
    expect(await rejectVerification(t.db, id, 'The back photo is blurred', { operator: 'carol' })).toMatchObject({
      ok: true,
      state: 'rejected',
    });
    await expect
      .poll(() => events)
      .toContainEqual({
        kind: 'verification',
        data: { level: 'advanced', state: 'rejected', reason: 'The back photo is blurred' },
      });
    expect((await info(token)).advanced).toMatchObject({ state: 'rejected', reason: 'The back photo is blurred' });
    const audit = (await auditRows()).at(-1);
    expect(audit).toMatchObject({ operator: 'carol', action: 'kyc.reject' });
    expect(JSON.parse(audit?.detail ?? '{}')).toMatchObject({ user_id: user.id, reason: 'The back photo is blurred' });

    const second = await t.call('user/real_name2', await photos(), { token });
    expect(second.body).toMatchObject({ type: 'ok', data: { state: 'pending' } });
    expect((await info(token)).advanced).toMatchObject({ state: 'pending', reason: null });
  });

  it("one user's state says nothing about another's", async () => {
    await verifiedBasic();
    const fresh = await t.registerByEmail(uniqueEmail());
    expect(await info(fresh.token)).toMatchObject({
      basic: { state: 'none', name: null },
      advanced: { state: 'none' },
    });
    expect((await t.call('user/real_name_info', {})).body.type).toBe(999);
    expect((await t.call('user/real_name', BASIC)).body.type).toBe(999);
  });

  it('the audit log is append-only in the database itself', async () => {
    await verifiedBasic();
    const row = (await auditRows()).at(-1);
    await expect(
      t.db
        .updateTable('ops_audit')
        .set({ operator: 'mallory' })
        .where('id', '=', row?.id ?? 0)
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.db
        .deleteFrom('ops_audit')
        .where('id', '=', row?.id ?? 0)
        .execute(),
    ).rejects.toThrow(/append-only/);
    expect((await auditRows()).at(-1)).toEqual(row);
  });
});
