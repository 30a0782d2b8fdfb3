import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consoleOperator } from './console-session';
import { browserPerTest, type RunningServer, shot, startServer } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Customer service end to end in two real browsers side by side against the real server: a user writes to support
 * from the app; an operator signs in to the console (password and authenticator code), finds the conversation in the
 * support inbox, answers, and the answer appears in the user's chat live; the user's reply reaches the console; the
 * operator ends the conversation and the user's chat says so.
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
const bubbles = (p: Page) => p.locator('.chat-bubble .chat-text').allTextContents();

describe('support chat answered from the console', () => {
  it('a user writes, an operator answers live from the console, ends the conversation, and publishes an article', async () => {
    const user = await loggedInUser(server, page, 'support-e2e@example.com');
    await page.goto(`${server.url}/pages/help/center/newchat`);
    await page.getByText('Withdrawals').click();
    await page.getByRole('button', { name: 'Start chat' }).click();
    await page.waitForURL(/help\/center\/chat$/, { timeout: 15_000 });
    await page.getByRole('textbox', { name: 'Write a message' }).fill('My withdrawal is still pending');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => bubbles(page), { timeout: 15_000 }).toEqual(['My withdrawal is still pending']);

    // The operator's own browser.
    const operatorBrowser = await consoleOperator(server, 'anna', ['support'], '/ops/support');
    try {
      const ops = operatorBrowser.page;
      const row = ops.getByRole('button', { name: new RegExp(String(user.user.username)) });
      await row.waitFor({ timeout: 15_000 });
      expect(await row.textContent()).toContain('1 unread');
      await row.click();
      await ops.locator('.ops-chat').getByText('My withdrawal is still pending').waitFor({ timeout: 15_000 });
      await shot(ops, 'support-console-inbox');
      await ops.getByLabel(en('console.support.answer')).fill('We are checking it now.');
      await ops.getByRole('button', { name: en('console.support.send') }).click();

      // The answer arrives in the user's chat without a reload, with the operator's name.
      await expect
        .poll(() => bubbles(page), { timeout: 15_000 })
        .toEqual(['My withdrawal is still pending', 'We are checking it now.']);
      expect(await page.locator('.chat-author').allTextContents()).toEqual(['Support']);
      // Support read the user's message: the receipt shows in the app.
      await page.locator('.chat-read').waitFor({ timeout: 15_000 });
      await shot(page, 'support-console-user-answered');

      // The user's reply reaches the console while the conversation is open there.
      await page.getByRole('textbox', { name: 'Write a message' }).fill('Thank you');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await ops.locator('.ops-chat').getByText('Thank you').waitFor({ timeout: 15_000 });
      await shot(ops, 'support-console-reply');

      await ops.getByRole('button', { name: en('console.support.close') }).click();
      await ops.getByText(en('console.support.closedNotice')).waitFor({ timeout: 15_000 });
      await page.getByText('This conversation has ended.').waitFor({ timeout: 15_000 });
      await shot(page, 'support-console-user-ended');

      // Support also writes the help centre: a new article, published from the console, is in the app at once.
      await ops.getByRole('link', { name: en('console.nav.help') }).click();
      await ops.waitForURL((url) => url.pathname === '/ops/help', { timeout: 15_000 });
      await ops.getByRole('button', { name: en('console.help.new') }).click();
      await ops.getByLabel(en('console.help.topic')).selectOption('withdrawal');
      await ops.getByLabel(en('console.texts.title.de')).fill('Wann kommt meine Auszahlung an?');
      await ops.getByLabel(en('console.texts.body.de')).fill('Innerhalb von 48 Stunden.');
      await ops.getByLabel(en('console.texts.title.en')).fill('When does my withdrawal arrive?');
      await ops.getByLabel(en('console.texts.body.en')).fill('Within 48 hours.');
      await ops.getByRole('button', { name: en('console.texts.save') }).click();
      const card = ops.getByRole('listitem').filter({ hasText: 'When does my withdrawal arrive?' });
      await card.getByRole('button', { name: en('console.texts.publish') }).click();
      await card.getByText(en('console.texts.published')).waitFor({ timeout: 15_000 });
      await shot(ops, 'support-console-help');
      await page.goto(`${server.url}/pages/help/center/center`);
      await page.getByText('When does my withdrawal arrive?').waitFor({ timeout: 15_000 });
    } finally {
      await operatorBrowser.close();
    }
  });
});
