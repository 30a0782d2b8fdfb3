import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault, loadDataKey } from '../../server/domains/bank-cards';
import { approveVerification } from '../../server/domains/identity';
import { createOperator, totpCode } from '../../server/domains/operators';
import { browserPerTest, type RunningServer, shot, startServer, withDb } from './harness';
import { withServerDatabase } from './ledger-seed';
import { text } from './locale';
import { postApi, registerUser } from './users';

/**
 * The support console in a real Chromium against the real server in its own process: an operator made through the
 * service (as `npm run ops -- operators add` does; the test computes the authenticator's code from the secret) signs
 * in at /ops, opens the identity verifications, sees the user's three photos, approves, and finds the approval in the
 * audit log under their name. A user's page loads never fetch the console's code.
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
const PASSWORD = 'an operator password for e2e';

/** The console's chunk and its tables, from the build's manifest. */
function consoleFiles(): { entry: string; tables: string[] } {
  // The build the servers serve: STATIC_DIR when a run serves a build of its own (as harness.ts passes it on).
  const built = resolve(process.env.STATIC_DIR ?? 'dist');
  const manifest = JSON.parse(readFileSync(join(built, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; src?: string }
  >;
  const chunks = Object.values(manifest);
  const entry = chunks.find((c) => /src\/console\/console-main\.tsx$/.test(c.src ?? ''))?.file;
  if (!entry) throw new Error('the build has no console chunk: run vite build');
  return { entry, tables: chunks.filter((c) => /locales\/\w+\/console\.json$/.test(c.src ?? '')).map((c) => c.file) };
}

/** A real JPEG drawn by the browser, so the console shows a picture. */
async function jpeg(caption: string, colour: string): Promise<Buffer> {
  const url = await page.evaluate(
    ([label, fill]) => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 400;
      const g = canvas.getContext('2d');
      if (!g) return '';
      g.fillStyle = '#e8eef8';
      g.fillRect(0, 0, 640, 400);
      g.fillStyle = fill ?? '#2563eb';
      g.fillRect(0, 0, 640, 80);
      g.fillStyle = '#0f172a';
      g.font = 'bold 40px sans-serif';
      g.fillText(label ?? '', 40, 220);
      return canvas.toDataURL('image/jpeg', 0.85);
    },
    [caption, colour],
  );
  return Buffer.from(url.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
}

async function upload(token: string, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await fetch(at('/api/upload/image'), { method: 'POST', headers: { authorization: token }, body: form });
  const body = (await res.json()) as { type: string; data: { id: number } };
  if (body.type !== 'ok') throw new Error(`upload failed: ${JSON.stringify(body)}`);
  return body.data.id;
}

/** A user whose advanced verification (three photos) waits for review; returns its id. */
async function pendingAdvancedVerification(email: string): Promise<number> {
  const { token } = await registerUser(server, email);
  const basic = await postApi(
    server,
    'user/real_name',
    { country: 'DE', name: 'Erika Mustermann', id_number: 'L01X00T47', address: 'Heidestraße 17, Köln', consent: '1' },
    token,
  );
  if (basic.type !== 'ok') throw new Error(basic.message);
  await withServerDatabase(server, async (handle) => {
    const review = await approveVerification(handle.db, (basic.data as { id: number }).id, { operator: 'e2e' });
    if (!review.ok) throw new Error(review.problem);
  });
  await page.goto('about:blank');
  const ids = {
    front: await upload(token, await jpeg('ID card – front', '#2563eb')),
    back: await upload(token, await jpeg('ID card – back', '#0c8358')),
    hold: await upload(token, await jpeg('Holding the ID', '#d63447')),
  };
  const advanced = await postApi(
    server,
    'user/real_name2',
    { front: String(ids.front), back: String(ids.back), hold: String(ids.hold), consent: '1' },
    token,
  );
  if (advanced.type !== 'ok') throw new Error(advanced.message);
  return (advanced.data as { id: number }).id;
}

/** An operator made as `operators add` makes one (password, roles, a TOTP secret sealed under the data key). */
async function newOperator(name: string, roles: Array<'support' | 'reviewer' | 'admin'>) {
  const { key } = loadDataKey({ dataKey: process.env.DATA_KEY, dataDir: server.dataDir }, { create: false });
  return withServerDatabase(server, async (handle) => {
    const created = await createOperator(
      { database: handle, now: Date.now, hasher: new PasswordHasher(), vault: new CardVault(key) },
      { name, roles, password: PASSWORD },
    );
    if (!created.ok) throw new Error(created.problem);
    return created;
  });
}

describe('the support console in the browser', () => {
  it('an operator signs in, approves an identity verification with its photos, and the audit log shows it', async () => {
    const verification = await pendingAdvancedVerification('ops-console-e2e@example.com');
    const operator = await newOperator('erika', ['reviewer', 'admin']);
    await page.addInitScript(() => localStorage.setItem('lang', 'en'));

    await page.goto(at('/ops'));
    await page.getByRole('heading', { name: en('console.login.title') }).waitFor();
    await shot(page, 'ops-login');
    // A wrong code first: refused with the server's message, nothing else said.
    await page.getByLabel(en('console.login.name')).fill('erika');
    await page.getByLabel(en('console.login.password'), { exact: true }).fill(PASSWORD);
    await page.getByLabel(en('console.login.code')).fill('000000');
    await page.getByRole('button', { name: en('console.login.submit') }).click();
    await expect
      .poll(() => page.getByRole('alert').allTextContents())
      .toContain('Name, password or code is wrong, or this code has been used already: wait for the next code');
    await shot(page, 'ops-login-refused');
    await page.getByLabel(en('console.login.code')).fill(totpCode(operator.secret, Date.now()));
    await page.getByRole('button', { name: en('console.login.submit') }).click();

    // Signed in: the first screen the roles allow, the navigation with every screen of reviewer and admin.
    await page.waitForURL((url) => url.pathname === '/ops/deposits');
    const nav = page.getByRole('navigation', { name: en('console.navLabel') });
    for (const key of ['console.nav.deposits', 'console.nav.withdrawals', 'console.nav.kyc', 'console.nav.audit']) {
      await nav.getByRole('link', { name: en(key) }).waitFor();
    }
    await page.getByText(en('console.deposits.empty')).waitFor();
    await shot(page, 'ops-deposits-empty');

    await nav.getByRole('link', { name: en('console.nav.kyc') }).click();
    await page.waitForURL((url) => url.pathname === '/ops/kyc');
    const card = page.getByRole('listitem').filter({ hasText: `Verification #${verification}` });
    for (const side of ['front', 'back', 'hold']) {
      const photo = card.getByRole('img', { name: en(`console.kyc.photo.${side}`) });
      await photo.waitFor();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    }
    await shot(page, 'ops-kyc-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
    await shot(page, 'ops-kyc-desktop');

    await card.getByRole('button', { name: en('console.common.approve') }).click();
    const dialog = page.getByRole('dialog', { name: `Approve Verification #${verification}?` });
    await dialog.waitFor();
    await shot(page, 'ops-kyc-approve-dialog');
    await dialog.getByRole('button', { name: en('console.common.approve') }).click();
    await page.getByText(`Verification #${verification} approved`).waitFor();
    await page.getByText(en('console.kyc.empty')).waitFor();
    await shot(page, 'ops-kyc-approved');
    expect(
      withDb(server.dataDir, (db) =>
        db.prepare('select state from identity_verifications where id = ?').get(verification),
      ),
    ).toEqual({ state: 'verified' });

    await nav.getByRole('link', { name: en('console.nav.audit') }).click();
    await page.waitForURL((url) => url.pathname === '/ops/audit');
    // Newest first; the reads the operator made (the queue, the photos) are audited beside the decision.
    const newest = page.locator('.ops-audit-row', { hasText: 'kyc.approve' }).first();
    await expect.poll(() => newest.textContent()).toContain('kyc.approve');
    expect(await newest.textContent()).toContain('erika');
    expect(await newest.textContent()).toContain(`identity_verification ${verification}`);
    await shot(page, 'ops-audit-desktop');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: en('console.theme.light') }).click();
    await shot(page, 'ops-audit-phone-light');

    await page.getByRole('button', { name: en('console.logout') }).click();
    await page.getByRole('heading', { name: en('console.login.title') }).waitFor();
    const audited = withDb(server.dataDir, (db) =>
      db
        .prepare("select operator, action from ops_audit where operator = 'erika' order by id")
        .all()
        .map((r) => (r as { action: string }).action),
    );
    const decisions = audited.filter((action) => !action.endsWith('.view') && !action.endsWith('_view'));
    expect(decisions).toEqual(['ops.login_failed', 'ops.login', 'kyc.approve', 'ops.logout']);
    // What the operator saw: the queue holding this verification, and each of its three photos, once.
    expect(audited.filter((action) => action === 'kyc.photo_view')).toHaveLength(3);
    expect(audited.filter((action) => action === 'identity_verifications.view')).toHaveLength(1);
  });

  it("a user's pages never fetch the console's code; /ops does", async () => {
    const files = consoleFiles();
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    const consoleFetched = () =>
      fetched.filter((p) => p.endsWith(files.entry) || files.tables.some((t) => p.endsWith(t)));

    await page.addInitScript(() => localStorage.setItem('lang', 'en'));
    for (const path of ['/', '/pages/trade/kline', '/pages/settings/index', '/pages/user/login/login']) {
      await page.goto(at(path));
      await page.locator('.app-frame').waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(fetched.some((p) => p.endsWith('.js'))).toBe(true);
    expect(consoleFetched()).toEqual([]);

    fetched.length = 0;
    await page.goto(at('/ops/kyc'));
    await page.getByRole('heading', { name: en('console.login.title') }).waitFor();
    expect(consoleFetched()).toEqual(expect.arrayContaining([expect.stringContaining(files.entry)]));
    // The user app does not start there: no socket, no user calls.
    expect(
      fetched.filter((p) => p.startsWith('/socket.io') || (p.startsWith('/api/') && !p.startsWith('/api/ops'))),
    ).toEqual([]);
  });
});
