import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleOperator } from './console-session';
import { browserPerTest, type RunningServer, shot, startServer } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * The console's Machines screen (role qa) in a real Chromium against the real server: a QA operator lands on it, sees
 * every order machine, opens the lever position's, finds its drawing (a state of docs/machines/lever-order.svg) and
 * its model-based test paths with their steps, by keyboard too; in German and dark as well. An operator with only the
 * support role has no such screen, not even at its address.
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

const en = (key: string) => text('en', key);
const de = (key: string) => text('de', key);
const MACHINES = [
  'C2C order',
  'IEO subscription',
  'Lever close-all',
  'Lever position',
  'Option contract',
  'Spot order',
];

describe('the Machines screen of the support console', () => {
  it('a qa operator opens the lever machine: its drawing and its test paths with their steps', async () => {
    const browser = await consoleOperator(server, 'quinn', ['qa'], '/ops/machines');
    try {
      const ops: Page = browser.page;
      const nav = ops.getByRole('navigation', { name: en('console.navLabel') });
      expect(await nav.getByRole('link').allTextContents()).toEqual([
        en('console.nav.machines'),
        en('console.nav.liveOrders'),
      ]);
      await ops.getByRole('heading', { level: 1, name: en('console.nav.machines') }).waitFor();
      const list = ops.getByRole('list', { name: en('console.machines.list') });
      for (const name of MACHINES) await list.getByRole('button', { name: new RegExp(name) }).waitFor();
      await ops.getByText(en('console.machines.choose')).waitFor();
      await ops.getByRole('button', { name: en('console.theme.light') }).click();
      await shot(ops, 'qa-machines-list-en-light');

      // By keyboard: the lever machine's button, Enter; the focus moves to the machine's heading.
      const lever = list.getByRole('button', { name: /Lever position/ });
      await lever.focus();
      await ops.keyboard.press('Enter');
      expect(await lever.getAttribute('aria-pressed')).toBe('true');
      const detail = ops.getByTestId('ops-machine');
      const title = detail.getByRole('heading', { level: 2, name: 'Lever position' });
      await title.waitFor();
      await expect.poll(() => title.evaluate((h) => h === document.activeElement)).toBe(true);

      // The drawing, loaded by id, with no state marked.
      const chart = detail.getByTestId('machine-chart');
      expect(await chart.getAttribute('data-drawing')).toBe('lever-order');
      await chart.locator('svg g[data-state="leverOrder.order.holding"]').waitFor({ timeout: 15_000 });
      expect(await chart.locator('g[data-current]').count()).toBe(0);
      expect(await chart.getByTestId('machine-chart-now').count()).toBe(0);
      await shot(ops, 'qa-machines-lever-en-light');

      // The test paths by walk; one opened by keyboard shows its numbered steps, the first the machine's start.
      await detail.getByRole('heading', { level: 3, name: en('console.machines.paths') }).waitFor();
      const walks = await detail.locator('.ops-walk-title').allTextContents();
      expect(walks.some((w) => w.includes('“shortest”'))).toBe(true);
      const path = detail.locator('[data-walk="shortest"][data-reaches="order.holding, prices.fresh"]');
      expect(await path.locator('summary').textContent()).toMatch(/^reaches order\.holding, prices\.fresh 4 steps$/);
      await path.locator('summary').focus();
      await ops.keyboard.press('Enter');
      const steps = path.locator('.ops-path-steps > li');
      await steps.first().waitFor();
      expect(await steps.count()).toBeGreaterThan(1);
      expect(await steps.first().textContent()).toMatch(/^start → .*order\.entering/);
      expect(await steps.nth(1).textContent()).toMatch(/^PRICES_FRESH → .*order\.entering, prices\.fresh$/);
      expect(await steps.last().textContent()).toContain('order.holding, prices.fresh');
      await path.scrollIntoViewIfNeeded();
      await shot(ops, 'qa-machines-lever-path-en-light');

      // German, dark.
      await ops.getByRole('combobox', { name: en('console.language') }).selectOption('de');
      await ops.getByRole('heading', { level: 1, name: de('console.nav.machines') }).waitFor();
      await ops.getByRole('button', { name: de('console.theme.dark') }).click();
      await detail.getByRole('heading', { level: 3, name: de('console.machines.paths') }).waitFor();
      expect(await path.locator('summary').textContent()).toMatch(/^erreicht order\.holding, prices\.fresh/);
      await shot(ops, 'qa-machines-lever-path-de-dark');
      await ops.evaluate(() => window.scrollTo(0, 0));
      await shot(ops, 'qa-machines-lever-de-dark');
      await ops.setViewportSize({ width: 1280, height: 860 });
      await title.scrollIntoViewIfNeeded();
      await shot(ops, 'qa-machines-lever-de-dark-desktop');
    } finally {
      await browser.close();
    }
  });

  it('an operator with only the support role does not see the screen, not even at its address', async () => {
    const browser = await consoleOperator(server, 'sam', ['support'], '/ops/support');
    try {
      const ops = browser.page;
      const nav = ops.getByRole('navigation', { name: en('console.navLabel') });
      await nav.getByRole('link', { name: en('console.nav.support') }).waitFor();
      expect(await nav.getByRole('link', { name: en('console.nav.machines') }).count()).toBe(0);
      await ops.goto(`${server.url}/ops/machines`);
      await ops.waitForURL((url) => url.pathname === '/ops/support', { timeout: 15_000 });
      expect(await ops.getByTestId('ops-machine').count()).toBe(0);
      expect(await ops.getByRole('heading', { name: en('console.nav.machines') }).count()).toBe(0);
      await ops.goto(`${server.url}/ops/live`);
      await ops.waitForURL((url) => url.pathname === '/ops/support', { timeout: 15_000 });
      expect(await ops.getByTestId('ops-live-order').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });

  it('a qa operator follows a user’s option contract live: its actor on its machine and the events it received', async () => {
    // The user buys on the simulator; the app reports the ticket's actor as it goes.
    const email = 'live-order@example.com';
    await loggedInUser(server, page, email);
    await page.goto(`${server.url}/pages/option/simulator?symbol=BTC`);
    await page.getByTestId('period-30').click();
    await page.getByTestId('ticket-stake').fill('10');
    const up = page.getByTestId('buy-up');
    await expect.poll(() => up.isEnabled(), { timeout: 15_000 }).toBe(true);
    await up.click();
    const status = page.getByTestId('contract-status');
    await expect.poll(() => status.getAttribute('data-phase'), { timeout: 20_000 }).toBe('running');

    const browser = await consoleOperator(server, 'lena', ['qa'], '/ops/machines');
    try {
      const ops: Page = browser.page;
      await ops
        .getByRole('navigation', { name: en('console.navLabel') })
        .getByRole('link', { name: en('console.nav.liveOrders') })
        .click();
      await ops.getByRole('heading', { level: 1, name: en('console.nav.liveOrders') }).waitFor();
      await ops.getByLabel(en('console.live.user')).fill(email);
      await ops.getByRole('button', { name: en('console.live.search'), exact: true }).click();
      const list = ops.getByRole('list', { name: en('console.live.list') });
      const row = list.getByRole('button', { name: /option-contract #\d+/ });
      await row.waitFor({ timeout: 15_000 });
      expect(await list.getByRole('button').count()).toBe(1);
      await row.click();

      // The ticket's actor from its start: the steps before the order existed came with the first that named it.
      const detail = ops.getByTestId('ops-live-order');
      const timeline = detail.getByRole('log', { name: en('console.live.timeline') }).first();
      await expect
        .poll(() => timeline.locator('.ops-path-event').allTextContents(), { timeout: 15_000 })
        .toEqual(expect.arrayContaining(['xstate.init', 'SUBMIT', 'CONTRACT_UPDATE']));
      const events = await timeline.locator('.ops-path-event').allTextContents();
      expect(events[0]).toBe('xstate.init');
      expect(events.indexOf('SUBMIT')).toBeLessThan(events.indexOf('CONTRACT_UPDATE'));
      const chart = detail.getByTestId('machine-chart').first();
      expect(await chart.getAttribute('data-drawing')).toBe('option-contract');
      await chart.locator('g[data-state="optionContract.contract.running"][data-current]').waitFor({ timeout: 15_000 });
      await shot(ops, 'qa-live-order-running-en-dark');

      // Live: at expiry the contract settles in the user's app, and the console follows without a reload.
      await expect
        .poll(() => status.getAttribute('data-phase'), { timeout: 60_000 })
        .toMatch(/^(won|lost|flat|refunded)$/);
      const result = await status.getAttribute('data-phase');
      await chart
        .locator(`g[data-state="optionContract.contract.${result}"][data-current]`)
        .waitFor({ timeout: 15_000 });
      await expect.poll(() => timeline.locator('li').count()).toBeGreaterThan(events.length);
      await shot(ops, 'qa-live-order-settled-en-dark');
    } finally {
      await browser.close();
    }
  });
});
