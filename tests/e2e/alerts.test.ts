import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/lib/format';
import { browserPerTest, type HookedServer, shot, startServer } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Price alerts in a real Chromium at 375x812 against the real server, whose market the test holds and steps (the
 * clock hook): the user sets an alert from a row of the market list held (a finger; a right click with a mouse), sees it active in the list (reached from
 * Settings), then the server fires it on the next recorded tick of the simulator: the notice arrives live, the list
 * shows the alert fired with that tick, and the user deletes it. English and light with the app in the background (a
 * system notification through the service worker), German and dark in the foreground (none). The harness checks each
 * state with axe.
 */
let server: HookedServer;
let page: Page;

browserPerTest(
  () => startServer({ clockHook: true }),
  (s) => {
    server = s;
  },
  (b) => {
    page = b.page;
  },
);

/** What the page did about notifications, recorded by the stand-ins below. */
interface NotificationLog {
  hidden: boolean;
  permission: NotificationPermission;
  asked: number;
  shown: { title: string; body: string | undefined; tag: string | undefined }[];
}

/**
 * Stand-ins for what a headless browser cannot show: whether the page is in the background (the test switches it),
 * the permission prompt (answered "allow" and counted; the answer outlives a reload, as a browser keeps it) and the
 * system notification (recorded, through the service worker registration's showNotification, which the app calls).
 */
function fakeNotifications(): void {
  const kept = sessionStorage.getItem('fake-notifications');
  const asked = kept === null ? 0 : Number(kept);
  const log: NotificationLog = { hidden: false, permission: asked > 0 ? 'granted' : 'default', asked, shown: [] };
  Object.assign(window, { notificationLog: log });
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get: () => (log.hidden ? 'hidden' : 'visible'),
  });
  Object.defineProperty(Notification, 'permission', { configurable: true, get: () => log.permission });
  Notification.requestPermission = async () => {
    log.asked += 1;
    log.permission = 'granted';
    sessionStorage.setItem('fake-notifications', String(log.asked));
    return 'granted';
  };
  ServiceWorkerRegistration.prototype.showNotification = async (title: string, options?: NotificationOptions) => {
    log.shown.push({ title, body: options?.body, tag: options?.tag });
  };
}

const notificationLog = () =>
  page.evaluate(() => (window as unknown as { notificationLog: NotificationLog }).notificationLog);

/** A price the way the app shows an alert's (exact, with the language's separators). */
const shown = (lang: 'de' | 'en', price: string) => {
  const places = price.split('.')[1]?.length ?? 0;
  return formatNumber(price, lang, { min: places, max: places });
};

/** Puts a finger on `target` (real touch events, Chrome DevTools Protocol) and lifts it once `until` has happened. */
async function touchAndHold(target: Locator, until: () => Promise<void>): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to hold');
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    const point = { x: box.x + box.width / 3, y: box.y + box.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await until();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}

