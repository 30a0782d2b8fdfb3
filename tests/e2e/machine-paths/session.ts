import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { type HookedServer, PHONE_VIEWPORT } from '../harness';
import { postApi, registerUser, type TestSession } from '../users';
import { Clocks } from './clocks';
import { PageSockets } from './feed-gate';
import type { Envelope } from './held-call';

/** Everything the paths of one machine share: the server, one logged-in browser context, both clocks. */
export interface Session {
  server: HookedServer;
  browser: Browser;
  context: BrowserContext;
  clocks: Clocks;
  user: TestSession;
  lang: 'de' | 'en';
  theme: 'dark' | 'light';
}

/** How long the page may take to show a state (a busy 2-core machine; nothing here waits on a timer). */
export const SHOWN_MS = 15_000;

/**
 * A logged-in Chromium context at the phone viewport with "show order flow" on, its clock installed before any
 * page loads. Service workers are blocked: calls a worker made would pass by the page's routes (held calls, the
 * feed gate).
 */
export async function openSession(
  server: HookedServer,
  options: { email: string; lang: 'de' | 'en'; theme: 'dark' | 'light' },
): Promise<Session> {
  const user = await registerUser(server, options.email);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking'],
  });
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, serviceWorkers: 'block' });
  const stored = JSON.stringify({ version: '1.0.0', theme: options.theme, ...user });
  await context.addInitScript(
    ([lang, app]) => {
      localStorage.setItem('lang', lang ?? 'en');
      localStorage.setItem('tw.app', app ?? '');
      // Settings → "Show order flow", as the switch stores it: each order's machine is drawn with its states.
      localStorage.setItem('tw.orderFlow', '1');
    },
    [options.lang, stored],
  );
  await context.clock.install();
  return {
    server,
    browser,
    context,
    clocks: new Clocks(server, context, new PageSockets()),
    user,
    lang: options.lang,
    theme: options.theme,
  };
}

export async function closeSession(session: Session | undefined): Promise<void> {
  await session?.context.close();
  await session?.browser.close();
}

/** A call of the user's, as the app makes it (English messages); a refusal fails the test with its message. */
export async function call<T>(session: Session, path: string, fields: Record<string, string> = {}): Promise<T> {
  const answer = (await postApi(session.server, path, fields, session.user.token)) as Envelope<T>;
  if (answer.type !== 'ok') throw new Error(`${path}: ${answer.message}`);
  return answer.data;
}

/** A GET call of the user's (the market and list calls). */
export async function get<T>(session: Session, path: string, query: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${session.server.url}/api/${path}?${new URLSearchParams(query)}`, {
    headers: { lang: 'en', authorization: session.user.token },
  });
  const answer = (await res.json()) as Envelope<T>;
  if (answer.type !== 'ok') throw new Error(`${path}: ${answer.message}`);
  return answer.data;
}

/** The last price of `symbol` as the server quotes it. */
export async function lastPrice(session: Session, symbol: string): Promise<string> {
  const quotes = await get<{ symbol: string; last: string }[]>(session, 'currency/quotation_new');
  const quote = quotes.find((q) => q.symbol === symbol);
  if (!quote) throw new Error(`no quote of ${symbol}`);
  return quote.last;
}

/** The states a machine drawing marks as current (MachineChart sets `data-current` on their `data-state` groups). */
export async function marked(scope: Locator): Promise<string[]> {
  const ids = await scope
    .getByTestId('machine-chart')
    .locator('g[data-current]')
    .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state') ?? ''));
  return ids.sort();
}

/**
 * Reads of the page as it is now, never waiting for an element (Playwright's own reads wait for one): a poll must
 * see "not there" at once and ask again.
 */
export const attr = (locator: Locator, name: string): Promise<string | null> =>
  locator.evaluateAll((els, n) => els[0]?.getAttribute(n) ?? null, name);

export const textNow = (locator: Locator): Promise<string | null> =>
  locator.evaluateAll((els) => els[0]?.textContent ?? null);

/** Whether the first button found is there and enabled. */
export const enabledNow = (locator: Locator): Promise<boolean> =>
  locator.evaluateAll((els) => els[0] instanceof HTMLButtonElement && !els[0].disabled);

export const expectShown = <T>(what: string, read: () => Promise<T>) =>
  expect.poll(read, { timeout: SHOWN_MS, message: what });

/** Keeps a picture of the step when E2E_SHOTS is set (for looking at, not for asserting). */
export async function picture(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name.replace(/[^\w.-]+/g, '_')}.png`), fullPage: true });
}
