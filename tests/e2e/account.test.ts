import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserPerTest, INVITE_CODE, latestCode, type RunningServer, shot, startServer, withDb } from './harness';
import { text } from './locale';

/**
 * The account flows of the foundation issue in a real Chromium at 375x812 against the real server:
 * register with a code from the outbox, language and theme that survive a reload, password change,
 * logout and login, the type-999 path for a revoked session, and deep links.
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
const onPath = (path: string) => (url: URL) => url.pathname === path;

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

async function registerByEmail(email: string, password: string) {
  await page.goto(at('/pages/user/register?type=email'));
  await page.getByRole('tab', { name: text('de', 'form.byEmail') }).click();
  await page.getByLabel(text('de', 'form.email'), { exact: true }).fill(email);
  await page.getByRole('button', { name: text('de', 'form.sendCode') }).click();
  await page.getByLabel(text('de', 'form.code')).fill(await codeFor(email));
  await page.getByLabel(text('de', 'form.password'), { exact: true }).fill(password);
  await page.getByLabel(text('de', 'form.repassword'), { exact: true }).fill(password);
  await page.getByLabel(text('de', 'form.invite')).fill(INVITE_CODE);
  await page.locator('.check-input').check();
  await shot(page, 'register-filled-de');
  await page.getByRole('button', { name: text('de', 'auth.createAccount') }).click();
  await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/pages/index/index');
}

async function login(account: string, password: string, lang: 'de' | 'en') {
  await page.goto(at('/pages/user/login/login'));
  await page.getByLabel(text(lang, 'auth.account')).fill(account);
  await page.getByLabel(text(lang, 'form.password'), { exact: true }).fill(password);
  await page
    .getByRole('button', { name: text(lang, 'auth.login'), exact: true })
    .last()
    .click();
}

/**
 * Where this page's toasts appear, measured from the toast layer itself (always in the page, empty between toasts), so
 * no 2.5-second toast has to be caught: the layer's bottom edge, where toasts stack upwards from, against the
 * navigation bar, the page's first heading and the tab bar.
 */
async function expectToastsClearOfTheHeader(): Promise<void> {
  const place = await page.evaluate(() => {
    const box = (selector: string) => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      return r ? { top: r.top, bottom: r.bottom } : null;
    };
    return {
      layer: box('.toasts'),
      navbar: box('.navbar'),
      heading: box('.page-body h2'),
      tabbar: box('.tabbar'),
      height: window.innerHeight,
    };
  });
  const { layer, navbar, heading, tabbar, height } = place;
  expect(layer && navbar).toBeTruthy();
  if (!layer || !navbar) return;
  // Anchored at the bottom, above the tab bar where there is one; three stacked toasts (about 150 px) stay clear of
  // the navigation bar (title, back button) and of the heading under it.
  expect(layer.bottom).toBeLessThanOrEqual(tabbar ? tabbar.top : height);
  expect(layer.bottom - 150).toBeGreaterThan(Math.max(navbar.bottom, heading?.bottom ?? 0));
}

describe('account flows in the browser', () => {
  it('registers, switches to English and light, changes the password, logs out and back in', async () => {
    const email = `e2e-${Date.now()}@example.com`;
    await registerByEmail(email, 'first-secret');
    await shot(page, 'home-logged-in-de');

    // English, chosen on the language page, survives a reload.
    await page.goto(at('/pages/settings/language/language'));
    await page.getByText('English', { exact: true }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    // Light theme, switched in settings, survives a reload.
    await page.goto(at('/pages/settings/index'));
    await page.getByRole('switch', { name: text('en', 'settings.darkMode') }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await page.reload();
    await page.getByRole('heading', { name: text('en', 'settings.title') }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await shot(page, 'settings-light-en');

    // Change the login password.
    await page.goto(at('/pages/settings/security/changePassword'));
    await page.getByLabel(text('en', 'form.oldPassword')).fill('first-secret');
    await page.getByLabel(text('en', 'form.newPassword'), { exact: true }).fill('second-secret');
    await page.getByLabel(text('en', 'form.repeatNewPassword')).fill('second-secret');
    await page.getByRole('button', { name: text('en', 'security.changePassword') }).click();
    await page.getByText(text('en', 'security.passwordChanged')).waitFor();

    // Log out from settings.
    await page.goto(at('/pages/settings/index'));
    await page.getByRole('button', { name: text('en', 'settings.logout') }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: text('en', 'settings.logout') })
      .click();
    await page.getByText(text('en', 'settings.loggedOut')).waitFor();
    const open = withDb(server.dataDir, (db) =>
      db.prepare('select count(*) as n from sessions where revoked_at is null').get(),
    ) as { n: number };
    expect(open.n).toBe(0);

    // The old password no longer works; the new one does.
    await login(email, 'first-secret', 'en');
    await page.getByText('Wrong account or password').waitFor();
    await login(email, 'second-secret', 'en');
    await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/pages/index/index');
    // The welcome toast shows above the tab bar, not over the home's greeting or the navigation bar.
    await page.locator('.page-body h2').first().waitFor();
    await expectToastsClearOfTheHeader();
  });

  it('sends a revoked session to login through the type-999 path', async () => {
    const email = `revoked-${Date.now()}@example.com`;
    await registerByEmail(email, 'some-secret');
    withDb(server.dataDir, (db) => db.prepare('update sessions set revoked_at = ?').run(Date.now()));

    await page.goto(at('/pages/settings/account/index'));
    await page.waitForURL(onPath('/pages/user/login/login'), { timeout: 10_000 });
    const url = new URL(page.url());
    expect(url.searchParams.get('backpage')).toBe('/pages/settings/account/index');
    // The stored session was cleared, so a reload stays logged out.
    expect(await page.evaluate(() => Object.values(localStorage).join(' '))).not.toContain(email);
  });

  it('protects pages for guests and returns to the page after login', async () => {
    const email = `guard-${Date.now()}@example.com`;
    await registerByEmail(email, 'guard-secret');
    await page.goto(at('/pages/settings/index'));
    await page.getByRole('button', { name: text('de', 'settings.logout') }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: text('de', 'settings.logout') })
      .click();
    await page.getByText(text('de', 'settings.loggedOut')).waitFor();

    await page.goto(at('/pages/settings/security/index'));
    await page.waitForURL(onPath('/pages/user/login/login'));
    expect(new URL(page.url()).searchParams.get('backpage')).toBe('/pages/settings/security/index');
    await page.getByLabel(text('de', 'auth.account')).fill(email);
    await page.getByLabel(text('de', 'form.password'), { exact: true }).fill('guard-secret');
    await page
      .getByRole('button', { name: text('de', 'auth.login'), exact: true })
      .last()
      .click();
    await page.waitForURL(onPath('/pages/settings/security/index'));
    await page.getByRole('heading', { name: text('de', 'security.title') }).waitFor();
    // A page without a tab bar: the welcome toast still keeps off the title and the back button.
    await expectToastsClearOfTheHeader();
  });

  it('opens deep links on the right page, in German by default', async () => {
    await page.goto(at('/pages/settings/language/language'));
    await page.getByRole('heading', { name: text('de', 'settings.language') }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.goto(at('/pages/user/privacyAgreement/privacyAgreement'));
    await page.getByRole('heading').first().waitFor();
    expect(await page.title()).not.toBe('');
  });
});
