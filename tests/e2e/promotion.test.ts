import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { grantPartner, maskedName } from '../../server/domains/referral';
import {
  type Browser,
  browserPerTest,
  latestCode,
  openBrowser,
  type RunningServer,
  shot,
  startServer,
} from './harness';
import { depositDirectly, verifyIdentity, withServerDatabase } from './ledger-seed';
import { text } from './locale';
import { loggedInUser, postApi } from './users';

/**
 * Referral in a real Chromium at 375x812 against the real server: A copies the invite link, B opens it in another
 * browser and registers (the code is filled in), B's basic verification is approved, and A sees B among the
 * invitees and A on the leaderboard; the poster downloads as a PNG. In German and dark: a partner sets the bonus
 * it passes on, with the form's checks, and a refused copy leaves the text selected for copying by hand.
 */
let server: RunningServer;
let page: Page;
let context: BrowserContext;

browserPerTest(
  startServer,
  (s) => {
    server = s;
  },
  (b) => {
    page = b.page;
    context = b.context;
  },
);

const at = (path: string) => `${server.url}${path}`;
const toasts = () => page.getByTestId('toast').allTextContents();

async function codeFor(address: string): Promise<string> {
  await expect
    .poll(() => {
      try {
        return latestCode(server.dataDir, address);
      } catch {
        return '';
      }
    })
    .toMatch(/^\d{6}$/);
  return latestCode(server.dataDir, address);
}

/** B registers in their own browser through A's link, in English. */
async function registerThroughLink(b: Page, link: string, email: string, password: string): Promise<string> {
  const en = (key: string) => text('en', key);
  await b.addInitScript(() => localStorage.setItem('lang', 'en'));
  await b.goto(link);
  await b.getByRole('tab', { name: en('form.byEmail') }).click();
  const invite = b.getByLabel(en('form.invite'));
  const prefilled = await invite.inputValue();
  await b.getByLabel(en('form.email'), { exact: true }).fill(email);
  await b.getByRole('button', { name: en('form.sendCode') }).click();
  await b.getByLabel(en('form.code')).fill(await codeFor(email));
  await b.getByLabel(en('form.password'), { exact: true }).fill(password);
  await b.getByLabel(en('form.repassword'), { exact: true }).fill(password);
  await b.locator('.check-input').check();
  await b.getByRole('button', { name: en('auth.createAccount') }).click();
  await b.waitForURL((url) => url.pathname === '/' || url.pathname === '/pages/index/index');
  return prefilled;
}

