import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createNews } from '../../server/domains/news';
import { consoleOperator } from './console-session';
import { browserPerTest, type RunningServer, shot, startServer } from './harness';
import { withServerDatabase } from './ledger-seed';
import { text } from './locale';
import { pullDown } from './touch';
import { loggedInUser } from './users';

/**
 * Notices in a real Chromium at 375x812 against the real server: an operator publishes an announcement from the
 * support console in a second browser; the user's home page shows it marked unread, the user opens it, and back home
 * it is read. The notice list (German, dark) filters by kind and reloads on pull-to-refresh, showing what was
 * published meanwhile.
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

const en = (key: string) => text('en', key);
const de = (key: string) => text('de', key);

/** Publishes a notice in German and English, as an operator would. */
function publish(kind: 'news' | 'announcement', de: [string, string], en: [string, string]) {
  return withServerDatabase(server, (handle) =>
    createNews(
      handle.db,
      { kind, published: true, texts: { de: { title: de[0], body: de[1] }, en: { title: en[0], body: en[1] } } },
      { operator: 'e2e' },
    ),
  );
}

const rowTitles = () => page.locator('.notice-row-title').allTextContents();

describe('notices in the browser', () => {
  it('an announcement published from the console shows on the home page unread, opens, and is then read', async () => {
    await loggedInUser(server, page, 'notice-e2e@example.com', { lang: 'en', theme: 'light' });
    await page.goto(`${server.url}/pages/index/index`);
    await page.locator('.hero').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('home-announcements').count()).toBe(0);

    const operatorBrowser = await consoleOperator(server, 'nora', ['support'], '/ops/support');
    try {
      const ops = operatorBrowser.page;
      await ops.getByRole('link', { name: en('console.nav.news') }).click();
      await ops.waitForURL((url) => url.pathname === '/ops/news', { timeout: 15_000 });
      await ops.getByRole('button', { name: en('console.news.new') }).click();
      await ops.getByLabel(en('console.news.kind')).selectOption('announcement');
      await ops.getByLabel(en('console.texts.title.de')).fill('Wartung am Sonntag');
      await ops.getByLabel(en('console.texts.body.de')).fill('Von 2 bis 3 Uhr UTC.');
      await ops.getByLabel(en('console.texts.title.en')).fill('Maintenance on Sunday');
      await ops.getByLabel(en('console.texts.body.en')).fill('From 2 to 3 am UTC.\n\nTrading is paused meanwhile.');
      await ops.getByRole('button', { name: en('console.texts.save') }).click();
      const card = ops.locator('[data-testid^="ops-news-"]').first();
      await card.getByRole('button', { name: en('console.texts.publish') }).click();
      await card.locator('.badge', { hasText: en('console.texts.published') }).waitFor({ timeout: 15_000 });
      await shot(ops, 'notice-console-published');
    } finally {
      await operatorBrowser.close();
    }

    // The user's home page: the announcement, marked unread.
    await page.reload();
    const strip = page.getByTestId('home-announcements');
    await strip.waitFor({ timeout: 15_000 });
    const row = strip.locator('.notice-row', { hasText: 'Maintenance on Sunday' });
    expect(await row.getAttribute('data-unread')).toBe('true');
    expect(await page.getByTestId('home-unread').textContent()).toBe(
      en('notice.home.unreadCount').replace('{{count}}', '1'),
    );
    await shot(page, 'notice-home-unread-light-en');

    await row.click();
    await page.waitForURL(/index\/notice\/notice\?id=\d+/, { timeout: 15_000 });
    await page.getByTestId('notice-article').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('notice-article').getByRole('heading').textContent()).toBe('Maintenance on Sunday');
    expect(await page.getByTestId('notice-body').locator('p').allTextContents()).toEqual([
      'From 2 to 3 am UTC.',
      'Trading is paused meanwhile.',
    ]);
    await shot(page, 'notice-detail-light-en');

    // Back home: read now.
    await page.getByRole('button', { name: en('nav.back') }).click();
    await page.waitForURL(/index\/index/, { timeout: 15_000 });
    await expect
      .poll(() => strip.locator('.notice-row', { hasText: 'Maintenance on Sunday' }).getAttribute('data-unread'), {
        timeout: 15_000,
      })
      .toBeNull();
    expect(await page.getByTestId('home-unread').count()).toBe(0);
    await shot(page, 'notice-home-read-light-en');
  });

  it('in German and dark: lists notices by kind and reloads on pull-to-refresh', async () => {
    // After the first test's announcement: a news item and two more announcements.
    await publish(
      'news',
      ['Erst üben: die Simulatoren', 'Mit 10.000 USDT Übungsguthaben.'],
      ['Practice first', 'With 10,000 USDT.'],
    );
    await publish(
      'announcement',
      ['Auszahlungen in 48 Stunden', 'Jede Auszahlung wird geprüft.'],
      ['Withdrawals in 48 hours', 'Each is reviewed.'],
    );
    await publish(
      'announcement',
      ['Fondspasswort festlegen', 'Unter Einstellungen → Sicherheit.'],
      ['Set a fund password', 'Under Settings.'],
    );
    await loggedInUser(server, page, 'notice-de-e2e@example.com', { lang: 'de', theme: 'dark' });
    const listCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/news/list')) listCalls.push(r.url());
    });
    await page.goto(`${server.url}/pages/notice/index`);
    await page.getByTestId('notice-list').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.navbar-title').textContent()).toBe(de('notice.title'));
    expect(await rowTitles()).toHaveLength(4);
    // Unread ones are marked for a logged-in reader, in words too.
    expect(await page.locator('.notice-unread').count()).toBe(4);
    await shot(page, 'notice-list-dark-de');

    await page.getByRole('tab', { name: de('notice.tabs.news') }).click();
    await expect.poll(rowTitles, { timeout: 15_000 }).toEqual(['Erst üben: die Simulatoren']);
    expect(page.url()).toContain('kind=news');
    await page.getByRole('tab', { name: de('notice.tabs.all') }).click();
    await expect.poll(rowTitles, { timeout: 15_000 }).toHaveLength(4);

    // Published meanwhile: a pull from the top shows it first.
    await publish(
      'announcement',
      ['Neue Handelspaare', 'Ab heute gibt es zwei neue Paare.'],
      ['New pairs', 'Two new pairs.'],
    );
    const before = listCalls.length;
    await pullDown(page, 400);
    await expect.poll(() => listCalls.length, { timeout: 10_000 }).toBeGreaterThan(before);
    await expect.poll(() => page.getByTestId('pull-to-refresh').getAttribute('data-phase')).toBe('idle');
    await expect.poll(async () => (await rowTitles())[0], { timeout: 15_000 }).toBe('Neue Handelspaare');
    await shot(page, 'notice-list-refreshed-dark-de');

    await page.getByText('Neue Handelspaare').click();
    await page.getByTestId('notice-article').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('notice-body').textContent()).toContain('zwei neue Paare');
    await shot(page, 'notice-detail-dark-de');

    // The home page in German: the latest announcements, the opened one read.
    await page.goto(`${server.url}/pages/index/index`);
    const strip = page.getByTestId('home-announcements');
    await strip.waitFor({ timeout: 15_000 });
    expect(await strip.locator('.notice-row-title').first().textContent()).toBe('Neue Handelspaare');
    expect(await strip.locator('.notice-row').first().getAttribute('data-unread')).toBeNull();
    await shot(page, 'notice-home-dark-de');

    // A bad link says the notice is not available.
    await page.goto(`${server.url}/pages/index/notice/notice?id=999999`);
    await expect
      .poll(() => page.getByTestId('empty').textContent(), { timeout: 15_000 })
      .toContain(de('notice.detail.notFound'));
  });
});
