import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addSampleArticles, createArticle } from '../../server/domains/help';
import { browserPerTest, type RunningServer, shot, startServer } from './harness';
import { withServerDatabase } from './ledger-seed';
import { text } from './locale';

/**
 * The help centre in a real Chromium at 375x812 against the real server, as a guest: the articles the operators
 * published (the demo's samples, added through the service functions as `npm run ops -- demo` does, plus a draft that
 * must stay hidden), reached from the left menu, searched, filtered by topic and read, in German in the dark theme and
 * in English in the light theme.
 */
let server: RunningServer;
let page: Page;
let draftId = 0;

async function seed(s: RunningServer): Promise<void> {
  await withServerDatabase(s, async (handle) => {
    await addSampleArticles(handle.db, { operator: 'e2e' });
    const draft = await createArticle(
      handle.db,
      {
        topic: 'withdrawal',
        sortOrder: 0,
        texts: {
          de: { title: 'Geheimer Entwurf', body: 'Noch nicht veröffentlicht.' },
          en: { title: 'Secret draft', body: 'Not published yet.' },
        },
      },
      { operator: 'e2e' },
    );
    draftId = draft.id;
  });
}

/** A guest in `lang` and `theme` (the stored settings the app reads at start; no session). */
async function guest(lang: 'de' | 'en', theme: 'dark' | 'light'): Promise<void> {
  const app = JSON.stringify({ version: '1.0.0', theme, token: null, user: null });
  await page.addInitScript(
    ([l, stored]) => {
      localStorage.setItem('lang', l ?? 'de');
      localStorage.setItem('tw.app', stored ?? '');
    },
    [lang, app],
  );
}

const articleTitles = () => page.locator('.help-row-title').allTextContents();

describe('help centre in the browser', () => {
  browserPerTest(
    async () => {
      const s = await startServer();
      await seed(s);
      return s;
    },
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('in German and dark: opens from the menu, lists by topic, searches, filters and reads an article', async () => {
    await guest('de', 'dark');
    const de = (key: string) => text('de', key);
    await page.goto(`${server.url}/pages/index/index`);
    await page.getByRole('button', { name: de('nav.menu') }).click();
    await page.getByRole('link', { name: de('menu.help') }).click();
    await page.waitForURL(/help\/center\/center/, { timeout: 15_000 });

    const articles = page.getByTestId('help-articles');
    await articles.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.navbar-title').textContent()).toBe(de('help.title'));
    // The way to customer service comes first.
    const contact = page.getByTestId('help-contact').getByRole('link');
    expect(await contact.getAttribute('href')).toBe('/pages/help/center/chat');
    expect(await contact.textContent()).toContain(de('help.contact.title'));
    const titles = await articleTitles();
    expect(titles).toContain('Das Fondspasswort');
    expect(titles).not.toContain('Geheimer Entwurf');
    expect(await page.getByRole('heading', { name: de('help.topics.c2c') }).count()).toBe(1);
    await shot(page, 'help-center-dark-de');

    // Search: case-insensitive, in the German texts; the result count is announced.
    await page.getByTestId('help-search').fill('zahlungsfenster');
    await page.getByTestId('help-search').press('Enter');
    await expect
      .poll(articleTitles, { timeout: 15_000 })
      .toEqual(['Kauf bei Händlern: das 30-Minuten-Zahlungsfenster']);
    expect(page.url()).toContain('q=zahlungsfenster');
    await shot(page, 'help-search-dark-de');

    await page.getByText('Kauf bei Händlern: das 30-Minuten-Zahlungsfenster').click();
    await page.waitForURL(/help\/center\/detail\?id=\d+/, { timeout: 15_000 });
    const article = page.getByTestId('help-article');
    await article.waitFor({ timeout: 15_000 });
    expect(await article.getByRole('heading').textContent()).toBe('Kauf bei Händlern: das 30-Minuten-Zahlungsfenster');
    const paragraphs = await page.getByTestId('help-body').locator('p').allTextContents();
    expect(paragraphs.length).toBe(4);
    expect(paragraphs[1]).toContain('30 Minuten');
    await shot(page, 'help-article-dark-de');

    // Back: the same search again.
    await page.getByRole('button', { name: de('nav.back') }).click();
    await page.waitForURL(/help\/center\/center/, { timeout: 15_000 });
    expect(await page.getByTestId('help-search').inputValue()).toBe('zahlungsfenster');
    await expect.poll(articleTitles, { timeout: 15_000 }).toHaveLength(1);

    // Clearing the search and picking a topic shows that topic's articles only.
    await page.getByRole('button', { name: de('help.search.clear') }).click();
    await page.getByTestId('help-topic-security').click();
    await expect.poll(articleTitles, { timeout: 15_000 }).toEqual(['Das Fondspasswort']);
    expect(await page.getByTestId('help-topic-security').getAttribute('aria-pressed')).toBe('true');
    await shot(page, 'help-topic-dark-de');
  });

  it('in English and light: searches literally, shows no results, reads an article and hides drafts', async () => {
    await guest('en', 'light');
    const en = (key: string) => text('en', key);
    await page.goto(`${server.url}/pages/help/center/center`);
    await page.getByTestId('help-articles').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.navbar-title').textContent()).toBe(en('help.title'));
    await shot(page, 'help-center-light-en');

    // "0.4%" is searched as written: the percent sign is no wildcard.
    await page.getByTestId('help-search').fill('0.4%');
    await page.getByTestId('help-search').press('Enter');
    await expect.poll(articleTitles, { timeout: 15_000 }).toEqual(['Finance products: the early redemption fee']);
    await page.getByTestId('help-search').fill('lottery');
    await page.getByTestId('help-search').press('Enter');
    await expect
      .poll(() => page.getByTestId('empty').textContent(), { timeout: 15_000 })
      .toContain('No article matches “lottery”.');
    await shot(page, 'help-no-results-light-en');

    await page.getByTestId('help-search').fill('48 hours');
    await page.getByTestId('help-search').press('Enter');
    await expect.poll(articleTitles, { timeout: 15_000 }).toEqual(['Withdrawals: limits and arrival time']);
    await page.getByText('Withdrawals: limits and arrival time').click();
    const body = page.getByTestId('help-body');
    await body.waitFor({ timeout: 15_000 });
    expect(await body.textContent()).toContain('at most 3 withdrawal requests within 24 hours');
    await shot(page, 'help-article-light-en');

    // A draft is not there for readers, nor is an article that does not exist.
    await page.goto(`${server.url}/pages/help/center/detail?id=${draftId}`);
    await expect
      .poll(() => page.getByTestId('empty').textContent(), { timeout: 15_000 })
      .toContain(en('help.detail.notFound'));
    await page.getByTestId('help-back').click();
    await page.waitForURL(/help\/center\/center$/, { timeout: 15_000 });
    await page.getByTestId('help-articles').waitFor({ timeout: 15_000 });
  });
});
