import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import { fromUnits, toUnits } from '../../protocol/rules/spot';
import { formatPrice } from '../../src/lib/format';
import { browserPerTest, type InProcessServer, LOOKS, shot, startServerInProcess } from './harness';
import { text } from './locale';
import { getApiData, loggedInUser } from './users';

/**
 * Lever ergonomics against the real server (ticks every 250 ms), on the practice book at 375x812: the leverage is
 * set on a slider that stops only at the instrument's steps (by keyboard, as assistive technology would), a
 * take-profit is typed as an ROE and goes out as its price (named on the confirmation sheet), and on the open
 * position a stop-loss typed as an ROE is saved at exactly the price the rule gives from its entry and leverage,
 * rounded to the tick toward the entry. In English on the light theme and in German on the dark one.
 */
let server: InProcessServer;
let page: Page;

describe('lever ergonomics', () => {
  browserPerTest(
    () => startServerInProcess(),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  for (const [lang, theme] of LOOKS) {
    it(`sets leverage on a slider and stops by ROE (${lang}, ${theme})`, async () => {
      const session = await loggedInUser(server, page, `lever-ergo-${lang}@example.com`, { lang, theme });
      await page.goto(`${server.url}/pages/lever/simulator?symbol=BTC`);
      await expect.poll(() => page.getByTestId('practice-balance').textContent(), { timeout: 15_000 }).toMatch(/\d/);
      await expect.poll(() => page.getByTestId('lever-last').textContent(), { timeout: 15_000 }).toMatch(/\d/);

      // The slider stops at the instrument's leverages only: the ends are 1x and 100x, four steps up from 1x is 20x.
      const slider = page.getByTestId('leverage-slider');
      const shown = page.getByTestId('leverage-value');
      await slider.focus();
      await page.keyboard.press('End');
      expect(await shown.textContent()).toBe('100x');
      await page.keyboard.press('Home');
      expect(await shown.textContent()).toBe('1x');
      for (let step = 0; step < 4; step++) await page.keyboard.press('ArrowRight');
      expect(await shown.textContent()).toBe('20x');
      expect(await slider.getAttribute('aria-valuetext')).toBe('20x');

      // A take-profit typed as +50% ROE: the field says so, and its hint names the price it stands for.
      await page.getByTestId('ticket-lots').fill('1');
      await page.getByRole('switch', { name: text(lang, 'lever.ticket.takeProfit'), exact: true }).click();
      await page.getByTestId('ticket-tp-unit').click();
      await expect.poll(() => page.getByLabel(text(lang, 'lever.stop.takeProfitRoe'), { exact: true }).count()).toBe(1);
      await page.getByTestId('ticket-tp').fill('50');
      const hint = page.locator('.lever-ticket .field-msg').filter({ hasText: 'USDT' }).first();
      await expect.poll(() => hint.textContent(), { timeout: 10_000 }).toMatch(/\d.*USDT/);
      await shot(page, `lever-ergonomics-ticket-${lang}-${theme}`);

      // The sheet names the take-profit as the price that will be sent.
      const confirm = page.getByTestId('ticket-confirm');
      await expect.poll(() => confirm.isEnabled(), { timeout: 15_000 }).toBe(true);
      await confirm.click();
      await expect.poll(() => page.getByTestId('confirm-sheet').isVisible(), { timeout: 10_000 }).toBe(true);
      expect(await page.getByTestId('confirm-leverage').textContent()).toContain('20x');
      const sheetTakeProfit = await page.getByTestId('confirm-tp').textContent();
      expect(sheetTakeProfit).toMatch(/\d/);
      await page.getByTestId('confirm-action').click();

      const row = page.locator('li[data-testid^="position-"]').first();
      await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
      const id = (await row.getAttribute('data-testid'))?.replace('position-', '') ?? '';
      const info = () => getApiData<LeverPosition>(server, 'lever/info', { id }, session.token);
      await expect.poll(async () => (await info()).phase, { timeout: 20_000 }).toBe('holding');
      const held = await info();
      expect(held.leverage).toBe(20);
      // The take-profit stored is the one the sheet named: +50% ROE at 20x from the price confirmed against.
      const entryText = held.entry_price ?? '';
      const scale = entryText.split('.')[1]?.length ?? 0;
      expect(formatPrice(held.profit_take_price ?? '', lang, scale)).toBe(sheetTakeProfit);

      // A stop-loss of −10% ROE at 20x from the position's own entry: 0.5% below it, rounded up toward the entry.
      const entry = toUnits(entryText, scale) ?? 0n;
      const expected = fromUnits((entry * 1990n + 1999n) / 2000n, scale);
      await row.getByTestId('row-stops-open').click();
      await row.getByTestId('stops-sl-unit').click();
      await row.getByTestId('stops-sl').fill('10');
      const stopHint = row.locator('.field-msg').filter({ hasText: 'USDT' });
      await expect.poll(() => stopHint.count()).toBe(1);
      await shot(page, `lever-ergonomics-stops-${lang}-${theme}`);
      await row.getByTestId('stops-save').click();
      await expect.poll(async () => (await info()).stop_loss_price, { timeout: 15_000 }).toBe(expected);
      expect((await info()).profit_take_price).toBe(held.profit_take_price);
    }, 120_000);
  }
});