describe('referral in the browser', () => {
  it('in English and light: copies the link, an invitee registers through it and is verified, the poster saves', async () => {
    const en = (key: string) => text('en', key);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const a = await loggedInUser(server, page, 'referrer@example.com', { lang: 'en', theme: 'light' });
    const code = String(a.user.invite_code);

    await page.goto(at('/pages/promotion/index'));
    await page.getByTestId('promo-link').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.navbar-title').textContent()).toBe(en('promotion.title'));
    expect(await page.getByTestId('promo-code').textContent()).toBe(code);
    const link = `${server.url}/pages/user/register?invite=${code}`;
    expect(await page.getByTestId('promo-link').textContent()).toBe(link);
    expect(await page.getByTestId('promo-share').textContent()).toBe('20%');
    await expect
      .poll(() => page.getByTestId('empty').textContent(), { timeout: 15_000 })
      .toBe(en('promotion.invitees.empty'));
    const rules = await page.getByTestId('promo-rules').textContent();
    expect(rules).toContain(en('promotion.rules.noBonus'));
    expect(rules).toContain(en('promotion.rules.noPromise'));
    // No share sheet in desktop Chromium on Linux: no Share button.
    expect(await page.getByTestId('promo-share-btn').count()).toBe(0);
    await shot(page, 'promotion-light-en');

    // Copy the link: the clipboard holds the absolute link.
    await page.getByTestId('promo-link-copy').click();
    await expect.poll(toasts).toContain(en('common.copied'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // Save the poster: a PNG download.
    await page.getByTestId('promo-poster').scrollIntoViewIfNeeded();
    await shot(page, 'promotion-poster-light-en');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('promo-save').click()]);
    expect(download.suggestedFilename()).toBe(`tradewave-invite-${code}.png`);
    const png = readFileSync(await download.path());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBeGreaterThan(10_000);
    await expect.poll(toasts).toContain(en('promotion.poster.saved'));

    // B registers through the link in another browser; the invite code is filled in from the link.
    const other: Browser = await openBrowser();
    let bName = '';
    try {
      const prefilled = await registerThroughLink(other.page, link, 'invitee@example.com', 'invitee-secret');
      expect(prefilled).toBe(code);
      const login = await postApi(server, 'user/login', { account: 'invitee@example.com', password: 'invitee-secret' });
      const b = login.data as { token: string; user: { id: number; username: string } };
      bName = maskedName(b.user.username);
      await verifyIdentity(server, b.token);
      // B buys BTC for 50 USDT (fee included): A gets 20% of the fee as a rebate.
      await depositDirectly(server, {
        userId: b.user.id,
        requestId: 'e2e-ref-fund',
        currency: 'USDT',
        amount: '100',
        to: 'coin',
      });
      const bought = await postApi(
        server,
        'coin/trade',
        { symbol: 'BTC', side: 'buy', type: 'market', mode: 'amount', amount: '50', request_id: 'e2e-ref-buy' },
        b.token,
      );
      expect(bought.type).toBe('ok');
    } finally {
      await other.close({ skipA11y: true });
    }

    // A refreshes: B is listed, verified, and A leads the leaderboard.
    // The pull's own button, as a keyboard user reaches it (on a touch screen it shows only when focused).
    await page.evaluate(() => scrollTo(0, 0));
    await page.getByRole('button', { name: en('pull.refresh') }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('promo-invitee').allTextContents(), { timeout: 15_000 }).toHaveLength(1);
    const row = page.getByTestId('promo-invitee').first();
    expect(await row.locator('.promo-name').textContent()).toBe(bName);
    expect(await row.textContent()).toContain(en('promotion.invitees.verified'));
    expect(await page.getByTestId('promo-invitees').textContent()).toBe('1');
    expect(await page.getByTestId('promo-verified').textContent()).toBe('1');
    await row.scrollIntoViewIfNeeded();
    await shot(page, 'promotion-invitees-light-en');

    await page.getByRole('tab', { name: en('promotion.tabs.leaderboard') }).click();
    const first = page.getByTestId('promo-rank').first();
    await first.waitFor({ timeout: 15_000 });
    expect(await first.locator('.promo-name').textContent()).toBe(maskedName(String(a.user.username)));
    expect(await first.textContent()).toContain('1 verified invitee');
    await first.scrollIntoViewIfNeeded();
    await shot(page, 'promotion-leaderboard-light-en');

    // The rebate of B's fee arrives once the fill and the rebate job have run: refresh until it is there.
    await page.getByRole('tab', { name: en('promotion.tabs.rebates') }).click();
    const refresh = page.getByRole('button', { name: en('pull.refresh') });
    await expect
      .poll(
        async () => {
          if ((await page.getByTestId('promo-rebate').count()) === 0) {
            await refresh.focus();
            await page.keyboard.press('Enter');
          }
          return page.getByTestId('promo-rebate').count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(1);
    const rebate = page.getByTestId('promo-rebate').first();
    expect(await rebate.textContent()).toContain(`Fee paid by ${bName}`);
    // 20% of the fee on a buy whose value and fee together are 50 USDT: just under 0.01 USDT, shown exactly.
    const amount = (await rebate.locator('.promo-line-amount').textContent()) ?? '';
    expect(amount).toMatch(/^\+0\.00\d{4} USDT$/);
    expect(await page.getByTestId('promo-totals').textContent()).toBe(amount.slice(1));
    await rebate.scrollIntoViewIfNeeded();
    await shot(page, 'promotion-rebates-light-en');
  });

  it('in German and dark: a partner sets its bonus within its rate; a refused copy selects the text', async () => {
    const de = (key: string) => text('de', key);
    const p = await loggedInUser(server, page, 'partner@example.com', { lang: 'de', theme: 'dark' });
    const granted = await withServerDatabase(server, (h) =>
      grantPartner(h.db, 'partner@example.com', '0.3', { operator: 'e2e' }),
    );
    if (!granted.ok) throw new Error(granted.problem);
    // This browser refuses to copy (no clipboard permission, no copy command).
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
      });
      document.execCommand = () => false;
    });

    // Reached from the left menu.
    await page.goto(at('/pages/index/index'));
    await page.getByRole('button', { name: de('nav.menu') }).click();
    await page.getByRole('link', { name: de('menu.referral') }).click();
    await page.waitForURL((url) => url.pathname === '/pages/promotion/index', { timeout: 15_000 });
    const partner = page.getByTestId('promo-partner');
    await partner.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.navbar-title').textContent()).toBe(de('promotion.title'));
    expect(await page.getByTestId('promo-share').textContent()).toBe('30 %');
    expect(await page.getByTestId('promo-auth-code').textContent()).toBe(granted.partner.auth_code);
    expect(await page.getByTestId('promo-bonus').textContent()).toBe('0 %');
    await shot(page, 'promotion-dark-de');

    await page.getByTestId('promo-code-copy').click();
    await expect.poll(toasts).toContain(de('common.copyFailed'));
    expect(await page.evaluate(() => getSelection()?.toString())).toBe(String(p.user.invite_code));

    // The form's checks, in German number format.
    const input = page.getByTestId('promo-bonus-input');
    await input.scrollIntoViewIfNeeded();
    const error = partner.locator('.field-error');
    await input.fill('');
    await page.getByTestId('promo-bonus-submit').click();
    await expect.poll(() => error.textContent()).toBe(de('promotion.partner.form.required'));
    await input.fill('30,5');
    await page.getByTestId('promo-bonus-submit').click();
    await expect.poll(() => error.textContent()).toBe('Gib einen Wert von 0 bis 30 % ein.');
    await shot(page, 'promotion-bonus-error-dark-de');
    await input.fill('2,555');
    await page.getByTestId('promo-bonus-submit').click();
    await expect.poll(() => error.textContent()).toBe(de('promotion.partner.form.precision'));

    await input.fill('2,5');
    await page.getByTestId('promo-bonus-submit').click();
    await expect.poll(toasts).toContain(de('promotion.partner.form.saved'));
    await expect.poll(() => page.getByTestId('promo-bonus').textContent()).toBe('2,5 %');
    expect(await error.count()).toBe(0);
    const rules = await page.getByTestId('promo-rules').textContent();
    expect(rules).toContain(
      'Als Partner erhältst du 30 % der Gebühr. Davon gehen 2,5 % der Gebühr an die eingeladene Person zurück',
    );
    await partner.scrollIntoViewIfNeeded();
    await shot(page, 'promotion-partner-dark-de');
  });
});
