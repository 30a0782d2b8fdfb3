import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appTookOver, browserPerTest, type RunningServer, startServer } from './harness';
import { depositDirectly } from './ledger-seed';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Issue 15, motion and speech, in a real Chromium against the real server (a tick a second, the price record on):
 * - under `prefers-reduced-motion: reduce` nothing animates or transitions, live price cells included, while prices
 *   tick; without it the same elements do move (so the check can fail);
 * - live prices are never inside a live region, so a screen reader does not read out every tick, while the result of
 *   each order is: a spot fill, a spot cancel from the open orders, an option contract's settlement, a lever close.
 *
 * What reaches a live region is recorded in the page from its first byte by a MutationObserver: every change whose
 * nearest live ancestor (aria-live polite or assertive, role status, alert or log; aria-live="off" ends the search)
 * is a live region, with that region's text afterwards.
 */
let server: RunningServer;
let page: Page;

const SETTLED = ['won', 'lost', 'flat', 'refunded'];

/** Records, in the page, each change inside a live region (the region's text after it). */
function recordAnnouncements(): void {
  const w = window as unknown as { __said: string[] };
  w.__said = [];
  const regionOf = (node: Node): Element | null => {
    for (let el = node instanceof Element ? node : node.parentElement; el; el = el.parentElement) {
      const live = el.getAttribute('aria-live');
      if (live === 'off') return null;
      if (live === 'polite' || live === 'assertive') return el;
      if (['status', 'alert', 'log'].includes(el.getAttribute('role') ?? '')) return el;
    }
    return null;
  };
  new MutationObserver((records) => {
    for (const r of records) {
      const region = regionOf(r.target);
      if (region) w.__said.push((region.textContent ?? '').trim());
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/** What reached a live region since the last call (and forgets it). */
const said = (): Promise<string[]> =>
  page.evaluate(() => {
    const w = window as unknown as { __said: string[] };
    return w.__said.splice(0).filter(Boolean);
  });

/** Waits until `cell` has shown `times` different values in a row: the prices are moving. */
async function ticks(cell: Locator, times: number): Promise<void> {
  let last = await cell.textContent();
  for (let i = 0; i < times; i++) {
    await expect.poll(() => cell.textContent(), { timeout: 15_000 }).not.toBe(last);
    last = await cell.textContent();
  }
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Animation name and transition property of each element `selector` matches. */
const motionOf = (selector: string) =>
  page.evaluate(
    (sel) =>
      [...document.querySelectorAll(sel)].map((el) => {
        const s = getComputedStyle(el);
        return `${s.animationName} / ${s.transitionProperty}`;
      }),
    selector,
  );

describe('motion and live regions', () => {
  browserPerTest(
    () => startServer(),
    (s) => {
      server = s;
    },
    async (b) => {
      page = b.page;
      await page.addInitScript(recordAnnouncements);
    },
  );

  it('stops every animation and transition under reduced motion, live price cells included', async () => {
    await page.goto(`${server.url}/pages/index/index`);
    await appTookOver(page);
    const btc = page.locator('.quote-row[data-symbol="BTC"] [data-testid="last"]');
    await expect.poll(() => btc.textContent(), { timeout: 15_000 }).toMatch(/\d/);
    // A spinner and a field: the app's endless animation and its focus ring's transition.
    await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.id = 'motion-probe';
      probe.innerHTML = '<span class="spinner"></span><div class="field-box"></div>';
      document.querySelector('.page-body')?.append(probe);
    });
    expect(await motionOf('#motion-probe .spinner, #motion-probe .field-box')).toEqual([
      'spin / all',
      'none / border-color',
    ]);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await motionOf('#motion-probe .spinner, #motion-probe .field-box')).toEqual(['none / none', 'none / none']);
    // The live cells (price, 24 h change) neither animate nor transition while they tick, and nothing else runs; nor
    // is any of them read out (the market list is in no live region).
    await said();
    for (let i = 0; i < 3; i++) {
      await ticks(btc, 1);
      const cells = await motionOf('[data-testid="last"], .change');
      expect(cells.length).toBeGreaterThan(10);
      expect(new Set(cells)).toEqual(new Set(['none / none']));
      expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
    }
    expect(await said()).toEqual([]);
    await page.evaluate(() => document.getElementById('motion-probe')?.remove());
  });

  it('spot: the ticker ticks in silence; a fill and a cancel from the open orders are announced', async () => {
    const { user } = await loggedInUser(server, page, 'a11y-live-spot@example.com');
    await depositDirectly(server, {
      userId: user.id,
      requestId: 'e2e-a11y-live',
      currency: 'USDT',
      amount: '1000',
      to: 'coin',
    });

    // Spot: the market list and the ticker tick in silence.
    await page.goto(`${server.url}/pages/trade/index?symbol=BTC`);
    const spotLast = page.getByTestId('spot-last');
    await expect.poll(() => spotLast.textContent(), { timeout: 15_000 }).toMatch(/\d/);
    const submitBuy = page.getByRole('button', { name: text('en', 'spot.submitBuy').replace('{{coin}}', 'BTC') });
    await expect.poll(() => submitBuy.isEnabled(), { timeout: 15_000 }).toBe(true);
    await said();
    await ticks(spotLast, 5);
    expect(await said()).toEqual([]);

    // A market buy: its fill is announced.
    await page.getByRole('tab', { name: text('en', 'spot.byAmount') }).click();
    await page.getByTestId('ticket-amount').fill('50');
    await submitBuy.click();
    await page.getByTestId('confirm-action').click();
    await expect
      .poll(() => page.getByTestId('order-status').getAttribute('data-phase'), { timeout: 20_000 })
      .toBe('completed');
    await expect.poll(said, { timeout: 10_000 }).toContain(text('en', 'spot.phase.completed'));

    // A resting limit buy, cancelled from the open orders: the row leaves, and the cancel is announced.
    await page.getByRole('button', { name: text('en', 'spot.newOrder') }).click();
    await page.getByRole('tab', { name: text('en', 'spot.limit') }).click();
    await page.getByTestId('ticket-price').fill('1000');
    await page.getByTestId('ticket-qty').fill('0.01');
    await submitBuy.click();
    const open = page.getByTestId('open-orders');
    await expect.poll(() => open.locator('li[data-state="pending"]').count(), { timeout: 20_000 }).toBe(1);
    const id = (await open.locator('li').first().getAttribute('data-testid'))?.replace('order-', '') ?? '';
    await said();
    await open.getByRole('button', { name: text('en', 'spot.orders.cancelOrder').replace('{{id}}', id) }).click();
    const cancelled = text('en', 'spot.orders.cancelled').replace('{{id}}', id);
    await expect.poll(said, { timeout: 10_000 }).toEqual(expect.arrayContaining([expect.stringContaining(cancelled)]));
  });

  it('options: a running contract counts down in silence; its result is announced with the payout', async () => {
    await loggedInUser(server, page, 'a11y-live-options@example.com');
    // A 30 s contract on the simulator: its countdown and standing change without a word.
    await page.goto(`${server.url}/pages/option/simulator?symbol=BTC`);
    const optionLast = page.getByTestId('option-last');
    await expect.poll(() => optionLast.textContent(), { timeout: 15_000 }).toMatch(/\d/);
    await page.getByTestId('period-30').click();
    await page.getByTestId('ticket-stake').fill('10');
    const up = page.getByTestId('buy-up');
    await expect.poll(() => up.isEnabled(), { timeout: 15_000 }).toBe(true);
    await up.click();
    const status = page.getByTestId('contract-status');
    await expect.poll(() => status.getAttribute('data-phase'), { timeout: 20_000 }).toBe('running');
    await expect.poll(said, { timeout: 10_000 }).toContain(text('en', 'options.phase.running'));
    await ticks(page.getByTestId('countdown'), 2);
    await ticks(optionLast, 3);
    expect(await said()).toEqual([]);
    // Its result is announced: what it made or lost.
    await expect
      .poll(() => status.getAttribute('data-phase'), { timeout: 60_000 })
      .toSatisfy((phase: string | null) => SETTLED.includes(phase ?? ''));
    const phase = (await status.getAttribute('data-phase')) ?? '';
    const result = await page.getByTestId('contract-announcement').textContent();
    expect(result).toContain(text('en', `options.phase.${phase}`));
    expect(result).toContain(text('en', 'options.result.line').split(':')[0]);
    expect(await said()).toContain(result);
  });

  it('lever: an open position ticks in silence; its opening and its close are announced', async () => {
    await loggedInUser(server, page, 'a11y-live-lever@example.com');
    // On the simulator: an open position's live figures tick in silence; its close is announced.
    await page.goto(`${server.url}/pages/lever/simulator?symbol=BTC`);
    const leverLast = page.getByTestId('lever-last');
    await expect.poll(() => leverLast.textContent(), { timeout: 15_000 }).toMatch(/\d/);
    await page.getByTestId('ticket-lots').fill('1');
    await page.getByTestId('leverage-10').click();
    const confirm = page.getByTestId('ticket-confirm');
    await expect.poll(() => confirm.isEnabled(), { timeout: 15_000 }).toBe(true);
    await confirm.click();
    await page.getByTestId('confirm-action').click();
    const row = page.getByTestId('positions').locator('li').first();
    await expect.poll(() => row.getAttribute('data-phase'), { timeout: 20_000 }).toBe('holding');
    const placed = new RegExp(text('en', 'lever.ticket.placed').split('{{no}}').map(escaped).join('\\S+'));
    await expect.poll(said, { timeout: 10_000 }).toEqual(expect.arrayContaining([expect.stringMatching(placed)]));
    await ticks(leverLast, 5);
    expect(await said()).toEqual([]);
    const close = row.getByTestId('row-close');
    const [closeBefore, closeAfter] = text('en', 'lever.row.closeLabel').split('{{no}}');
    const no = ((await close.getAttribute('aria-label')) ?? '')
      .replace(closeBefore ?? '', '')
      .replace(closeAfter ?? '', '');
    await close.click();
    await page.getByTestId('confirm-action').click();
    const closed = text('en', 'lever.row.closedNews')
      .replace('{{no}}', no)
      .replace('{{reason}}', text('en', 'lever.closeReason.user'));
    await expect.poll(said, { timeout: 20_000 }).toEqual(expect.arrayContaining([expect.stringContaining(closed)]));
  });
});
