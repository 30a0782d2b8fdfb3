import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallPath, calls } from '../../server/domains';
import { PAGES } from '../../src/app/pages';
import { describeFindings, runAxe } from './a11y';
import { type Browser, INVITE_CODE, openBrowser, type RunningServer, startServer, withDb } from './harness';
import { depositDirectly, verifyIdentity } from './ledger-seed';
import { type ApiAnswer, registerUser, type TestSession } from './users';

/**
 * Issue 15: axe on every route, not only those the flow tests happen to visit. The routes come from the app's own
 * page table (src/app/pages.ts), so a page added later is swept without touching this file. A verified user with
 * money and a record of each kind (a spot order, an option contract, a lever position, a finance order, an IEO
 * subscription, a C2C order and its chat, a support conversation, a withdrawal, a bank card) visits each route, the
 * detail pages with a real record's id, in German and the dark theme and then in English and the light theme. Each
 * route gets its own test and an explicit check with all of axe's rules in the pass's theme (the two passes cover
 * both themes, so the watch's second colour run in the other theme would only repeat them); a serious or critical
 * finding fails that route's test with the watch's readable list.
 *
 * One browser and one session for the whole sweep (a route is a navigation, not a new login).
 */
let server: RunningServer;
let browser: Browser;
/** The page without the watch's hooks: a navigation does not first re-check the previous route. */
let page: Page;
/** The query each route with an id (or another choice) is visited with, filled in by the set-up. */
const search: Record<string, string> = {};

/** Impacts that fail a route, as in the watch. */
const FAILING = new Set(['serious', 'critical']);
/** Transitions and animations end at once, so no colour is read half-way (the watch does the same). */
const FREEZE =
  '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; animation-delay: 0s !important; }';
const FUND_PASSWORD = '246810';
const run = promisify(execFile);

