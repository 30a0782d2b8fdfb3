import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../protocol/identity';
import { approveVerification } from '../../server/domains/identity/ops';
import { openSqlite } from '../../server/platform/db/connect';
import { browserPerTest, type RunningServer, shot, startServer, withDb } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Identity verification in a real Chromium at 375x812 against the real server in its own process: basic, approved
 * by the operator function the ops CLI runs (another process writes the review; the server relays it), seen live;
 * then advanced with three photo uploads (a too-big and a fake image refused first, one removed after a
 * confirmation), approved and seen live again.
 */
let server: RunningServer;
let page: Page;

browserPerTest(
  startServer,
  (s) => {
    server = s;
  },
  (b) => {
    page = b.page;
  },
);

const at = (path: string) => `${server.url}${path}`;
const en = (key: string) => text('en', key);

/** The operator approves, as `npm run ops -- kyc approve <id>` does: another process writes to the database. */
async function approveLatest(userId: number): Promise<void> {
  const id = withDb(server.dataDir, (db) => {
    const row = db
      .prepare('select id from identity_verifications where user_id = ? order by id desc limit 1')
      .get(userId) as { id: number };
    return row.id;
  });
  const handle = openSqlite(join(server.dataDir, 'app.db'));
  try {
    const result = await approveVerification(handle.db, id, { operator: 'e2e' });
    expect(result.ok).toBe(true);
  } finally {
    await handle.db.destroy();
  }
}

const rows = (table: 'identity_verifications' | 'uploads', userId: number) =>
  withDb(
    server.dataDir,
    (db) => (db.prepare(`select count(*) as n from ${table} where user_id = ?`).get(userId) as { n: number }).n,
  );

/** A real JPEG drawn by the browser (the server reads the bytes, and the preview must show a picture). */
async function jpeg(label: string): Promise<Buffer> {
  const url = await page.evaluate((caption) => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 400;
    const g = canvas.getContext('2d');
    if (!g) return '';
    g.fillStyle = '#dfe7f5';
    g.fillRect(0, 0, 640, 400);
    g.fillStyle = '#2563eb';
    g.fillRect(0, 0, 640, 70);
    g.fillStyle = '#0f172a';
    g.font = 'bold 36px sans-serif';
    g.fillText(caption, 40, 200);
    return canvas.toDataURL('image/jpeg', 0.85);
  }, label);
  return Buffer.from(url.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
}

const photo = (key: string) => page.getByRole('group', { name: en(key) });
const choose = (key: string, file: { name: string; mimeType: string; buffer: Buffer }) =>
  photo(key).locator('input[data-upload="gallery"]').setInputFiles(file);

describe('identity verification in the browser', () => {
  it('basic, approved live; then advanced with three uploads, approved live', async () => {
    const { user } = await loggedInUser(server, page, 'kyc-e2e@example.com');
    await page.goto(at('/pages/verification/index'));
    await expect.poll(() => page.locator('[data-state="none"]').count()).toBe(2);
    await shot(page, 'kyc-index-none');

    // Basic: a missing consent is refused in place and nothing is sent.
    await page.getByRole('link', { name: new RegExp(en('kyc.basic')) }).click();
    await page.waitForURL((url) => url.pathname === '/pages/verification/basic');
    await page.getByLabel(en('kyc.country')).selectOption('DE');
    await page.getByLabel(en('kyc.name')).fill('Erika Mustermann');
    await page.getByLabel(en('kyc.idNumber')).fill('L01X00T47');
    await page.getByLabel(en('kyc.address')).fill('Heidestraße 17, 51147 Köln');
    await page.getByRole('button', { name: en('kyc.submit') }).click();
    await expect
      .poll(() => page.getByRole('alert').allTextContents())
      .toContain('Please agree to the notices and the privacy policy');
    expect(rows('identity_verifications', user.id)).toBe(0);
    await page.locator('.check-input').check();
    await shot(page, 'kyc-basic-filled');
    await page.getByRole('button', { name: en('kyc.submit') }).click();
    await page.getByRole('heading', { name: en('kyc.pendingTitle') }).waitFor();
    await expect.poll(() => page.locator('.kv dd').allTextContents()).toContain('*****0T47');
    await shot(page, 'kyc-basic-pending');

    // The operator approves from another process; the page changes without a reload.
    await approveLatest(user.id);
    await page.getByRole('heading', { name: en('kyc.verifiedTitle') }).waitFor({ timeout: 10_000 });
    await shot(page, 'kyc-basic-verified');

    // Advanced.
    await page.getByRole('link', { name: en('kyc.goAdvanced') }).click();
    await page.waitForURL((url) => url.pathname === '/pages/verification/advanced');
    await photo('kyc.front').waitFor();

    // Too big: refused before sending. A fake image: refused by the server, which reads the bytes.
    await choose('kyc.front', {
      name: 'huge.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1),
    });
    await expect
      .poll(() => photo('kyc.front').getByRole('alert').textContent())
      .toBe('Out of allowable file size – an image may be at most 5\u00a0MB');
    await choose('kyc.front', { name: 'id.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not really a picture') });
    await expect
      .poll(() => photo('kyc.front').getByRole('alert').textContent())
      .toBe('Only JPEG, PNG or WebP images can be uploaded');
    await shot(page, 'kyc-advanced-refused');
    expect(rows('uploads', user.id)).toBe(0);

    for (const key of ['kyc.front', 'kyc.back', 'kyc.hold']) {
      await choose(key, { name: `${key}.jpg`, mimeType: 'image/jpeg', buffer: await jpeg(en(key)) });
      await photo(key).getByRole('img').waitFor();
    }
    expect(rows('uploads', user.id)).toBe(3);
    await shot(page, 'kyc-advanced-uploaded');

    // Remove one after confirming, then upload it again.
    await photo('kyc.back')
      .getByRole('button', { name: text('en', 'upload.remove').replace('{{label}}', en('kyc.back')) })
      .click();
    const dialog = page.getByRole('dialog', { name: en('upload.removeTitle') });
    await dialog.waitFor();
    await shot(page, 'kyc-advanced-remove-dialog');
    await dialog.getByRole('button', { name: en('upload.removeConfirm') }).click();
    await photo('kyc.back')
      .getByRole('button', { name: en('upload.choose') })
      .waitFor();
    await choose('kyc.back', { name: 'back2.jpg', mimeType: 'image/jpeg', buffer: await jpeg('Back, again') });
    await photo('kyc.back').getByRole('img').waitFor();

    await page.locator('.check-input').check();
    await page.getByRole('button', { name: en('kyc.submit') }).click();
    await page.getByRole('heading', { name: en('kyc.pendingTitle') }).waitFor();
    await shot(page, 'kyc-advanced-pending');

    await approveLatest(user.id);
    await page.getByRole('heading', { name: en('kyc.verifiedTitle') }).waitFor({ timeout: 10_000 });
    await page.goto(at('/pages/verification/index'));
    await expect.poll(() => page.locator('[data-state="verified"]').count()).toBe(2);
    await shot(page, 'kyc-index-verified');
  });

  it('advanced is blocked with a way to basic while basic is not verified', async () => {
    await loggedInUser(server, page, 'kyc-e2e-early@example.com');
    await page.goto(at('/pages/verification/advanced'));
    await page.getByRole('heading', { name: en('kyc.needBasicTitle') }).waitFor();
    await shot(page, 'kyc-advanced-blocked');
    await page.getByRole('link', { name: en('kyc.goBasic') }).click();
    await page.waitForURL((url) => url.pathname === '/pages/verification/basic');
  });
});
