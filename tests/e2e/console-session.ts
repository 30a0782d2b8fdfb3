import type { OpsRole } from '../../protocol/ops-console';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault, loadDataKey } from '../../server/domains/bank-cards';
import { createOperator, totpCode } from '../../server/domains/operators';
import { type Browser, openBrowser, type RunningServer } from './harness';
import { withServerDatabase } from './ledger-seed';
import { text } from './locale';

const en = (key: string) => text('en', key);

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
  const browser = await openBrowser();
  const ops = browser.page;
  await ops.addInitScript(() => localStorage.setItem('lang', 'en'));
  await ops.goto(`${server.url}/ops`);
  await ops.getByLabel(en('console.login.name')).fill(name);
  await ops.getByLabel(en('console.login.password'), { exact: true }).fill(password);
  await ops.getByLabel(en('console.login.code')).fill(totpCode(operator.secret, Date.now()));
  await ops.getByRole('button', { name: en('console.login.submit') }).click();
  await ops.waitForURL((url) => url.pathname === landing, { timeout: 15_000 });
  return browser;
}