async function walkThrough(
  lang: 'de' | 'en',
  theme: 'dark' | 'light',
  { background, hold }: { background: boolean; hold: 'touch' | 'right-click' },
): Promise<void> {
  const tr = (key: string) => text(lang, key);
  await page.addInitScript(fakeNotifications);
  await loggedInUser(server, page, `alerts-${lang}@example.com`, { lang, theme });
  // The market stands still until the test steps it: the alert cannot fire before the list has shown it active.
  await server.advanceClock(0, { market: 'held' });

  // Holding BTC's row of the market list (a finger, or a right click) opens the sheet, its price starting at the last.
  await page.goto(server.url);
  const btc = page.locator('.quote-row[data-symbol="BTC"] .quote-link');
  await btc.waitFor({ timeout: 20_000 });
  await expect.poll(() => btc.getByTestId('last').textContent()).not.toBe('');
  // The gesture is told where the rows are: nobody guesses that a row can be held.
  expect(await page.getByTestId('hold-hint').textContent()).toBe(tr('market.holdHint'));
  await shot(page, `alerts-${lang}-${theme}-market`);
  const sheet = page.getByRole('dialog');
  if (hold === 'touch') await touchAndHold(btc, () => sheet.waitFor());
  else await btc.click({ button: 'right' });
  await sheet.waitFor();
  // The hold opened the sheet, not the row's chart.
  expect(new URL(page.url()).pathname).toBe('/');
  await expect.poll(() => page.getByTestId('alert-last').textContent()).not.toBe('–');
  await expect.poll(() => page.getByTestId('alert-price').inputValue()).not.toBe('');
  // At or above a price 5 % under the last one: on the wrong side of the price, so the next tick fires it.
  const quotes = (await (await fetch(`${server.url}/api/currency/quotation_new`)).json()) as {
    data: { symbol: string; last: string }[];
  };
  const last = quotes.data.find((q) => q.symbol === 'BTC')?.last ?? '';
  const level = ((BigInt(last.split('.')[0] ?? '0') * 95n) / 100n).toString();
  await page.getByTestId('alert-price').fill(level);
  expect(await page.getByTestId('alert-side-above').getAttribute('aria-checked')).toBe('true');
  await shot(page, `alerts-${lang}-${theme}-sheet`);
  expect((await notificationLog()).asked).toBe(0);
  await page.getByTestId('alert-submit').click();
  await sheet.waitFor({ state: 'detached' });
  // Setting the first alert asked, once, for permission to notify.
  expect((await notificationLog()).asked).toBe(1);

  // Settings → Price alerts: the alert is there, active.
  await page.goto(`${server.url}/pages/settings/index`);
  await page.getByRole('link', { name: new RegExp(tr('priceAlerts.label')) }).click();
  await expect.poll(() => page.locator('.navbar-title').textContent()).toBe(tr('alerts.title'));
  const row = page.locator('.alert-row');
  await row.waitFor();
  expect(await row.getAttribute('data-state')).toBe('active');
  expect(await row.textContent()).toContain(`${shown(lang, `${level}.00`)} USDT`);
  await shot(page, `alerts-${lang}-${theme}-active`);

  // One step of the market, recorded: the server fires the alert on that tick, and the notice arrives live.
  await page.evaluate((hidden) => {
    (window as unknown as { notificationLog: NotificationLog }).notificationLog.hidden = hidden;
  }, background);
  const step = await server.stepMarket({ record: true });
  const tick = step.ticks.BTC;
  if (!tick) throw new Error('the step published no BTC tick');
  const tickPrice = `${shown(lang, tick.price)} USDT`;
  const notice = page.getByTestId('toast').filter({ hasText: tickPrice });
  await notice.waitFor({ timeout: 20_000 });
  expect(await notice.textContent()).toContain('BTC');
  await expect.poll(() => row.getAttribute('data-state'), { timeout: 10_000 }).toBe('fired');
  expect(await row.getByTestId('alert-tick').textContent()).toContain(`#${tick.seq}`);
  expect(await row.getByTestId('alert-tick').textContent()).toContain(tickPrice);
  await shot(page, `alerts-${lang}-${theme}-fired`);

  // In the background the system shows it too (one notification for this alert); in the foreground only the app.
  if (background) await expect.poll(async () => (await notificationLog()).shown.length).toBe(1);
  const log = await notificationLog();
  if (background) {
    expect(log.shown[0]?.title).toBe('Price alert: BTC');
    expect(log.shown[0]?.body).toContain(tickPrice);
  } else {
    expect(log.shown).toEqual([]);
  }
  await page.evaluate(() => {
    (window as unknown as { notificationLog: NotificationLog }).notificationLog.hidden = false;
  });

  // Deleted, the list is empty again.
  await row.getByTestId('alert-delete').click();
  await page.getByText(tr('alerts.list.emptyTitle')).waitFor();
  expect(await page.locator('.alert-row').count()).toBe(0);
  await shot(page, `alerts-${lang}-${theme}-empty`);

  // The chart offers the same: its bell opens the sheet for the instrument it shows.
  await page.goto(`${server.url}/pages/trade/kline?symbol=ETH`);
  await page.getByTestId('alert-bell-ETH').click();
  await sheet.waitFor();
  await expect.poll(() => page.getByTestId('alert-last').textContent()).not.toBe('–');
  expect(await sheet.textContent()).toContain('ETH');
  await shot(page, `alerts-${lang}-${theme}-chart`);
}

describe('price alerts in the browser', () => {
  it('in English and light, in the background: set from a market row right-clicked, fired on a tick, notified, deleted', async () => {
    await walkThrough('en', 'light', { background: true, hold: 'right-click' });
  });

  it('in German and dark, in the foreground: set from a market row held, fired on a tick, shown live, deleted', async () => {
    await walkThrough('de', 'dark', { background: false, hold: 'touch' });
  });
});
