import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../server/ledger/amounts';
import { Ledger } from '../../server/ledger/ledger';
import { openSqlite } from '../../server/platform/db/connect';
import {
  browserPerTest,
  type InProcessServer,
  type RunningServer,
  shot,
  startServer,
  startServerInProcess,
} from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Spot trading in a real Chromium at 375x812 against the real server: a funded user buys BTC at market and sees the
 * fill (its tick, re-checked against the price record) and the USDT balance drop; places a limit buy far below the
 * price, sees it rest in the open orders and cancels it; then sells what was bought; stale prices disable the ticket.
 */
let server: RunningServer;
let page: Page;

/** Test set-up only, never a product path: money straight through the ledger, like an approved deposit. */
async function fund(userId: number, currency: string, amount: string) {
  const parsed = parseAmount(currency, amount);
  if (!parsed.ok) throw new Error(parsed.error);
  const handle = openSqlite(join(server.dataDir, 'app.db'));
  try {
    await new Ledger(handle).credit({
      userId,
      requestId: `e2e-spot-${currency}-${amount}`,
      kind: 'deposit',
      currency,
      amount: parsed.units,
      from: 'deposits_clearing',
      to: 'coin',
    });
  } finally {
    await handle.db.destroy();
  }
}

const available = async () => (await page.getByTestId('ticket-available').textContent()) ?? '';
/** A text with its {{placeholders}} filled in (the locale helper leaves them). */
const filled = (key: string, values: Record<string, string | number>) =>
  text('en', key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
const number = (s: string) => Number(s.replace(/[^\d.]/g, ''));

describe('spot trading in the browser', () => {
  browserPerTest(
    startServer,
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('buys at market, rests and cancels a limit, sells', async () => {
    const user = (await loggedInUser(server, page, 'spot-e2e@example.com')).user;
    await fund(user.id, 'USDT', '1000');
    await page.goto(`${server.url}/pages/trade/index?symbol=BTC`);

    // The Spot, Option, Lever and Trust tabs sit between Home and Assets.
    const tabs = page.getByRole('navigation', { name: text('en', 'nav.tabs') });
    // The tab bar renders with the page; wait for it rather than read it at once (a busy machine is slower).
    await expect.poll(() => tabs.getByRole('link').count(), { timeout: 15_000 }).toBe(6);
    expect(await tabs.getByRole('link').allTextContents()).toEqual([
      text('en', 'tabs.home'),
      text('en', 'tabs.spot'),
      text('en', 'tabs.option'),
      text('en', 'tabs.lever'),
      text('en', 'tabs.finance'),
      text('en', 'tabs.assets'),
    ]);
    await expect.poll(() => page.getByTestId('spot-last').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    await expect.poll(available, { timeout: 15_000 }).toContain('1,000.00');
    expect(await page.getByTestId('risk-note').isVisible()).toBe(true);

    // Market buy by USDT amount: 100 USDT.
    const submitBuy = page.getByRole('button', { name: filled('spot.submitBuy', { coin: 'BTC' }) });
    await expect.poll(() => submitBuy.isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.getByRole('tab', { name: text('en', 'spot.byAmount') }).click();
    await page.getByTestId('ticket-amount').fill('100');
    await expect.poll(() => page.getByTestId('estimate-total').textContent()).toMatch(/\d/);
    await submitBuy.click();
    // A market order waits on its confirmation sheet: the tick it fills at, and the estimate at that price.
    await expect.poll(() => page.getByTestId('confirm-sheet').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId('confirm-side').textContent()).toBe(text('en', 'spot.buy'));
    expect(await page.getByTestId('confirm-fill').textContent()).toMatch(/\d/);
    expect(await page.getByTestId('confirm-total').textContent()).toMatch(/\d.*USDT/);
    expect(await page.getByTestId('order-status').count()).toBe(0);
    await page.getByTestId('confirm-action').click();
    await expect
      .poll(() => page.getByTestId('order-status').getAttribute('data-phase'), { timeout: 20_000 })
      .toBe('completed');
    // A buy by amount spends at most the amount: the quantity is cut to its step (BTC: 0.00001, under 1 USDT).
    await expect.poll(async () => number(await available()), { timeout: 10_000 }).toBeLessThan(901);
    expect(number(await available())).toBeGreaterThanOrEqual(900);
    await shot(page, 'spot-market-buy');

    // The fill in the history: its tick, price, value, fee and total.
    await page.getByRole('tab', { name: text('en', 'spot.tabs.history') }).click();
    const history = page.getByTestId('order-history');
    await expect.poll(() => history.locator('li').count(), { timeout: 10_000 }).toBe(1);
    await history.getByRole('button', { name: text('en', 'spot.orders.details') }).click();
    expect(await page.getByTestId('fill-tick').textContent()).toMatch(/#\d+/);
    expect(await page.getByTestId('fill-fee').textContent()).toContain('USDT');

    // The client re-checks the fill against the price record: its tick is sealed about a second after the fill
    // (the mark asks again meanwhile), then the chain is folded up to the head and the rule recomputed.
    const recheck = page.getByTestId('recheck');
    await expect.poll(() => recheck.getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    const [okBefore] = text('en', 'spot.recheck.ok').split('{{');
    expect(await recheck.textContent()).toMatch(new RegExp(`${okBefore}\\d+`));
    await recheck.getByRole('button', { name: text('en', 'spot.recheck.what') }).click();
    const seq = (await page.getByTestId('fill-tick').textContent())?.match(/#(\d+)/)?.[1];
    expect(await page.getByTestId('recheck-explain').textContent()).toContain(`#${seq}`);

    // A limit buy far below the price rests, then is cancelled and its hold released.
    await page.getByRole('button', { name: text('en', 'spot.newOrder') }).click();
    await page.getByRole('tab', { name: text('en', 'spot.limit') }).click();
    await page.getByTestId('ticket-price').fill('1000');
    await page.getByTestId('ticket-qty').fill('0.01');
    const before = number(await available());
    await submitBuy.click();
    await expect
      .poll(() => page.getByTestId('order-status').getAttribute('data-phase'), { timeout: 20_000 })
      .toBe('pending');
    await page.getByRole('tab', { name: text('en', 'spot.tabs.open') }).click();
    const open = page.getByTestId('open-orders');
    await expect.poll(() => open.locator('li[data-state="pending"]').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => number(await available())).toBeLessThan(before);
    await open.getByRole('button', { name: text('en', 'spot.orders.cancel') }).click();
    await expect.poll(() => page.getByText(text('en', 'spot.orders.empty')).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => number(await available()), { timeout: 10_000 }).toBe(before);

    // Sell what was bought: 100% of the coin at market.
    await page.getByRole('button', { name: text('en', 'spot.sell') }).click();
    await page.getByRole('tab', { name: text('en', 'spot.market') }).click();
    await page.getByRole('button', { name: filled('spot.percentOf', { pct: 100 }) }).click();
    expect(number(await page.getByTestId('ticket-qty').inputValue())).toBeGreaterThan(0);
    await page.getByRole('button', { name: filled('spot.submitSell', { coin: 'BTC' }) }).click();
    await page.getByTestId('confirm-action').click();
    await expect
      .poll(() => page.getByTestId('order-status').getAttribute('data-phase'), { timeout: 20_000 })
      .toBe('completed');
    await shot(page, 'spot-sell');
  });

  it('goes straight out, without the sheet, once the trader turns the confirmation off in settings', async () => {
    const user = (await loggedInUser(server, page, 'spot-skip@example.com', { lang: 'de' })).user;
    await fund(user.id, 'USDT', '100');
    await page.goto(`${server.url}/pages/settings/index`);
    const toggle = page.getByRole('switch', { name: text('de', 'orderConfirm.spot') });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    // The other product keeps its own choice.
    expect(
      await page.getByRole('switch', { name: text('de', 'orderConfirm.lever') }).getAttribute('aria-checked'),
    ).toBe('true');
    // Kept across a reload, and the market buy goes out at once.
    await page.goto(`${server.url}/pages/trade/index?symbol=BTC`);
    const submitBuy = page.getByRole('button', { name: text('de', 'spot.submitBuy').replace('{{coin}}', 'BTC') });
    await expect.poll(() => submitBuy.isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.getByRole('tab', { name: text('de', 'spot.byAmount') }).click();
    await page.getByTestId('ticket-amount').fill('20');
    await submitBuy.click();
    await expect
      .poll(() => page.getByTestId('order-status').getAttribute('data-phase'), { timeout: 20_000 })
      .toBe('completed');
    expect(await page.getByTestId('confirm-sheet').count()).toBe(0);
  });
});

describe('spot trading when prices go stale', () => {
  let live: InProcessServer;
  browserPerTest(
    startServerInProcess,
    (s) => {
      live = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('a stopped feed disables buying and selling until prices are fresh again', async () => {
    await loggedInUser(live, page, 'spot-stale@example.com');
    await page.goto(`${live.url}/pages/trade/index?symbol=BTC`);
    await page.getByRole('tab', { name: text('en', 'spot.limit') }).click();
    await page.getByTestId('ticket-price').fill('1000');
    await page.getByTestId('ticket-qty').fill('0.01');
    const submitBuy = page.getByRole('button', { name: filled('spot.submitBuy', { coin: 'BTC' }) });
    const blocked = page.getByText(text('en', 'spot.staleBlocked'));
    await expect.poll(() => blocked.count(), { timeout: 15_000 }).toBe(0);
    live.feed.stop();
    try {
      await expect.poll(() => blocked.count(), { timeout: 15_000 }).toBe(1);
      // The live book tells the note and then the ticket's machine; on a loaded machine React may draw them in
      // different frames, so wait for each button to be disabled rather than read it once.
      await expect.poll(() => submitBuy.isDisabled(), { timeout: 15_000 }).toBe(true);
      await page.getByRole('button', { name: text('en', 'spot.sell') }).click();
      const submitSell = page.getByRole('button', { name: filled('spot.submitSell', { coin: 'BTC' }) });
      await expect.poll(() => submitSell.isDisabled(), { timeout: 15_000 }).toBe(true);
      await shot(page, 'spot-stale');
    } finally {
      live.feed.start();
    }
    await expect.poll(() => blocked.count(), { timeout: 15_000 }).toBe(0);
  });
});
