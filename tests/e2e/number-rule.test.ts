import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserPerTest, type InProcessServer, LOOKS, startServerInProcess } from './harness';
import { depositDirectly } from './ledger-seed';
import { loggedInUser } from './users';

/**
 * Issue 26, "One number rule": the same USDT amount shows the same on every page that shows it, at two decimals cut
 * toward zero with its unit (9,347.807459 is 9,347.80 USDT, never 9,347.8074 or 9,347.807459), in German and English;
 * and the market list's volumes are compact with their unit, whole where German does not abbreviate.
 */
let server: InProcessServer;
let page: Page;

const AMOUNT = '9347.807459';
const SHOWN = { en: '9,347.80 USDT', de: '9.347,80 USDT' } as const;

/** The pages that show one account's available USDT, and where. */
const PAGES = [
  { path: '/pages/trade/index?symbol=BTC', testId: 'ticket-available' },
  { path: '/pages/option/detail?symbol=BTC', testId: 'ticket-available' },
  { path: '/pages/lever/index?symbol=BTC', testId: 'ticket-available' },
  { path: '/pages/assets/tradeAccount?type=coin', testId: 'available-USDT' },
  { path: '/pages/assets/tradeAccount?type=contract', testId: 'available-USDT' },
] as const;

/** Text as a reader sees it: no-break spaces are spaces. */
const plain = (s: string | null) => (s ?? '').replace(/\u00a0|\u202f/g, ' ');

describe('one number rule', () => {
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
    it(`shows one USDT amount alike on every page, in ${lang}`, async () => {
      const session = await loggedInUser(server, page, `numbers-${lang}@example.com`, { lang, theme });
      for (const to of ['coin', 'option', 'contract'] as const) {
        await depositDirectly(server, {
          userId: session.user.id,
          requestId: `e2e-numbers-${lang}-${to}`,
          currency: 'USDT',
          amount: AMOUNT,
          to,
        });
      }
      for (const { path, testId } of PAGES) {
        await page.goto(`${server.url}${path}`);
        const figure = page.getByTestId(testId).first();
        await expect
          .poll(async () => plain(await figure.textContent()), { timeout: 20_000, message: path })
          .toContain(SHOWN[lang]);
        expect(plain(await figure.textContent()), path).not.toMatch(/9[.,]347[.,]80\d/);
      }
    });
  }

  it('writes volumes compact with their unit, whole where German has no short form', async () => {
    await loggedInUser(server, page, 'numbers-volume@example.com', { lang: 'de' });
    await page.goto(`${server.url}/pages/index/index`);
    const volume = page.locator('.quote-vol').first();
    await expect.poll(async () => plain(await volume.textContent()), { timeout: 20_000 }).toMatch(/\d/);
    const shown = plain(await volume.textContent());
    // "Vol. 196.994 BTC" or "Vol. 1,23 Mio. BTC": never decimals on thousands, always the unit.
    expect(shown).toMatch(/^Vol\. (\d{1,3}(\.\d{3})*|\d{1,3}(,\d{1,2})?|\d+(,\d{1,2})? (Mio|Mrd|Bio)\.) [A-Z]+$/);
  });
});
