import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type CallPath, calls } from '../../server/domains';
import { PAGES } from '../../src/app/pages';
import { INVITE_CODE, type RunningServer, withDb } from './harness';
import { depositDirectly, verifyIdentity } from './ledger-seed';
import { type ApiAnswer, registerUser, type TestSession } from './users';

/**
 * The route sweeps' shared ground (a11y-routes, narrow-layout): every route of the app's own page table
 * (src/app/pages.ts), so a page added later is swept without touching a test, and a verified user with money and a
 * record of each kind (a spot order, an option contract, a lever position, a finance order, an IEO subscription, a
 * C2C order and its chat, a support conversation, a withdrawal, a bank card), so the detail pages open on a real
 * record's id.
 */
export const ROUTES: readonly string[] = PAGES.map((p) => p.path);
/** The routes a guest may open (the rest send a guest to the login). */
export const PUBLIC_ROUTES: readonly string[] = PAGES.filter((p) => !p.auth).map((p) => p.path);

/** A seeded sweep: its user's session and the query each route with an id (or another choice) is visited with. */
export interface SweepUser {
  session: TestSession;
  search: Readonly<Record<string, string>>;
}

const FUND_PASSWORD = '246810';
const run = promisify(execFile);

/** A call as the app makes it: the method its table names, form fields in the body or the query. */
async function api(
  server: RunningServer,
  path: CallPath,
  fields: Record<string, string>,
  token: string,
): Promise<unknown> {
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
const firstId = (server: RunningServer, sql: string, ...args: unknown[]) =>
  withDb(server.dataDir, (db) => (db.prepare(sql).get(...args) as { id: number }).id);

/**
 * The catalogue the operators would publish (finance products, an IEO project in its window, a C2C merchant with
 * ads, help articles, news, a listing poll): `npm run ops -- demo`, the command a fresh install is shown with.
 */
async function publishCatalogue(server: RunningServer): Promise<void> {
  await run(process.execPath, ['--import', 'tsx', 'server/ops/cli.ts', 'demo'], {
    env: { ...process.env, DATA_DIR: server.dataDir, INVITE_CODE, LOG_LEVEL: 'warn' },
  });
}

/** The user's own records, one of each kind a detail page shows, placed through the API as the app places them. */
async function placeRecords(
  server: RunningServer,
  { token, user }: TestSession,
  search: Record<string, string>,
): Promise<void> {
  await api(
    server,
    'coin/trade',
    { symbol: 'BTC', side: 'buy', type: 'market', mode: 'amount', amount: '50', request_id: requestId() },
    token,
  );

  const terms = (await api(server, 'microtrade/seconds', {}, token)) as {
    currencies: { currency: string; periods: { seconds: number; min_stake: string }[] }[];
  };
  const period = terms.currencies[0]?.periods[0];
  if (!period) throw new Error('no option period on offer');
  const contract = await api(
    server,
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
    server,
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
    server,
    'wallet/change',
    { currency: 'USDT', from: 'coin', to: 'trust', amount: '500', request_id: requestId() },
    token,
  );
  const product = firstId(server, "select id from finance_products where family = 'trust' order by id");
  await api(
    server,
    'lh/deposit',
    { product_id: String(product), amount: '100', agree: '1', request_id: requestId() },
    token,
  );
  search['/pages/finance/buyPage'] = `id=${product}&family=trust`;

  const project = firstId(server, 'select id from ieo_projects order by id');
  const subscription = await api(
    server,
    'ieo/apply',
    { project_id: String(project), quantity: '100', request_id: requestId() },
    token,
  );
  search['/pages/publication/details'] = `id=${project}`;
  search['/pages/publication/purchase'] = `id=${project}`;
  search['/pages/assets/ieo/orderDetail'] = `id=${idOf(subscription)}`;

  const ad = firstId(server, "select id from c2c_ads where coin = 'USDT' order by id");
  const order = await api(
    server,
    'ctc/order/add',
    { ad_id: String(ad), quantity: '50', pay_type: 'sepa', request_id: requestId() },
    token,
  );
  search['/pages/assets/c2c/buy'] = `id=${ad}`;
  search['/pages/assets/c2c/orderDetail'] = `id=${idOf(order)}`;
  search['/pages/help/center/otcChat'] = `id=${idOf(order)}`;
  search['/pages/help/center/newotcChat'] = `id=${idOf(order)}`;

  await api(server, 'chat/support/open', { topic: 'trading' }, token);

  await api(
    server,
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
  const address = firstId(server, 'select id from withdraw_addresses where user_id = ?', user.id);
  const withdrawal = await api(
    server,
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
    server,
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

  search['/pages/help/center/detail'] = `id=${firstId(server, 'select id from help_articles order by id')}`;
  const news = (await api(server, 'news/list', {}, token)) as { items: { id: number }[] };
  search['/pages/index/notice/notice'] = `id=${news.items[0]?.id}`;
}

/**
 * Publishes the catalogue and registers `email` as a verified user with 5,000 USDT and one record of each kind.
 * Sets up the whole server for a sweep: call it once per server.
 */
export async function prepareSweep(server: RunningServer, email: string): Promise<SweepUser> {
  await publishCatalogue(server);
  const session = await registerUser(server, email);
  await verifyIdentity(server, session.token);
  await depositDirectly(server, {
    userId: session.user.id,
    requestId: `e2e-sweep-${email}`,
    currency: 'USDT',
    amount: '5000',
    to: 'coin',
  });
  const search: Record<string, string> = {};
  await placeRecords(server, session, search);
  return { session, search };
}

/**
 * Stores the session (none: a guest), language and theme the app reads at start; the next navigation shows them.
 * They are written on a route the app does not have (its not-found page reads none of them).
 */
export async function useSettings(
  page: Page,
  server: RunningServer,
  session: TestSession | null,
  lang: 'de' | 'en',
  theme: 'dark' | 'light',
): Promise<void> {
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

/** Opens a route (with its record's query) and waits until it has drawn its title and finished loading. */
export async function visitRoute(
  page: Page,
  server: RunningServer,
  path: string,
  search: Readonly<Record<string, string>>,
): Promise<void> {
  const query = search[path];
  await page.goto(`${server.url}${path}${query ? `?${query}` : ''}`);
  expect(new URL(page.url()).pathname, 'the route stays open (a guest only visits public ones)').toBe(path);
  await page.locator('h1').first().waitFor();
  await expect.poll(() => page.locator('.spinner').count(), { timeout: 20_000 }).toBe(0);
  // React commits what the last answers brought: two frames with nothing pending.
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}
