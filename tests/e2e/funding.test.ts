import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setDepositAddress } from '../../server/domains/funding/ops';
import { approveDeposit, approveWithdrawal } from '../../server/domains/funding/review';
import { approveVerification } from '../../server/domains/identity/ops';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';
import { browserPerTest, type RunningServer, shot, startServer, withDb } from './harness';
import { text } from './locale';
import { loggedInUser, postApi } from './users';

/**
 * Deposits and withdrawals in a real Chromium at 375x812 against the real server in its own process. The operator
 * decisions run the functions `npm run ops -- deposits|withdrawals approve` runs, from this (another) process; the
 * server relays the user's events, so the pages change without a reload.
 */
let server: RunningServer;
let page: Page;

const PLATFORM_ERC20 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const USER_ERC20 = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const FUND = '135790';

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
const en = (key: string, values: Record<string, string> = {}) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, v), text('en', key));

/** Runs an operator function against the server's database from this process, as the ops CLI would. */
async function asOperator<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = openSqlite(join(server.dataDir, 'app.db'));
  try {
    return await work(handle);
  } finally {
    await handle.db.destroy();
  }
}

const latestId = (table: 'deposits' | 'withdrawals' | 'identity_verifications', userId: number) =>
  withDb(
    server.dataDir,
    (db) =>
      (db.prepare(`select id from ${table} where user_id = ? order by id desc limit 1`).get(userId) as { id: number })
        .id,
  );

const balance = (userId: number) =>
  withDb(server.dataDir, (db) => {
    const row = db
      .prepare(
        "select balance, held from ledger_accounts where user_id = ? and type = 'coin' and book = 'real' and currency = 'USDT'",
      )
      .get(userId) as { balance: number; held: number } | undefined;
    return row ?? { balance: 0, held: 0 };
  });

