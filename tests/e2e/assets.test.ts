import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import errors from '../../locales/en/errors.json';
import { parseAmount } from '../../server/ledger/amounts';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { type DatabaseHandle, openSqlite } from '../../server/platform/db/connect';
import { browserPerTest, type RunningServer, shot, startServer } from './harness';
import { text } from './locale';
import { pullDown } from './touch';
import { loggedInUser } from './users';

/**
 * Assets in a real Chromium at 375x812 against the real server: a user with funds sees the assets tab with the total
 * valuation and its price basis, pulls the page down to refresh it, moves money from the spot to the contract account
 * (retrying a transfer whose answer was lost applies it once), and finds the new balances and the transfer in the
 * records.
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

/** The server's own database file, opened beside it (SQLite waits for the server's write lock). */
async function withLedger<T>(work: (ledger: Ledger, handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = openSqlite(join(server.dataDir, 'app.db'));
  try {
    return await work(new Ledger(handle), handle);
  } finally {
    await handle.db.destroy();
  }
}

/** Test set-up only, never a product path: money for the user straight through the ledger, like an approved deposit. */
async function fund(userId: number, currency: string, amount: string) {
  const parsed = parseAmount(currency, amount);
  if (!parsed.ok) throw new Error(parsed.error);
  const units = parsed.units;
  await withLedger((ledger) =>
    ledger.credit({
      userId,
      requestId: `e2e-${currency}-${amount}`,
      kind: 'deposit',
      currency,
      amount: units,
      from: 'deposits_clearing',
      to: 'coin',
    }),
  );
}

describe('assets and transfers in the browser', () => {
  it('assets tab with total valuation, pull-to-refresh, a coin → contract transfer and its record', async () => {
    const user = (await loggedInUser(server, page, 'assets-e2e@example.com')).user;
    await fund(user.id, 'USDT', '500');
    await fund(user.id, 'ETH', '0.5');

    const listCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/wallet/list')) listCalls.push(r.url());
    });
    await page.goto(at('/pages/assets/index'));
    const total = page.getByTestId('total-valuation');
    await expect.poll(() => total.textContent(), { timeout: 15_000 }).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
    // 500 USDT plus half an ETH at its last price: more than 500.
    expect(Number((await total.textContent())?.replace(/,/g, ''))).toBeGreaterThan(500);
    await expect
      .poll(() => page.getByTestId('price-basis').textContent())
      .toContain(text('en', 'assets.basisLast').split('{{')[0] ?? '');
    expect(await page.getByTestId('valuation-coin').textContent()).toBe(await total.textContent());
    expect(await page.getByTestId('valuation-contract').textContent()).toBe('0.00');
    // The tab bar: every tab of SPEC 2 now has its page (Home, Spot, Option, Lever, Trust, Assets).
    const tabs = page.getByRole('navigation', { name: text('en', 'nav.tabs') });
    expect(await tabs.getByRole('link').allTextContents()).toEqual([
      text('en', 'tabs.home'),
      text('en', 'tabs.spot'),
      text('en', 'tabs.option'),
      text('en', 'tabs.lever'),
      text('en', 'tabs.finance'),
      text('en', 'tabs.assets'),
    ]);
    expect(await tabs.getByRole('link', { name: text('en', 'tabs.assets') }).getAttribute('aria-current')).toBe('page');
    // Deposit and withdraw are one tap away (the links appear because those pages exist).
    expect(await page.getByRole('link', { name: text('en', 'assets.deposit') }).count()).toBe(1);
    expect(await page.getByRole('link', { name: text('en', 'assets.withdraw') }).count()).toBe(1);
    await shot(page, 'assets-index');

    // Pull to refresh: a drag from the top reloads the balances.
    const before = listCalls.length;
    await pullDown(page, 400);
    await expect.poll(() => listCalls.length, { timeout: 10_000 }).toBeGreaterThan(before);
    await expect.poll(() => page.getByTestId('pull-to-refresh').getAttribute('data-phase')).toBe('idle');
    // A short drag springs back without a reload. No sleep: the page records every phase the indicator takes and
    // notes when the release has been through the page's own handlers (a window listener runs after React's, and
    // React commits a touch's updates before the next listener). A refresh would have shown 'refreshing' by then.
    const afterPull = listCalls.length;
    await page.evaluate(() => {
      const ptr = document.querySelector('[data-testid="pull-to-refresh"]');
      const seen = { phases: [ptr?.getAttribute('data-phase')], released: false };
      Object.assign(window, { shortPull: seen });
      new MutationObserver(() => seen.phases.push(ptr?.getAttribute('data-phase'))).observe(ptr as Element, {
        attributeFilter: ['data-phase'],
      });
      window.addEventListener('touchend', () => queueMicrotask(() => Object.assign(seen, { released: true })), {
        once: true,
      });
    });
    await pullDown(page, 60);
    const seen = () =>
      page.evaluate(() => (window as unknown as { shortPull: { phases: string[]; released: boolean } }).shortPull);
    await expect.poll(async () => (await seen()).released, { timeout: 10_000 }).toBe(true);
    const { phases } = await seen();
    expect(phases.at(-1)).toBe('idle');
    expect(phases).not.toContain('armed');
    expect(phases).not.toContain('refreshing');
    expect(listCalls.length).toBe(afterPull);

    // Transfer 125.5 USDT from the spot to the contract account.
    await page.getByRole('link', { name: text('en', 'assets.transferAction') }).click();
    await page.waitForURL((u) => u.pathname === '/pages/assets/transfer/index');
    expect(await page.getByTestId('transfer-from').inputValue()).toBe('coin');
    expect(await page.getByTestId('transfer-to').inputValue()).toBe('contract');
    await expect.poll(() => page.getByTestId('transfer-balances').textContent()).toContain('500.00 USDT');
    const amount = page.getByLabel(text('en', 'assets.transfer.amount'));
    const submit = page.getByRole('button', { name: text('en', 'assets.transfer.submit') });

    // Bad input is explained before anything is sent.
    await amount.fill('0');
    await submit.click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain(errors.amountNotPositive);
    await amount.fill('600');
    await submit.click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContain(errors.insufficientBalance);

    // The first answer is lost on the way back (the server did apply it); the retry carries the same request id.
    const sent: string[] = [];
    await page.route('**/api/wallet/change', async (route) => {
      sent.push(new URLSearchParams(route.request().postData() ?? '').get('request_id') ?? '');
      if (sent.length > 1) return route.continue();
      await route.fetch();
      await route.abort('failed');
    });
    await amount.fill('125.5');
    await submit.click();
    await page.getByText(text('en', 'net.offline')).waitFor();
    await submit.click();
    await page.getByTestId('transfer-receipt').waitFor();
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toBe(sent[0]);
    await page.getByText(text('en', 'assets.transfer.success')).waitFor();
    await expect.poll(() => page.getByTestId('transfer-balances').textContent()).toContain('374.50 USDT');
    expect(await page.getByTestId('transfer-balances').textContent()).toContain('125.50 USDT');
    expect(await amount.inputValue()).toBe('');
    await shot(page, 'assets-transfer');

    // Applied once, and the ledger is sound.
    await withLedger(async (ledger, handle) => {
      const balances = await ledger.balances(user.id, 'real');
      expect(balances.find((b) => b.type === 'coin' && b.currency === 'USDT')?.balance).toBe(374_500_000);
      expect(balances.find((b) => b.type === 'contract' && b.currency === 'USDT')?.balance).toBe(125_500_000);
      expect(describeProblems(await checkLedger(handle.db))).toEqual([]);
    });

    // The transfer record lists it.
    await page.getByRole('link', { name: text('en', 'assets.transfer.recordTitle') }).click();
    await page.waitForURL((u) => u.pathname === '/pages/assets/transfer/record');
    const line = page.getByTestId('transfer-line');
    await expect.poll(() => line.count()).toBe(1);
    const row = (await line.textContent()) ?? '';
    expect(row).toContain(text('en', 'assets.short.coin'));
    expect(row).toContain(text('en', 'assets.short.contract'));
    expect(row).toContain('125.50 USDT');
    await shot(page, 'assets-transfer-record');

    // Back on the assets tab the contract account holds the money.
    await page.goto(at('/pages/assets/index'));
    await expect.poll(() => page.getByTestId('valuation-contract').textContent(), { timeout: 10_000 }).toBe('125.50');

    // And the full history shows both sides of the transfer.
    await page.goto(at('/pages/assets/record'));
    await expect.poll(() => page.getByTestId('ledger-line').count()).toBe(4);
    const lines = await page.getByTestId('ledger-line').allTextContents();
    expect(lines[0]).toContain('+125.50 USDT');
    expect(lines[1]).toContain('-125.50 USDT');
  });

  it('an account page lists the balances of one account type and reloads from the keyboard refresh button', async () => {
    const user = (await loggedInUser(server, page, 'assets-e2e-2@example.com')).user;
    await fund(user.id, 'BTC', '0.01');
    await page.goto(at('/pages/assets/tradeAccount?type=coin'));
    await expect.poll(() => page.getByTestId('available-BTC').textContent(), { timeout: 15_000 }).toBe('0.01\u00a0BTC');
    let reloads = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/wallet/list')) reloads += 1;
    });
    // The refresh button works for keyboard users too.
    await page.keyboard.press('Tab');
    const refresh = page.getByRole('button', { name: text('en', 'pull.refresh') });
    await refresh.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => reloads).toBeGreaterThan(0);
    await page.getByRole('tab', { name: text('en', 'assets.short.trust') }).click();
    await page.waitForURL((u) => u.search.includes('type=trust'));
    await expect.poll(() => page.getByTestId('account-valuation').textContent()).toBe('0.00');
  });

  it('in German and light: the valuation method from the left menu, with the prices behind the own holdings', async () => {
    const de = (key: string) => text('de', key);
    const user = (await loggedInUser(server, page, 'assets-e2e-3@example.com', { lang: 'de', theme: 'light' })).user;
    await fund(user.id, 'ETH', '0.25');
    await page.goto(at('/pages/index/index'));
    await page.getByRole('button', { name: de('nav.menu') }).click();
    await page.getByRole('link', { name: de('menu.valuation') }).click();
    await page.waitForURL((u) => u.pathname === '/pages/assets/valuation');
    await expect.poll(() => page.locator('.navbar-title').textContent()).toBe(de('valuation.title'));
    const prices = page.getByTestId('valuation-prices');
    await prices.waitFor({ timeout: 15_000 });
    // The one coin held, priced at its last USDT trade (the same answer the assets tab values it with).
    const rows = prices.locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('th').textContent()).toBe('ETH');
    expect(await rows.first().textContent()).toContain(de('valuation.source.last'));
    await shot(page, 'valuation-light-de');
  });
});
