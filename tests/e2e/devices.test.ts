import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Browser, browserPerTest, openBrowser, type RunningServer, shot, startServer, withDb } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Issue 28 "Devices and sessions", in two Chromium profiles against the real server: the security centre lists the
 * account's signed-in devices with this one marked; signing out the other device from here signs it out there at once
 * (its open page goes to login without a reload, through the user's account event) and the list shrinks; "sign out all
 * other devices" leaves this one alone.
 */
let server: RunningServer;
let page: Page;
let other: Browser | undefined;

browserPerTest(
  () => startServer(),
  (s) => {
    server = s;
  },
  (b) => {
    page = b.page;
  },
);

afterEach(async (context) => {
  await other?.close({ skipA11y: context.task.result?.state === 'fail' });
  other = undefined;
});

const SECURITY = '/pages/settings/security/index';
const onPath = (path: string) => (url: URL) => url.pathname === path;

/** Signs in on the login page of `on`, as a person would on a second device. */
async function signInOn(on: Page, email: string, lang: 'de' | 'en'): Promise<void> {
  await on.goto(`${server.url}/pages/user/login/login`);
  await on.getByLabel(text(lang, 'auth.account')).fill(email);
  await on.getByLabel(text(lang, 'form.password'), { exact: true }).fill('secret1');
  await on
    .getByRole('button', { name: text(lang, 'auth.login'), exact: true })
    .last()
    .click();
  await on.waitForURL((url) => !url.pathname.startsWith('/pages/user/login'));
}

const deviceRows = (on: Page) => on.getByTestId('devices').locator('li');

/** A second device's language and theme, set before its first page only (a later page keeps its signed-in state). */
async function lookOf(on: Page, lang: 'de' | 'en', theme: 'dark' | 'light'): Promise<void> {
  await on.addInitScript(
    ([l, t]) => {
      if (localStorage.getItem('tw.app')) return;
      localStorage.setItem('lang', l ?? 'en');
      localStorage.setItem('tw.app', JSON.stringify({ version: '1.0.0', theme: t }));
    },
    [lang, theme],
  );
}

describe('signed-in devices', () => {
  for (const [lang, theme] of [
    ['de', 'dark'],
    ['en', 'light'],
  ] as const) {
    it(`signs out another device from the list, and that device leaves at once (${lang}, ${theme})`, async () => {
      const email = `devices-${lang}-${Date.now()}@example.com`;
      // The first device holds the registration's session and stays open on a page of its own.
      await loggedInUser(server, page, email, { lang, theme });
      await page.goto(`${server.url}/pages/settings/account/index`);
      await page.locator('.page-body').first().waitFor();

      other = await openBrowser();
      const phone = other.page;
      await lookOf(phone, lang, theme);
      await signInOn(phone, email, lang);
      // The first device is told at once: a sign-in on a device this account had not used.
      const notice = page.getByTestId('toast').filter({ hasText: /Chrom/ });
      await notice.waitFor({ timeout: 20_000 });
      expect(await notice.textContent()).toContain(text(lang, 'devices.newSignIn').split(' {{device}}')[0]);
      await shot(page, `devices-new-sign-in-${lang}-${theme}`);
      await phone.goto(`${server.url}${SECURITY}`);
      await expect.poll(() => deviceRows(phone).count()).toBe(2);
      const current = phone.locator('[data-testid="devices"] li[data-current]');
      await expect.poll(() => current.count()).toBe(1);
      expect(await current.textContent()).toContain(text(lang, 'devices.thisDevice'));
      // Chromium's own User-Agent names the browser and system.
      expect(await current.locator('.list-label').textContent()).toMatch(/Chrom/);
      await phone.getByTestId('devices').scrollIntoViewIfNeeded();
      await shot(phone, `devices-${lang}-${theme}`);

      // Sign the first device out from the second.
      // The one device besides this one: its button names it ("Sign out Chrome 156 on Linux").
      const end = phone.getByTestId('devices').getByRole('button');
      const otherName = await phone.locator('[data-testid="devices"] li:not([data-current]) .list-label').textContent();
      expect(await end.getAttribute('aria-label')).toBe(
        text(lang, 'devices.endOne').replace('{{device}}', otherName ?? ''),
      );
      expect(await end.textContent()).toBe(text(lang, 'devices.end'));
      await end.click();
      await expect.poll(() => deviceRows(phone).count()).toBe(1);
      expect(await phone.getByText(text(lang, 'devices.only')).isVisible()).toBe(true);

      // The first device, left open, is at the login page without having done anything: its socket heard of it.
      await page.waitForURL(onPath('/pages/user/login/login'), { timeout: 20_000 });
      expect(await page.evaluate(() => localStorage.getItem('tw.app') ?? '')).not.toContain('"token":"');
      await shot(page, `devices-signed-out-${lang}-${theme}`);
      // The second device is still signed in.
      await phone.reload();
      await expect.poll(() => deviceRows(phone).count()).toBe(1);
      expect(new URL(phone.url()).pathname).toBe(SECURITY);
    });
  }

  it('signs out all other devices and keeps this one', async () => {
    const email = `devices-all-${Date.now()}@example.com`;
    await loggedInUser(server, page, email, { lang: 'en' });
    other = await openBrowser();
    await lookOf(other.page, 'en', 'dark');
    await signInOn(other.page, email, 'en');
    await page.goto(`${server.url}${SECURITY}`);
    await expect.poll(() => deviceRows(page).count()).toBe(2);
    await page.getByRole('button', { name: text('en', 'devices.endOthers') }).click();
    await expect.poll(() => deviceRows(page).count()).toBe(1);
    expect(await page.locator('[data-testid="devices"] li[data-current]').count()).toBe(1);
    expect(await page.getByRole('button', { name: text('en', 'devices.endOthers') }).count()).toBe(0);
    await other.page.waitForURL(onPath('/pages/user/login/login'), { timeout: 20_000 });
  });

  it('sets an anti-phishing code that the next e-mail starts with, and refuses one that is no phrase (de)', async () => {
    const email = `phrase-${Date.now()}@example.com`;
    await loggedInUser(server, page, email, { lang: 'de' });
    await page.goto(`${server.url}${SECURITY}`);
    const status = page.getByTestId('anti-phishing');
    await expect.poll(() => status.textContent()).toBe(text('de', 'antiPhishing.none'));
    const field = page.getByRole('textbox', { name: text('de', 'antiPhishing.code'), exact: true });
    const save = page.getByRole('button', { name: text('de', 'antiPhishing.save') });
    await field.fill('ab<c');
    await save.click();
    // The server's refusal, in German, under the field (and toasted, as every refusal is).
    await page
      .locator('form')
      .getByText('Der Anti-Phishing-Code muss aus 4 bis 20 Buchstaben, Ziffern oder Leerzeichen bestehen')
      .waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'anti-phishing-refused-de-dark');
    await field.fill('Blaue Möwe 7');
    await save.click();
    await expect.poll(() => status.textContent()).toContain('Blaue Möwe 7');
    await status.scrollIntoViewIfNeeded();
    await shot(page, 'anti-phishing-de-dark');

    // A sign-in from another device sends an e-mail: it starts with the phrase.
    other = await openBrowser();
    await lookOf(other.page, 'de', 'dark');
    await signInOn(other.page, email, 'de');
    const firstLine = () =>
      withDb(server.dataDir, (db) => {
        const row = db.prepare('select body from mail_outbox where address = ? order by id desc limit 1').get(email) as
          | { body: string }
          | undefined;
        return row?.body.split('\n')[0];
      });
    // In the account's language (registered in English by the test's API call), whatever the device shows.
    await expect.poll(firstLine).toBe('Your anti-phishing code: Blaue Möwe 7');

    await page.getByRole('button', { name: text('de', 'antiPhishing.remove') }).click();
    await expect.poll(() => status.textContent()).toBe(text('de', 'antiPhishing.none'));
  });
});
