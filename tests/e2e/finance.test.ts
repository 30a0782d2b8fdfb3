import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { interestDueAt } from '../../protocol/rules/finance';
import { accrueFinance, runFinanceCommand, withFinance } from '../../server/domains/finance';
import { Ledger } from '../../server/ledger/ledger';
import { browserPerTest, type InProcessServer, shot, startServerInProcess } from './harness';
import { depositDirectly, withServerDatabase } from './ledger-seed';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Finance in a real Chromium at 375x812 against the real server: a user buys a trust product from the Trust tab,
 * sees the first day's interest once the accrual job has run at the next 00:00 UTC (the job itself, run at that time
 * on the server's database: no result is faked), then redeems early and sees the penalty before confirming.
 */
let server: InProcessServer;
let page: Page;

/** The operator's commands (npm run ops -- finance ...), run on the server's database. */
const finance = (...words: string[]) =>
  withServerDatabase(server, async (handle) => {
    const lines: string[] = [];
    const code = await runFinanceCommand(words, handle.db, (l) => lines.push(l));
    if (code !== 0) throw new Error(lines.join('\n'));
    return lines;
  });

/** The accrual job, run at `at` (the test's way to reach the next 00:00 UTC without waiting for it). */
const accrueAt = (at: number) =>
  withServerDatabase(server, (handle) =>
    accrueFinance({ database: handle, ledger: new Ledger(handle), now: () => at }, { at }),
  );

/** The server's and the form's messages (the `errors` table, which the shared `text` helper leaves out). */
const errors = JSON.parse(readFileSync(new URL('../../locales/en/errors.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>;

const number = (s: string | null) => Number((s ?? '').replace(/[^\d.-]/g, ''));

describe('finance in the browser', () => {
  browserPerTest(
    () => startServerInProcess(),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('buys a trust product, sees the first day of interest after the job runs, and redeems early with the penalty shown', async () => {
    await finance('fund', 'USDT', '100000');
    await finance('add', 'trust', 'USDT', '30', '0.0015', '100', '50000', 'USDT Trust 30');
    const session = await loggedInUser(server, page, 'finance-buyer@example.com');
    await depositDirectly(server, {
      userId: session.user.id,
      requestId: 'e2e-finance',
      currency: 'USDT',
      amount: '2000',
      to: 'trust',
    });

    await page.goto(`${server.url}/pages/template/index`);
    const card = page.locator('[data-testid^="finance-product-trust-"]').first();
    await card.waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('USDT Trust 30');
    expect(await page.getByTestId('risk-note').isVisible()).toBe(true);
    await shot(page, 'finance-tab-dark-en');
    await card.click();

    // The buy page: exact figures as the user types, the agreement required.
    const amount = page.getByTestId('finance-amount');
    await amount.waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('finance-available').textContent()).toContain('2,000');
    await amount.fill('1000');
    await expect.poll(() => page.getByTestId('preview-daily').textContent()).toContain('1.5');
    expect(number(await page.getByTestId('preview-total').textContent())).toBe(45);
    await page.getByTestId('finance-submit').click();
    await expect.poll(() => page.getByText(errors.financeAgreeRequired ?? '?').count()).toBe(1);
    await page.getByRole('checkbox').check();
    await shot(page, 'finance-buy-dark-en');
    await page.getByTestId('finance-submit').click();

    // The orders page: running, nothing paid yet.
    await page.waitForURL(/finance\/ordersPage/, { timeout: 15_000 });
    const order = page.locator('[data-testid^="finance-order-"]').first();
    await order.waitFor({ timeout: 15_000 });
    expect(await order.textContent()).toContain('1,000');

    // The next 00:00 UTC comes: the job pays the first day (1000 × 0.15% = 1.5 USDT).
    // The order's own interest start (a run across 00:00 UTC must not count a day the order has not had).
    const { start_day: start } = await withServerDatabase(server, (handle) =>
      withFinance(handle.db)
        .selectFrom('finance_orders')
        .select('start_day')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow(),
    );
    const paid = await accrueAt(interestDueAt(start, 1));
    expect(paid.days).toBe(1);
    await page.reload();
    await order.waitFor({ timeout: 15_000 });
    await expect.poll(() => order.textContent(), { timeout: 15_000 }).toContain('1.50 USDT');

    // Early redemption: the penalty is shown before confirming (1000 × 0.4% × 29 days left = 116).
    await page.getByTestId('order-redeem').click();
    await expect.poll(() => page.getByTestId('redeem-penalty').textContent()).toContain('116');
    expect(await page.getByTestId('redeem-returned').textContent()).toContain('884');
    await shot(page, 'finance-redeem-dark-en');
    await page.getByTestId('redeem-confirm').click();
    await page.getByRole('tab', { name: text('en', 'finance.orders.states.redeemed') }).click();
    await expect.poll(() => page.getByTestId('order-penalty').textContent(), { timeout: 15_000 }).toContain('116');
  });

  it('reads naturally in German in the light theme, and a product without reserve shows as sold out', async () => {
    await finance('add', 'hosting', 'USDC', '7', '0.001', '50', '1000', 'USDC Hosting 7');
    await loggedInUser(server, page, 'finance-de@example.com', { lang: 'de', theme: 'light' });
    await page.goto(`${server.url}/pages/template/index`);
    await page.getByRole('tab', { name: text('de', 'finance.families.hosting') }).click();
    const card = page.locator('[data-testid^="finance-product-hosting-"]').first();
    await card.waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain(text('de', 'finance.product.soldOut'));
    await shot(page, 'finance-tab-light-de');
    await page.goto(`${server.url}/pages/finance/rulePage`);
    await expect.poll(() => page.getByTestId('rule-examples').textContent(), { timeout: 15_000 }).toContain('600');
    await shot(page, 'finance-rules-light-de');
  });
});