async function jpeg(label: string): Promise<Buffer> {
  const url = await page.evaluate((caption) => {
    const canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 320;
    const g = canvas.getContext('2d');
    if (!g) return '';
    g.fillStyle = '#e8f5ee';
    g.fillRect(0, 0, 480, 320);
    g.fillStyle = '#0f172a';
    g.font = 'bold 30px sans-serif';
    g.fillText(caption, 30, 170);
    return canvas.toDataURL('image/jpeg', 0.85);
  }, label);
  return Buffer.from(url.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
}

/** Reports a 500 USDT deposit through the charge page and returns the user's id. */
async function depositThroughUi(userId: number, hash: string): Promise<number> {
  await page.goto(at('/pages/assets/deposit/index'));
  await page.getByTestId('deposit-address').waitFor();
  await page.getByTestId('deposit-report').click();
  await page.waitForURL((url) => url.pathname === '/pages/assets/deposit/charge');
  await page.getByLabel(en('funding.fields.amount')).fill('500');
  await page.getByLabel(en('funding.fields.hash')).fill(hash);
  await page
    .getByRole('group', { name: en('funding.charge.proof') })
    .locator('input[data-upload="gallery"]')
    .setInputFiles({ name: 'proof.jpg', mimeType: 'image/jpeg', buffer: await jpeg('Transfer 500 USDT') });
  await page
    .getByRole('group', { name: en('funding.charge.proof') })
    .getByRole('img')
    .waitFor();
  await shot(page, 'funding-charge-filled');
  await page.getByTestId('charge-submit').click();
  await page.getByTestId('deposit-done').waitFor();
  await shot(page, 'funding-charge-done');
  return latestId('deposits', userId);
}

describe('deposits and withdrawals in the browser', () => {
  it('deposit with proof, approve through the ops tool, balance appears', async () => {
    const { user } = await loggedInUser(server, page, 'deposit-e2e@example.com');
    await page.goto(at('/pages/assets/deposit/index'));
    // No platform address yet: SPEC 8's message, and no way to report.
    await expect
      .poll(() => page.getByTestId('deposit-unconfigured').textContent())
      .toBe('The payment address is not configured; contact support');
    await shot(page, 'funding-deposit-unconfigured');

    const set = await asOperator((h) => setDepositAddress(h.db, 'USDT', 'ERC20', PLATFORM_ERC20, { operator: 'e2e' }));
    expect(set.ok).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByTestId('deposit-address').textContent()).toBe(PLATFORM_ERC20);
    await page.getByTestId('qr-code').waitFor();
    await shot(page, 'funding-deposit-address');

    const depositId = await depositThroughUi(user.id, `0x${'c'.repeat(64)}`);
    expect(balance(user.id).balance).toBe(0);

    await page.getByRole('link', { name: en('funding.records.view') }).click();
    await expect.poll(() => page.getByTestId('funding-state').first().textContent()).toBe(en('funding.state.pending'));
    await shot(page, 'funding-records-pending');

    const approved = await asOperator((h) => approveDeposit(h, depositId, { operator: 'e2e' }));
    expect(approved.ok).toBe(true);
    // Live: the record turns passed without a reload.
    await expect
      .poll(() => page.getByTestId('funding-state').first().textContent(), { timeout: 10_000 })
      .toBe(en('funding.state.passed'));
    await shot(page, 'funding-records-passed');
    expect(balance(user.id)).toEqual({ balance: 500_000_000, held: 0 });

    await page.goto(at('/pages/assets/index'));
    await expect.poll(() => page.locator('body').textContent()).toContain('500');
  });

  it('withdraw blocked until address, fund password and verification exist, then frozen, then approved', async () => {
    const { token, user } = await loggedInUser(server, page, 'withdraw-e2e@example.com');
    await depositThroughUi(user.id, `0x${'d'.repeat(64)}`);
    await asOperator((h) => approveDeposit(h, latestId('deposits', user.id), { operator: 'e2e' }));

    await page.goto(at('/pages/assets/withdraw/index'));
    await expect.poll(() => page.getByTestId('withdraw-gate').count()).toBe(3);
    await expect
      .poll(() => page.getByTestId('withdraw-gate').allTextContents())
      .toEqual([
        expect.stringContaining('Set a withdraw address first'),
        expect.stringContaining('Set the fund password first (for asset security)'),
        expect.stringContaining('Do real-name verification first'),
      ]);
    await shot(page, 'funding-withdraw-gates');
    // Submitting anyway: the first missing prerequisite is named and nothing is frozen.
    await page.getByTestId('withdraw-amount').fill('20');
    await page.getByTestId('withdraw-fund').fill(FUND);
    await page.getByTestId('withdraw-submit').click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain('Set a withdraw address first');
    expect(balance(user.id).held).toBe(0);

    // The three prerequisites, through the API (each has its own browser test).
    expect(
      (
        await postApi(
          server,
          'user/e_pwd',
          { mode: 'password', login_password: 'secret1', password: FUND, repassword: FUND },
          token,
        )
      ).type,
    ).toBe('ok');
    // The address straight into the table: the per-address code limits would make this test wait a minute.
    withDb(server.dataDir, (db) =>
      db
        .prepare(
          "insert into withdraw_addresses (user_id, coin, chain, address, label, created_at) values (?, 'USDT', 'ERC20', ?, 'Hardware', ?)",
        )
        .run(user.id, USER_ERC20, Date.now()),
    );
    const basic = await postApi(
      server,
      'user/real_name',
      { country: 'DE', name: 'Erika Mustermann', id_number: 'L01X00T47', address: 'Köln', consent: '1' },
      token,
    );
    expect(basic.type).toBe('ok');
    await asOperator((h) =>
      approveVerification(h.db, latestId('identity_verifications', user.id), { operator: 'e2e' }),
    );

    await page.goto(at('/pages/assets/withdraw/index'));
    await page.getByTestId('withdraw-summary').waitFor();
    expect(await page.getByTestId('withdraw-gate').count()).toBe(0);
    await page.getByTestId('withdraw-address').click();
    await page.waitForURL((url) => url.pathname === '/pages/user/address/address');
    await page.getByText('Hardware').click();
    await page.waitForURL((url) => url.pathname === '/pages/assets/withdraw/index');
    await expect.poll(() => page.getByTestId('withdraw-address').textContent()).toContain(USER_ERC20);
    await page.getByTestId('withdraw-amount').fill('120');
    await page.getByTestId('withdraw-fund').fill(FUND);
    await page.getByTestId('withdraw-remark').fill('Cold storage');
    await expect.poll(() => page.getByTestId('withdraw-summary').textContent()).toContain('121');
    await shot(page, 'funding-withdraw-filled');
    await page.getByTestId('withdraw-submit').click();
    await page.waitForURL((url) => url.pathname === '/pages/assets/withdraw/detail');
    await page.getByTestId('withdrawal-detail').waitFor();
    await expect.poll(() => page.getByTestId('funding-state').textContent()).toBe(en('funding.state.pending'));
    await shot(page, 'funding-withdraw-pending');
    // Frozen: amount plus the 1 USDT fee.
    expect(balance(user.id)).toEqual({ balance: 500_000_000, held: 121_000_000 });

    const approved = await asOperator((h) =>
      approveWithdrawal(h, latestId('withdrawals', user.id), { operator: 'e2e' }),
    );
    expect(approved.ok).toBe(true);
    await expect
      .poll(() => page.getByTestId('funding-state').textContent(), { timeout: 10_000 })
      .toBe(en('funding.state.passed'));
    await shot(page, 'funding-withdraw-passed');
    expect(balance(user.id)).toEqual({ balance: 379_000_000, held: 0 });
  });
});
