import type { Page } from 'playwright-core';
import type { OpsRole } from '../../protocol/ops-console';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault, loadDataKey } from '../../server/domains/bank-cards';
import { createOperator, totpCode } from '../../server/domains/operators';
import { type Browser, openBrowser, type RunningServer } from './harness';
import { withServerDatabase } from './ledger-seed';
import { text } from './locale';

/**
 * An operator (created in the server's database) signed in to the support console in a browser of their own, in
 * English, on the console's first screen `landing`. The caller closes the browser.
 */
export async function consoleOperator(
  server: RunningServer,
  name: string,
  roles: OpsRole[],
  landing: string,
): Promise<Browser> {
  const browser = await openBrowser();
  await browser.page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await signInOperator(server, browser.page, name, roles, landing);
  return browser;
}

/**
 * Creates an operator in the server's database and signs them in on `page` (in the language the page already has),
 * ending on the console's first screen `landing`.
 */
export async function signInOperator(
  server: RunningServer,
  page: Page,
  name: string,
  roles: OpsRole[],
  landing: string,
): Promise<void> {
  const password = `an operator password for ${name}`;
  const { key } = loadDataKey({ dataKey: process.env.DATA_KEY, dataDir: server.dataDir }, { create: false });
  const operator = await withServerDatabase(server, async (handle) => {
    const created = await createOperator(
      { database: handle, now: Date.now, hasher: new PasswordHasher(), vault: new CardVault(key) },
      { name, roles, password },
    );
    if (!created.ok) throw new Error(created.problem);
    return created;
  });
  await page.goto(`${server.url}/ops`);
  // The console starts in the stored language, German when none is stored (src/state/settings.ts).
  const lang = (await page.evaluate(() => localStorage.getItem('lang'))) === 'en' ? 'en' : 'de';
  const say = (key: string) => text(lang, key);
  await page.getByLabel(say('console.login.name')).fill(name);
  await page.getByLabel(say('console.login.password'), { exact: true }).fill(password);
  await page.getByLabel(say('console.login.code')).fill(totpCode(operator.secret, Date.now()));
  await page.getByRole('button', { name: say('console.login.submit') }).click();
  await page.waitForURL((url) => url.pathname === landing, { timeout: 15_000 });
}
