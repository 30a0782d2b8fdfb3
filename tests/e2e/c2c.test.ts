import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { c2cAdSaveRequest } from '../../protocol/c2c';
import { loadDataKey } from '../../server/domains/bank-cards';
import { addMerchant, c2cServices, resolveAppeal, saveAd, withC2c } from '../../server/domains/c2c';
import { Ledger } from '../../server/ledger/ledger';
import { type Browser, INVITE_CODE, openBrowser, shot } from './harness';
import { depositDirectly, withServerDatabase } from './ledger-seed';
import { loggedInUser, registerUser, type TestSession } from './users';

/**
 * C2C in a real Chromium at 375x812 against the real server, two people in two browser profiles: a merchant (made one
 * by the operator's own function, with coins deposited and an ad saved through the C2C module's own service) and a
 * buyer. The buyer orders from the ad, pays outside the app and marks the order paid; the merchant sees the order
 * live and releases the coins; the buyer's coins arrive. Then an unpaid order: the server's clock is moved past the
 * 30-minute window and the server's own expiry job cancels it, live on the buyer's page (nothing is faked).
 */

const MINUTE = 60_000;

interface Server {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

let server: Server;
/** How far the server's clock is moved ahead of the real one (the expiry test moves it). */
let ahead = 0;
const serverNow = () => Date.now() + ahead;

/** The app in this process with its clock in the test's hands and a quick expiry job (the harness's, plus `now`). */
async function startServerWithClock(): Promise<Server> {
  const { readConfig } = await import('../../server/config');
  const { startServer } = await import('../../server/main');
  const { MarketFeed } = await import('../../server/market/feed');
  const { MarketSimulator } = await import('../../server/market/simulator');
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const config = readConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, INVITE_CODE, LOG_LEVEL: 'warn' });
  const feed = new MarketFeed(new MarketSimulator({ seed: 'e2e', stepMs: 250, backfillDays: 3, alwaysOpen: true }));
  const running = await startServer(config, {
    market: { feed, record: false },
    now: serverNow,
    c2cExpiryMs: 250,
    userEventsPollMs: 200,
  });
  return {
    url: running.url,
    dataDir,
    stop: async () => {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The operator marks a user a merchant; coins go into their spot account; the C2C module saves their ad. */
async function merchantWithAd(session: TestSession, nickname: string, ad: { price: string; amount: string }) {
  await depositDirectly(server, {
    userId: session.user.id,
    requestId: `e2e-c2c-${session.user.id}`,
    currency: 'BTC',
    amount: '1',
    to: 'coin',
  });
  return withServerDatabase(server, async (handle) => {
    const made = await addMerchant(handle.db, String(session.user.id), nickname, { operator: 'e2e' });
    if (!made.ok) throw new Error(made.problem);
    const services = c2cServices({
      database: handle,
      ledger: new Ledger(handle),
      now: serverNow,
      dataKey: loadDataKey({ dataDir: server.dataDir }, { create: false }).key,
    });
    return saveAd(
      services,
      session.user.id,
      c2cAdSaveRequest.parse({
        coin: 'BTC',
        fiat: 'EUR',
        price: ad.price,
        amount: ad.amount,
        min_fiat: '50',
        max_fiat: '5000',
        pay_methods: JSON.stringify([
          { type: 'sepa', name: `${nickname} GmbH`, account: 'DE89370400440532013000', note: 'Demo Bank' },
          { type: 'paypal', name: nickname, account: 'pay@merchant.example', note: '' },
        ]),
      }),
    );
  });
}

const coinBalance = (userId: number) =>
  withServerDatabase(server, async (handle) =>
    (await new Ledger(handle).balances(userId, 'real')).find((b) => b.currency === 'BTC' && b.type === 'coin'),
  );

describe('c2c in the browser', () => {
  let buyer: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServerWithClock();
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async (context) => {
    buyer = await openBrowser();
    page = buyer.page;
    return async () => {
      await buyer.close({ skipA11y: context.task.result?.state === 'fail' });
    };
  });

  it('buys from a merchant: order, pay, chat, the merchant releases, the coins arrive (buyer de dark, merchant en light)', async () => {
    const merchant = await openBrowser();
    try {
      const seller = await loggedInUser(server, merchant.page, 'c2c-merchant@example.com', { theme: 'light' });
      const ad = await merchantWithAd(seller, 'Nordwind Trading', { price: '60000', amount: '0.5' });
      const me = await loggedInUser(server, page, 'c2c-buyer@example.com', { lang: 'de', theme: 'dark' });

      // The Assets tab leads to C2C; the list shows the ad with its merchant, price, limits and methods.
      await page.goto(`${server.url}/pages/assets/index`);
      await page.getByTestId('total-valuation').waitFor({ timeout: 15_000 });
      await shot(page, 'c2c-assets-link-dark-de');
      await page.getByTestId('assets-c2c').click();
      await page.waitForURL(/assets\/c2c\/index/, { timeout: 15_000 });
      const card = page.getByTestId(`c2c-ad-${ad.id}`);
      await card.waitFor({ timeout: 15_000 });
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('Nordwind Trading');
      expect(text).toContain('60.000,00 EUR');
      expect(text).toContain('SEPA-Überweisung');
      await shot(page, 'c2c-index-dark-de');

      // Buy for 600 EUR (German input: 600), paid by SEPA: exactly 0.01 BTC for 600,00 EUR.
      await page.getByTestId(`c2c-buy-${ad.id}`).click();
      await page.waitForURL(/assets\/c2c\/buy/, { timeout: 15_000 });
      await page.getByTestId('c2c-amount-input').fill('600');
      await expect.poll(() => page.getByTestId('c2c-total').textContent(), { timeout: 15_000 }).toBe('600,00 EUR');
      expect(await page.getByTestId('c2c-get').textContent()).toBe('0,01 BTC');
      await page.getByTestId('c2c-paytype-sepa').check();
      await shot(page, 'c2c-buy-dark-de');
      await page.getByTestId('c2c-submit').click();
      await page.waitForURL(/assets\/c2c\/orderDetail/, { timeout: 15_000 });
      const view = page.getByTestId('c2c-order');
      await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('1');
      await page.getByTestId('c2c-countdown').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('c2c-pay-account').textContent()).toBe('DE89370400440532013000');
      expect(await page.getByTestId('c2c-pay-amount').textContent()).toBe('600,00 EUR');
      // The merchant's coins are in escrow at once.
      expect(await coinBalance(seller.user.id)).toMatchObject({ held: 1_000_000 });
      await shot(page, 'c2c-order-paying-dark-de');

      // "I have paid", confirmed.
      await page.getByTestId('c2c-pay').click();
      await shot(page, 'c2c-confirm-pay-dark-de');
      await page.getByTestId('c2c-confirm').click();
      await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('2');
      await shot(page, 'c2c-order-paid-dark-de');
      const orderUrl = page.url();
      const orderId = new URL(orderUrl).searchParams.get('id');

      // A second order on this ad waits for this one: the ad's page says so before any form, and leads back to it.
      await page.goto(`${server.url}/pages/assets/c2c/buy?id=${ad.id}`);
      const openNote = page.getByTestId('c2c-open-order');
      await openNote.waitFor({ timeout: 15_000 });
      expect(await openNote.getByRole('status').textContent()).toContain(
        'Du hast bei diesem Angebot schon eine offene Order',
      );
      expect(await page.getByTestId('c2c-submit').count()).toBe(0);
      await shot(page, 'c2c-open-order-dark-de');
      await openNote.getByRole('link').click();
      await page.waitForURL(/assets\/c2c\/orderDetail/, { timeout: 15_000 });
      expect(new URL(page.url()).searchParams.get('id')).toBe(orderId);
      await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('2');

      // The order's chat: the buyer writes from the order; the merchant reads it on their side and answers, live.
      await page.getByTestId('c2c-chat').click();
      await page.waitForURL(/help\/center\/otcChat/, { timeout: 15_000 });
      await page.getByText('Der Käufer hat die Order als bezahlt markiert.').waitFor({ timeout: 15_000 });
      await page.getByRole('textbox', { name: 'Nachricht schreiben' }).fill('Die Überweisung ist unterwegs.');
      await page.getByRole('button', { name: 'Senden', exact: true }).click();
      await merchant.page.goto(`${server.url}/pages/help/center/newotcChat?id=${orderId}`);
      await merchant.page.getByText('Die Überweisung ist unterwegs.').waitFor({ timeout: 15_000 });
      await merchant.page.getByRole('textbox', { name: 'Write a message' }).fill('Received, releasing now.');
      await merchant.page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByText('Received, releasing now.').waitFor({ timeout: 15_000 });
      await shot(page, 'c2c-chat-dark-de');
      await shot(merchant.page, 'c2c-chat-light-en');
      await page.goto(orderUrl);
      await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('2');

      // The merchant sees the paid order live on their page and releases the coins.
      await merchant.page.goto(`${server.url}/pages/assets/c2c/merchant`);
      const incoming = merchant.page.getByTestId('c2c-incoming');
      await expect.poll(() => incoming.textContent(), { timeout: 15_000 }).toContain('Paid');
      await shot(merchant.page, 'c2c-merchant-light-en');
      await incoming.locator('a').first().click();
      await merchant.page.waitForURL(/assets\/c2c\/orderDetail/, { timeout: 15_000 });
      await merchant.page.getByTestId('c2c-release').click();
      await merchant.page.getByTestId('c2c-confirm').click();
      await expect
        .poll(() => merchant.page.getByTestId('c2c-order').getAttribute('data-status'), { timeout: 15_000 })
        .toBe('3');
      await shot(merchant.page, 'c2c-order-released-light-en');

      // The buyer's page follows live; the coins are in the buyer's spot account.
      await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('3');
      await shot(page, 'c2c-order-completed-dark-de');
      expect(await coinBalance(me.user.id)).toMatchObject({ balance: 1_000_000, held: 0, available: 1_000_000 });
      expect(await coinBalance(seller.user.id)).toMatchObject({ balance: 99_000_000, held: 0 });
      await page.goto(`${server.url}/pages/assets/tradeAccount?type=coin`);
      await expect.poll(() => page.getByTestId('available-BTC').textContent(), { timeout: 15_000 }).toContain('0,01');

      // The order list shows it, completed.
      await page.goto(`${server.url}/pages/assets/c2c/orderList`);
      await expect
        .poll(() => page.getByTestId('c2c-orders').textContent(), { timeout: 15_000 })
        .toContain('Abgeschlossen');
      await shot(page, 'c2c-orders-dark-de');
      await merchant.page.goto(`${server.url}/pages/assets/c2c/adEdit?id=${ad.id}`);
      await merchant.page.getByTestId('c2c-ad-price').waitFor({ timeout: 15_000 });
      await shot(merchant.page, 'c2c-ad-edit-light-en');
    } finally {
      await merchant.close();
    }
  });

  it('appeals a paid order with a reason; the operator decision shows on the order (de light)', async () => {
    const seller = await registerUser(server, 'c2c-merchant-3@example.com');
    const ad = await merchantWithAd(seller, 'Elbe Exchange', { price: '40000', amount: '0.1' });
    const me = await loggedInUser(server, page, 'c2c-appeal@example.com', { lang: 'de', theme: 'light' });

    await page.goto(`${server.url}/pages/assets/c2c/buy?id=${ad.id}`);
    // By quantity this time, typed the German way.
    await page.getByRole('tab', { name: 'Menge in BTC' }).click();
    await page.getByTestId('c2c-amount-input').fill('0,005');
    await expect.poll(() => page.getByTestId('c2c-total').textContent(), { timeout: 15_000 }).toBe('200,00 EUR');
    await page.getByTestId('c2c-paytype-sepa').check();
    await page.getByTestId('c2c-submit').click();
    await page.waitForURL(/assets\/c2c\/orderDetail/, { timeout: 15_000 });
    const view = page.getByTestId('c2c-order');
    await page.getByTestId('c2c-pay').click();
    await page.getByTestId('c2c-confirm').click();
    await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('2');

    // An appeal needs its reason.
    await page.getByTestId('c2c-appeal').click();
    await page.getByTestId('c2c-appeal-submit').click();
    await page.getByRole('alert').filter({ hasText: 'Grund' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('c2c-appeal-reason').fill('Der Händler antwortet seit einer Stunde nicht.');
    await shot(page, 'c2c-appeal-dialog-light-de');
    await page.getByTestId('c2c-appeal-submit').click();
    await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('4');
    expect(await page.getByTestId('c2c-appeal-facts').textContent()).toContain('Der Händler antwortet');

    // The operator releases the coins to the buyer, with a reason; the page follows.
    const [order] = await withServerDatabase(server, (handle) =>
      withC2c(handle.db).selectFrom('c2c_orders').select('id').where('buyer_id', '=', me.user.id).execute(),
    );
    const decided = await withServerDatabase(server, (handle) =>
      resolveAppeal(
        { database: handle, ledger: new Ledger(handle), now: serverNow },
        order?.id ?? 0,
        'release',
        'Zahlung auf dem Konto des Händlers bestätigt',
        'e2e',
      ),
    );
    expect(decided).toMatchObject({ ok: true });
    await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('3');
    expect(await page.getByTestId('c2c-decision').textContent()).toContain('Coins an den Käufer freigegeben');
    expect(await coinBalance(me.user.id)).toMatchObject({ balance: 500_000 });
    await shot(page, 'c2c-appeal-decided-light-de');
  });

  it('cancels an unpaid order by itself when the server clock passes the 30 minutes (en light)', async () => {
    const seller = await registerUser(server, 'c2c-merchant-2@example.com');
    const ad = await merchantWithAd(seller, 'Harbour Coins', { price: '50000', amount: '0.2' });
    await loggedInUser(server, page, 'c2c-late@example.com', { lang: 'en', theme: 'light' });
    // QA's view: "show order flow" in the settings draws the order's machine on its page.
    await page.goto(`${server.url}/pages/settings/index`);
    const flowSwitch = page.getByRole('switch', { name: 'Show order flow' });
    expect(await flowSwitch.getAttribute('aria-checked')).toBe('false');
    await flowSwitch.click();
    expect(await flowSwitch.getAttribute('aria-checked')).toBe('true');

    await page.goto(`${server.url}/pages/assets/c2c/buy?id=${ad.id}`);
    await page.getByTestId('c2c-amount-input').fill('100');
    await expect.poll(() => page.getByTestId('c2c-total').textContent(), { timeout: 15_000 }).toBe('100.00 EUR');
    await page.getByTestId('c2c-paytype-paypal').check();
    await shot(page, 'c2c-buy-light-en');
    await page.getByTestId('c2c-submit').click();
    await page.waitForURL(/assets\/c2c\/orderDetail/, { timeout: 15_000 });
    const view = page.getByTestId('c2c-order');
    await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('1');
    await shot(page, 'c2c-order-paying-light-en');
    expect(await coinBalance(seller.user.id)).toMatchObject({ held: 200_000 });
    // The ad's page now tells of this order before any form, and leads back to it.
    await page.goto(`${server.url}/pages/assets/c2c/buy?id=${ad.id}`);
    const openNote = page.getByTestId('c2c-open-order');
    await openNote.waitFor({ timeout: 15_000 });
    expect(await openNote.getByRole('status').textContent()).toContain('You already have an open order on this ad');
    expect(await page.getByTestId('c2c-submit').count()).toBe(0);
    await shot(page, 'c2c-open-order-light-en');
    await openNote.getByRole('link').click();
    await page.waitForURL(/assets\/c2c\/orderDetail/, { timeout: 15_000 });
    await expect.poll(() => view.getAttribute('data-status'), { timeout: 15_000 }).toBe('1');
    // The machine drawn from the code, the order's state marked on it (and said in words).
    const chart = page.getByTestId('machine-chart');
    const current = () =>
      chart.locator('g[data-current]').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state')));
    await expect.poll(current, { timeout: 15_000 }).toEqual(['c2cOrder.awaitingPayment']);
    expect(await page.getByTestId('machine-chart-now').textContent()).toBe('Now: awaitingPayment');
    await chart.scrollIntoViewIfNeeded();
    await shot(page, 'c2c-order-flow-light-en');

    // Thirty-one minutes pass on the server: its expiry job cancels the order and returns the escrow.
    ahead += 31 * MINUTE;
    await expect.poll(() => view.getAttribute('data-status'), { timeout: 20_000 }).toBe('5');
    expect(await page.getByTestId('c2c-note').textContent()).toContain('not marked paid within 30 minutes');
    await expect.poll(() => coinBalance(seller.user.id), { timeout: 15_000 }).toMatchObject({ held: 0 });
    await shot(page, 'c2c-order-expired-light-en');
    // The drawing follows the live order to its final state.
    await expect.poll(current, { timeout: 15_000 }).toEqual(['c2cOrder.cancelled']);
    // The order has ended: the ad's page offers the form again.
    await page.goto(`${server.url}/pages/assets/c2c/buy?id=${ad.id}`);
    await page.getByTestId('c2c-submit').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('c2c-open-order').count()).toBe(0);
  });
});