/** A call as the app makes it: the method its table names, form fields in the body or the query. */
async function api(path: CallPath, fields: Record<string, string>, token: string): Promise<unknown> {
  const method = calls[path].method;
  const query = new URLSearchParams(fields).toString();
  const res = await fetch(`${server.url}/api/${path}${method === 'GET' && query ? `?${query}` : ''}`, {
    method,
    headers: {
      lang: 'en',
      authorization: token,
      ...(method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(method === 'GET' ? {} : { body: query }),
  });
  const answer = (await res.json()) as ApiAnswer;
  if (answer.type !== 'ok') throw new Error(`${path}: ${answer.message}`);
  return answer.data;
}

const idOf = (data: unknown): number => (data as { id: number }).id;
const requestId = () => crypto.randomUUID();
const firstId = (sql: string, ...args: unknown[]) =>
  withDb(server.dataDir, (db) => (db.prepare(sql).get(...args) as { id: number }).id);

/**
 * The catalogue the operators would publish (finance products, an IEO project in its window, a C2C merchant with
 * ads, help articles, news, a listing poll): `npm run ops -- demo`, the command a fresh install is shown with.
 */
async function publishCatalogue(): Promise<void> {
  await run(process.execPath, ['--import', 'tsx', 'server/ops/cli.ts', 'demo'], {
    env: { ...process.env, DATA_DIR: server.dataDir, INVITE_CODE, LOG_LEVEL: 'warn' },
  });
}

/** The user's own records, one of each kind a detail page shows, placed through the API as the app places them. */
async function placeRecords({ token, user }: TestSession): Promise<void> {
  await api(
    'coin/trade',
    { symbol: 'BTC', side: 'buy', type: 'market', mode: 'amount', amount: '50', request_id: requestId() },
    token,
  );

  const terms = (await api('microtrade/seconds', {}, token)) as {
    currencies: { currency: string; periods: { seconds: number; min_stake: string }[] }[];
  };
  const period = terms.currencies[0]?.periods[0];
  if (!period) throw new Error('no option period on offer');
  const contract = await api(
    'microtrade/submit',
    {
      symbol: 'BTC',
      direction: 'up',
      seconds: String(period.seconds),
      stake: period.min_stake,
      account: 'simulator',
      request_id: requestId(),
    },
    token,
  );
  search['/pages/option/info'] = `id=${idOf(contract)}`;

  const position = await api(
    'lever/submit',
    {
      symbol: 'BTC',
      side: 'long',
      type: 'market',
      margin_mode: 'isolated',
      lots: '1',
      leverage: '10',
      account: 'simulator',
      request_id: requestId(),
    },
    token,
  );
  search['/pages/lever/info'] = `id=${idOf(position)}`;

  await api(
    'wallet/change',
    { currency: 'USDT', from: 'coin', to: 'trust', amount: '500', request_id: requestId() },
    token,
  );
  const product = firstId("select id from finance_products where family = 'trust' order by id");
  await api('lh/deposit', { product_id: String(product), amount: '100', agree: '1', request_id: requestId() }, token);
  search['/pages/finance/buyPage'] = `id=${product}&family=trust`;

  const project = firstId('select id from ieo_projects order by id');
  const subscription = await api(
    'ieo/apply',
    { project_id: String(project), quantity: '100', request_id: requestId() },
    token,
  );
  search['/pages/publication/details'] = `id=${project}`;
  search['/pages/publication/purchase'] = `id=${project}`;
  search['/pages/assets/ieo/orderDetail'] = `id=${idOf(subscription)}`;

  const ad = firstId("select id from c2c_ads where coin = 'USDT' order by id");
  const order = await api(
    'ctc/order/add',
    { ad_id: String(ad), quantity: '50', pay_type: 'sepa', request_id: requestId() },
    token,
  );
  search['/pages/assets/c2c/buy'] = `id=${ad}`;
  search['/pages/assets/c2c/orderDetail'] = `id=${idOf(order)}`;
  search['/pages/help/center/otcChat'] = `id=${idOf(order)}`;
  search['/pages/help/center/newotcChat'] = `id=${idOf(order)}`;

  await api('chat/support/open', { topic: 'trading' }, token);

  await api(
    'user/e_pwd',
    { mode: 'password', login_password: 'secret1', password: FUND_PASSWORD, repassword: FUND_PASSWORD },
    token,
  );
  // The address straight into the table, as the funding test does: the per-address code limits would make it wait.
  withDb(server.dataDir, (db) =>
    db
      .prepare(
        "insert into withdraw_addresses (user_id, coin, chain, address, label, created_at) values (?, 'USDT', 'ERC20', ?, 'Hardware', ?)",
      )
      .run(user.id, `0x${'5'.repeat(40)}`, Date.now()),
  );
  const address = firstId('select id from withdraw_addresses where user_id = ?', user.id);
  const withdrawal = await api(
    'wallet/out',
    {
      coin: 'USDT',
      chain: 'ERC20',
      address_id: String(address),
      amount: '20',
      fund_password: FUND_PASSWORD,
      request_id: requestId(),
    },
    token,
  );
  search['/pages/assets/withdraw/detail'] = `id=${idOf(withdrawal)}`;
  search['/pages/user/address/address'] = 'coin=USDT';

  const card = await api(
    'user/cash_save',
    {
      name: 'Test Trader',
      bank_name: 'Demo Bank',
      branch_name: 'Berlin Mitte',
      branch_number: '100',
      card_number: '4111111111111111',
      bank_address: 'Street 1, Berlin',
      swift_code: 'DEUTDEFF',
      cardholder_name: 'Test Trader',
      bank_account: '0532013000',
      iban: 'DE89370400440532013000',
      payee_address: 'Street 1, Berlin',
      postal_code: '10115',
    },
    token,
  );
  search['/pages/bankbind/addbank'] = `id=${idOf(card)}`;

  search['/pages/help/center/detail'] = `id=${firstId('select id from help_articles order by id')}`;
  const news = (await api('news/list', {}, token)) as { items: { id: number }[] };
  search['/pages/index/notice/notice'] = `id=${news.items[0]?.id}`;
}

/** Stores the session, language and theme the app reads at start; the next navigation shows them. */
async function useSettings(session: TestSession, lang: 'de' | 'en', theme: 'dark' | 'light'): Promise<void> {
  const stored = JSON.stringify({ version: '1.0.0', theme, ...session });
  await page.goto(`${server.url}/pages/a11y-settings`);
  await page.evaluate(
    ([lang, stored]) => {
      localStorage.setItem('lang', lang);
      localStorage.setItem('tw.app', stored);
    },
    [lang, stored] as const,
  );
}

/** Opens a route and waits until it has drawn its title and finished loading (no spinner left). */
async function visit(path: string): Promise<void> {
  const query = search[path];
  await page.goto(`${server.url}${path}${query ? `?${query}` : ''}`);
  expect(new URL(page.url()).pathname, 'a logged-in user stays on the route').toBe(path);
  await page.locator('h1').first().waitFor();
  await expect.poll(() => page.locator('.spinner').count(), { timeout: 20_000 }).toBe(0);
  // React commits what the last answers brought: two frames with nothing pending.
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** All of axe's rules on the page as it is; throws the readable list on a serious or critical violation. */
async function checkRoute(theme: string, why: string): Promise<void> {
  await page.addStyleTag({ content: FREEZE });
  const results = await runAxe(page);
  const findings = results.violations
    .filter((v) => FAILING.has(v.impact ?? ''))
    .map((violation) => ({ theme, violation }));
  if (findings.length > 0) throw new Error(describeFindings(why, findings));
}

const ROUTES = PAGES.map((p) => p.path);

describe('every route passes axe', () => {
  let session: TestSession;

  beforeAll(async () => {
    server = await startServer();
    await publishCatalogue();
    session = await registerUser(server, 'a11y-routes@example.com');
    await verifyIdentity(server, session.token);
    await depositDirectly(server, {
      userId: session.user.id,
      requestId: 'e2e-a11y-routes',
      currency: 'USDT',
      amount: '5000',
      to: 'coin',
    });
    await placeRecords(session);
    browser = await openBrowser();
    page = browser.context.pages()[0] as Page;
  }, 180_000);

  afterAll(async () => {
    // Every route was checked by its own test; a last check would only repeat the final one.
    await browser?.close({ skipA11y: true });
    await server?.stop();
  });

  describe.each([
    { lang: 'de', theme: 'dark' },
    { lang: 'en', theme: 'light' },
  ] as const)('in $lang and the $theme theme', ({ lang, theme }) => {
    beforeAll(async () => {
      await useSettings(session, lang, theme);
    });

    it.each(ROUTES)('%s', async (path) => {
      await visit(path);
      expect(
        await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme]),
      ).toEqual([lang, theme]);
      await checkRoute(theme, `on ${page.url().replace(server.url, '')} in ${lang}`);
      // Pictures for looking at (E2E_SHOTS), taken directly: the harness's shot would check the route a second time.
      const dir = process.env.E2E_SHOTS;
      if (dir) await page.screenshot({ path: join(dir, `routes-${lang}-${theme}${path.replaceAll('/', '-')}.png`) });
    });
  });
});
