import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { closeSupport, markReadAsOperator, sendAsOperator, withChat } from '../../server/domains/chat';
import { RateLimiter } from '../../server/platform/security/rate-limit';
import { browserPerTest, type InProcessServer, shot, startServerInProcess } from './harness';
import { withServerDatabase } from './ledger-seed';
import { loggedInUser } from './users';

/**
 * Customer service in a real Chromium at 375x812 against the real server: a user opens a conversation from the menu's
 * "contact us" (or the help centre's "contact support") and can type at once, writes, and support's answer (posted on
 * the server's database, as the console does) arrives live; the socket drops and comes back without losing or
 * doubling a message; the conversation ends and becomes history; a new one can be started on a chosen topic.
 */
let server: InProcessServer;
let page: Page;

const operator = { id: 1, name: 'Anna' };

/** What support does in the console, run on the server's database. */
const asSupport = <T>(work: (services: Parameters<typeof sendAsOperator>[0]) => Promise<T>) =>
  withServerDatabase(server, (handle) =>
    work({ database: handle, limiter: new RateLimiter(handle, Date.now), now: Date.now }),
  );

async function openConversationId(userId: number): Promise<number> {
  return withServerDatabase(server, async (handle) => {
    const row = await withChat(handle.db)
      .selectFrom('chat_members as m')
      .innerJoin('chat_conversations as c', 'c.id', 'm.conversation_id')
      .select('c.id')
      .where('m.user_id', '=', userId)
      .where('c.state', '=', 'open')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

const bubbles = () => page.locator('.chat-bubble .chat-text').allTextContents();
/** Whether the message field has the focus (the keyboard is up on a phone). */
const focused = (name: string) => () =>
  page.getByRole('textbox', { name }).evaluate((el) => el === document.activeElement);

describe('customer-service chat in the browser', () => {
  browserPerTest(
    () => startServerInProcess(),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('starts a conversation, gets support answers live, survives a dropped connection, and ends', async () => {
    const session = await loggedInUser(server, page, 'chat-user@example.com');
    await page.goto(`${server.url}/pages/index/index`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Contact us' }).click();
    await page.waitForURL(/help\/center\/chat$/, { timeout: 15_000 });
    // Ready to type: the conversation is opened on the way and the message field has the focus.
    const box = page.getByRole('textbox', { name: 'Write a message' });
    await box.waitFor({ timeout: 15_000 });
    await expect.poll(focused('Write a message'), { timeout: 15_000 }).toBe(true);
    await shot(page, 'chat-empty-dark-en');
    await page.keyboard.type('My deposit has not arrived <b>yet</b>');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(bubbles, { timeout: 15_000 }).toEqual(['My deposit has not arrived <b>yet</b>']);
    const id = await openConversationId(session.user.id);

    // Support answers: it appears without a reload.
    await asSupport((s) => sendAsOperator(s, operator, 'e2e-answer-1', { conversation_id: id, text: 'Let me check.' }));
    await expect.poll(bubbles, { timeout: 15_000 }).toEqual(['My deposit has not arrived <b>yet</b>', 'Let me check.']);
    await expect.poll(() => page.locator('.chat-author').allTextContents()).toEqual(['Support']);
    await shot(page, 'chat-live-dark-en');

    // The connection drops; support writes twice meanwhile; the user writes too (kept and sent on reconnect).
    server.app.io.disconnectSockets(true);
    await asSupport(async (s) => {
      await sendAsOperator(s, operator, 'e2e-answer-2', { conversation_id: id, text: 'Found it.' });
      await sendAsOperator(s, operator, 'e2e-answer-3', { conversation_id: id, text: 'It is credited now.' });
    });
    await box.fill('Thank you!');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect
      .poll(bubbles, { timeout: 20_000 })
      .toEqual([
        'My deposit has not arrived <b>yet</b>',
        'Let me check.',
        'Found it.',
        'It is credited now.',
        'Thank you!',
      ]);
    const stored = () =>
      withServerDatabase(server, (handle) =>
        withChat(handle.db)
          .selectFrom('chat_messages')
          .select('text')
          .where('conversation_id', '=', id)
          .orderBy('seq')
          .execute(),
      );
    // The page shows the kept message at once; the server stores it when the socket is back, a moment later.
    await expect.poll(async () => (await stored()).map((m) => m.text)).toHaveLength(5);
    // Support has read the user's messages: the receipt shows.
    await asSupport((s) => markReadAsOperator(s, operator, id, 5));
    await page.locator('.chat-read').getByText('Read').waitFor({ timeout: 15_000 });
    // Sent once: by now a second copy of the kept message would be stored too.
    expect(await stored()).toHaveLength(5);
    await shot(page, 'chat-reconnected-dark-en');

    // The conversation ends: no composer, and it is in the history.
    await asSupport((s) => closeSupport(s, operator, id));
    await page.getByText('This conversation has ended.').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('textbox', { name: 'Write a message' }).count()).toBe(0);
    await page.goto(`${server.url}/pages/help/center/chat2`);
    await page.getByRole('link', { name: /Something else/ }).waitFor({ timeout: 15_000 });
    await shot(page, 'chat-history-dark-en');

    // A new conversation on a chosen topic: no topic, and the form says so and starts nothing.
    await page.goto(`${server.url}/pages/help/center/newchat`);
    await page.getByRole('button', { name: 'Start chat' }).click();
    await page.getByRole('alert').getByText('Please choose a topic').waitFor();
    await page.getByText('Deposits').click();
    await shot(page, 'chat-new-dark-en');
    await page.getByRole('button', { name: 'Start chat' }).click();
    await page.waitForURL(/help\/center\/chat$/, { timeout: 15_000 });
    await expect.poll(focused('Write a message'), { timeout: 15_000 }).toBe(true);
    expect(await openConversationId(session.user.id)).not.toBe(id);
    await page.goto(`${server.url}/pages/help/center/chat2`);
    await page.getByRole('link', { name: /Deposits/ }).waitFor({ timeout: 15_000 });
  });

  it('reads naturally in German in the light theme', async () => {
    const session = await loggedInUser(server, page, 'chat-de@example.com', { lang: 'de', theme: 'light' });
    // One tap from the help centre, and the keyboard is up.
    await page.goto(`${server.url}/pages/help/center/center`);
    await page
      .getByTestId('help-contact')
      .getByRole('link', { name: /Support kontaktieren/ })
      .click();
    await page.waitForURL(/help\/center\/chat$/, { timeout: 15_000 });
    await page.getByRole('textbox', { name: 'Nachricht schreiben' }).waitFor({ timeout: 15_000 });
    await expect.poll(focused('Nachricht schreiben'), { timeout: 15_000 }).toBe(true);
    const id = await openConversationId(session.user.id);
    await page.keyboard.type('Wann kommt meine Auszahlung an?');
    await page.getByRole('button', { name: 'Senden', exact: true }).click();
    await asSupport((s) =>
      sendAsOperator(s, operator, 'e2e-de-1', { conversation_id: id, text: 'Innerhalb von 48 Stunden.' }),
    );
    await expect.poll(bubbles, { timeout: 15_000 }).toHaveLength(2);
    await shot(page, 'chat-live-light-de');
  });
});
