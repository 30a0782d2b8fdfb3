import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../protocol/identity';
import { withUploads } from '../../server/domains/uploads';
import { appPerSuite, DATABASES, type Envelope, type TestApp, uniqueEmail } from './harness';
import { fakeJpeg, multipart, pngBytes, upload, uploadedId } from './uploads-helpers';

/**
 * Uploads over real HTTP: multipart, a size limit, images told by their bytes, names chosen by the server, files
 * only for their owner, removal by the owner only; bad input changes nothing.
 */

const fetchFile = (t: TestApp, token: string | undefined, id: number | string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/upload/file?id=${id}`,
    headers: { lang: 'en', ...(token !== undefined ? { authorization: token } : {}) },
  });

describe.each(DATABASES)('uploads on %s', (kind) => {
  let t: TestApp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-it-uploads-'));
  appPerSuite(kind, (app) => (t = app), { uploadsDir: dir });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const files = () => fs.readdirSync(dir);
  const rows = async () => (await withUploads(t.db).selectFrom('uploads').selectAll().execute()).length;

  it('stores an image under a name the server chose and gives it back to its owner', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const bytes = fakeJpeg(4096);
    const r = await upload(t, token, bytes, { filename: '../../etc/passwd.jpg' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: 'ok', code: 1, message: 'OK', data: { size: 4096, mime: 'image/jpeg' } });
    const { id } = r.body.data as { id: number };

    const row = await withUploads(t.db)
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.file_name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    const stored = path.join(dir, row.file_name);
    expect(fs.readFileSync(stored).equals(bytes)).toBe(true);
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
    expect(files().some((f) => f.includes('passwd'))).toBe(false);

    const file = await fetchFile(t, token, id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.equals(bytes)).toBe(true);

    // The type comes from the bytes: a PNG sent as "image/jpeg" named .jpg is stored and served as a PNG.
    const png = await upload(t, token, pngBytes(), { filename: 'x.jpg', type: 'image/jpeg' });
    expect(png.body.data).toMatchObject({ mime: 'image/png' });
  });

  it('refuses fake images and oversized files with a clear message and stores nothing', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const [before, filesBefore] = [await rows(), files().length];

    const fake = await upload(t, token, '<?php echo "hi"; ?>', { filename: 'id.jpg', type: 'image/jpeg' });
    expect(fake.body).toMatchObject({
      type: 'error',
      code: 0,
      message: 'Only JPEG, PNG or WebP images can be uploaded',
    });
    const svg = await upload(t, token, '<svg xmlns="http://www.w3.org/2000/svg"></svg>', { type: 'image/svg+xml' });
    expect(svg.body.message).toBe('Only JPEG, PNG or WebP images can be uploaded');

    const big = await upload(t, token, fakeJpeg(MAX_UPLOAD_BYTES + 1), { lang: 'de' });
    expect(big.body).toMatchObject({
      type: 'error',
      message: 'Zulässige Dateigröße überschritten – ein Bild darf höchstens 5\u00a0MB groß sein',
      field: 'file',
    });
    // Exactly at the limit is fine.
    expect((await upload(t, token, fakeJpeg(MAX_UPLOAD_BYTES))).body.type).toBe('ok');

    const empty = await upload(t, token, Buffer.alloc(0));
    expect(empty.body.message).toBe('Please choose an image');
    const wrongField = await upload(t, token, fakeJpeg(), { name: 'picture' });
    expect(wrongField.body.message).toBe('Please choose an image');
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: '/api/upload/image',
      headers: { authorization: token, lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'file=abc',
    });
    expect(notMultipart.statusCode).toBe(415);
    expect(notMultipart.json<Envelope>().message).toBe('This request format is not supported');

    expect(await rows()).toBe(before + 1);
    expect(files().length).toBe(filesBefore + 1);
  });

  it('answers a body cut off inside the file part with a 400 envelope and stores nothing', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const [before, filesBefore] = [await rows(), files().length];
    const { body, contentType } = multipart([
      { name: 'file', filename: 'id.jpg', type: 'image/jpeg', data: fakeJpeg(8192) },
    ]);
    const send = (payload: Buffer, type = contentType) =>
      t.app.inject({
        method: 'POST',
        url: '/api/upload/image',
        headers: { authorization: token, lang: 'en', 'content-type': type },
        payload,
      });
    // Inside the bytes of the file, and just before its closing boundary.
    for (const cut of [4096, body.length - 20]) {
      const response = await send(body.subarray(0, cut));
      expect(response.statusCode, String(cut)).toBe(400);
      expect(response.json<Envelope>()).toEqual({
        type: 'error',
        code: 0,
        message: 'The request could not be read',
        reason: 'bodyMalformed',
      });
    }
    // Multipart without a boundary cannot be read either.
    const noBoundary = await send(body, 'multipart/form-data');
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json<Envelope>().message).toBe('The request could not be read');

    // The same over a real connection: the client says how long its (cut) body is and sends exactly that.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const cut = new Uint8Array(body.subarray(0, 4096));
    const response = await fetch(`http://127.0.0.1:${port}/api/upload/image`, {
      method: 'POST',
      headers: { authorization: token, lang: 'de', 'content-type': contentType },
      body: cut,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      code: 0,
      message: 'Die Anfrage konnte nicht gelesen werden',
      reason: 'bodyMalformed',
    });

    expect(await rows()).toBe(before);
    expect(files().length).toBe(filesBefore);
  });

  it('needs a session for uploading and reading', async () => {
    const before = await rows();
    const anonymous = await upload(t, undefined, fakeJpeg());
    expect(anonymous.body).toMatchObject({ type: 999, message: 'Please log in' });
    const dead = await upload(t, 'not-a-token', fakeJpeg());
    expect(dead.body.type).toBe(999);
    expect(await rows()).toBe(before);
    expect((await fetchFile(t, undefined, 1)).json<Envelope>().type).toBe(999);
  });

  it("never shows or removes another user's image, whatever id is sent", async () => {
    const owner = await t.registerByEmail(uniqueEmail());
    const other = await t.registerByEmail(uniqueEmail());
    const id = await uploadedId(t, owner.token);

    const peek = await fetchFile(t, other.token, id);
    const missing = await fetchFile(t, other.token, 999_999);
    expect(peek.statusCode).toBe(404);
    // The same answer as for an id that does not exist: nothing to learn.
    expect(peek.json()).toEqual(missing.json());
    expect(peek.json<Envelope>().message).toBe('This image was not found – please upload it again');
    for (const bad of ['abc', '-1', '0', '1 or 1=1', '']) {
      expect((await fetchFile(t, owner.token, bad)).statusCode).toBe(404);
    }

    const remove = await t.call('upload/delete', { id: String(id) }, { token: other.token });
    expect(remove.body).toMatchObject({ type: 'error', message: 'This image was not found – please upload it again' });
    expect((await fetchFile(t, owner.token, id)).statusCode).toBe(200);
  });

  it('lets the owner remove an image: the file is gone and so is the access', async () => {
    const { token } = await t.registerByEmail(uniqueEmail());
    const id = await uploadedId(t, token);
    const row = await withUploads(t.db)
      .selectFrom('uploads')
      .select('file_name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(files()).toContain(row.file_name);

    const removed = await t.call('upload/delete', { id: String(id) }, { token });
    expect(removed.body).toMatchObject({ type: 'ok' });
    expect(files()).not.toContain(row.file_name);
    expect((await fetchFile(t, token, id)).statusCode).toBe(404);
    const again = await t.call('upload/delete', { id: String(id) }, { token });
    expect(again.body.type).toBe('error');
    const junk = await t.call('upload/delete', { id: 'x' }, { token });
    expect(junk.body).toMatchObject({ type: 'error', message: 'Invalid input' });
  });

  it('limits how many images one user uploads per hour', async () => {
    const busy = await t.registerByEmail(uniqueEmail());
    const calm = await t.registerByEmail(uniqueEmail());
    const hits = Array.from({ length: 60 }, () => ({ bucket: `upload:${busy.user.id}`, at: t.clock.now() }));
    await t.db.insertInto('rate_limit_hits').values(hits).execute();
    const before = await rows();
    const refused = await upload(t, busy.token, fakeJpeg());
    expect(refused.body).toMatchObject({ type: 'error', message: 'Too many requests – please try again shortly' });
    expect(await rows()).toBe(before);
    expect((await upload(t, calm.token, fakeJpeg())).body.type).toBe('ok');
  });
});
