import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { closePoll, createPoll } from '../../server/domains/polls';
import { browserPerTest, type RunningServer, shot, startServer } from './harness';
import { verifyIdentity, withServerDatabase } from './ledger-seed';
import { text } from './locale';
import { loggedInUser, postApi, registerUser } from './users';

/**
 * The listing polls in a real Chromium at 375x812 against the real server: a verified user votes in German in the dark
 * theme, confirms, and sees the tally move with their vote marked (a closed poll shows as a result); an unverified
 * user in English in the light theme gets SPEC 8's prompt with the way to verification; a guest reaches the page from
 * the IEO projects and sees the way to log in. The harness checks each state with axe.
 */
let server: RunningServer;
let page: Page;
const ids = { open: 0, closed: 0 };
const options: Record<string, number> = {};

interface ListedPoll {
  id: number;
  options: { id: number; symbol: string }[];
}

/** Two polls: one open, one closed with a vote (a result); another verified user has voted ATOM in the open one. */
async function seed(s: RunningServer): Promise<void> {
  await withServerDatabase(s, async (handle) => {
    const op = { operator: 'e2e' };
    ids.closed = await createPoll(
      handle.db,
      {
        closesInDays: 3,
        options: [
          { symbol: 'SUI', name: 'Sui' },
          { symbol: 'APT', name: 'Aptos' },
        ],
      },
      op,
    );
    ids.open = await createPoll(
      handle.db,
      {
        closesInDays: 14,
        options: [
          { symbol: 'ATOM', name: 'Cosmos' },
          { symbol: 'NEAR', name: 'NEAR Protocol' },
          { symbol: 'ARB', name: 'Arbitrum' },
        ],
      },
      op,
    );
  });
  const list = (await (await fetch(`${s.url}/api/vote/list`)).json()) as { data: { polls: ListedPoll[] } };
  for (const p of list.data.polls) for (const o of p.options) options[o.symbol] = o.id;
  const other = await registerUser(s, 'vote-other@example.com');
  await verifyIdentity(s, other.token);
  for (const [poll, symbol] of [
    [ids.open, 'ATOM'],
    [ids.closed, 'APT'],
  ] as const) {
    const voted = await postApi(
      s,
      'vote/set',
      { poll_id: String(poll), option_id: String(options[symbol]) },
      other.token,
    );
    if (voted.type !== 'ok') throw new Error(`vote/set: ${voted.message}`);
  }
  await withServerDatabase(s, (handle) => closePoll(handle.db, ids.closed, { operator: 'e2e' }));
}

const pollCard = (status: 'open' | 'closed') => page.locator(`[data-testid="vote-poll"][data-status="${status}"]`);
/** An option's count and share as read, with the locale's no-break space before % (de) as a plain one. */
const countOf = async (symbol: string, status: 'open' | 'closed' = 'open') =>
  (
    await pollCard(status).locator('.vote-option', { hasText: symbol }).getByTestId('vote-count').textContent()
  )?.replace(/\u00a0/g, ' ');

describe('listing polls in the browser', () => {
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

  it('in German and dark: a verified user votes, confirms and sees the tally move with the vote marked', async () => {
    const session = await loggedInUser(server, page, 'vote-verified@example.com', { lang: 'de', theme: 'dark' });
    await verifyIdentity(server, session.token);
    const de = (key: string) => text('de', key);
    await page.goto(`${server.url}/pages/publication/vote`);
    await pollCard('open').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.navbar-title').textContent()).toBe(de('vote.title'));
    expect(await page.getByTestId('vote-verify').count()).toBe(0);
    expect(await page.getByTestId('vote-guest').count()).toBe(0);
    // Before: one vote for ATOM (100 %), none for NEAR.
    expect(await countOf('ATOM')).toBe('1 Stimme · 100,0 %');
    expect(await countOf('NEAR')).toBe('0 Stimmen · 0,0 %');
    // The closed poll is a result: APT leads, nobody can vote there.
    const result = pollCard('closed');
    expect(await result.getByTestId('vote-leading').count()).toBe(1);
    expect(await result.locator('.vote-option', { hasText: 'APT' }).getByTestId('vote-leading').count()).toBe(1);
    expect(await result.locator('input[type="radio"]').count()).toBe(0);

    // Voting without a pick asks for one; then NEAR, confirmed in the dialog (a vote is final).
    const submit = pollCard('open').getByTestId('vote-submit');
    expect(await submit.textContent()).toBe(de('vote.submit'));
    await submit.click();
    expect(await pollCard('open').getByRole('status').textContent()).toBe(de('vote.pickFirst'));
    await pollCard('open').getByRole('radio', { name: /NEAR/ }).check();
    expect(await submit.textContent()).toBe('Für NEAR stimmen');
    await shot(page, 'vote-de-dark-picked');
    await submit.click();
    const dialog = page.getByRole('dialog', { name: de('vote.confirm.title') });
    await dialog.waitFor({ timeout: 5_000 });
    expect(await dialog.textContent()).toContain('Du stimmst für NEAR Protocol (NEAR)');
    await page.getByTestId('vote-confirm').click();

    // After: the tally moved, the vote is marked as the user's, and there is nothing left to choose.
    await expect.poll(() => countOf('NEAR'), { timeout: 10_000 }).toBe('1 Stimme · 50,0 %');
    expect(await countOf('ATOM')).toBe('1 Stimme · 50,0 %');
    expect(await pollCard('open').getByTestId('vote-total').textContent()).toBe('2 Stimmen');
    const near = pollCard('open').locator('.vote-option', { hasText: 'NEAR' });
    expect(await near.getByTestId('vote-mine').textContent()).toBe(de('vote.yours'));
    expect(await pollCard('open').locator('input[type="radio"]').count()).toBe(0);
    expect(await pollCard('open').getByTestId('vote-submit').count()).toBe(0);
    expect(await pollCard('open').getByRole('status').textContent()).toBe(
      'Danke – deine Stimme für NEAR Protocol ist gezählt.',
    );
    await shot(page, 'vote-de-dark-voted');
    await pollCard('closed').locator('.vote-option', { hasText: 'APT' }).scrollIntoViewIfNeeded();
    await shot(page, 'vote-de-dark-results');

    // A reload reads the same from the server: the vote is theirs and final.
    await page.reload();
    await pollCard('open').waitFor({ timeout: 15_000 });
    await expect.poll(() => countOf('NEAR'), { timeout: 10_000 }).toBe('1 Stimme · 50,0 %');
    expect(await pollCard('open').getByTestId('vote-mine').count()).toBe(1);
    expect(await pollCard('open').getByRole('status').textContent()).toBe(de('vote.voted'));
  });

  it('in English and light: an unverified user gets the prompt with the way to verification', async () => {
    await loggedInUser(server, page, 'vote-unverified@example.com', { lang: 'en', theme: 'light' });
    const en = (key: string) => text('en', key);
    await page.goto(`${server.url}/pages/publication/vote`);
    const prompt = page.getByTestId('vote-verify');
    await prompt.waitFor({ timeout: 15_000 });
    expect(await prompt.textContent()).toContain(en('vote.verify.text'));
    // The tallies are there to read; there is nothing to choose.
    await expect.poll(() => countOf('ATOM'), { timeout: 10_000 }).toMatch(/^\d+ votes? · [\d.]+%$/);
    expect(await page.locator('input[type="radio"]').count()).toBe(0);
    expect(await page.getByTestId('vote-note').textContent()).toBe(en('vote.note'));
    await shot(page, 'vote-en-light-unverified');
    await prompt.getByRole('link', { name: en('vote.verify.go') }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/pages/verification/index');
  });

  it('as a guest: reached from the IEO projects, shows the results and the way to log in', async () => {
    const app = JSON.stringify({ version: '1.0.0', theme: 'light', token: null, user: null });
    await page.addInitScript((stored) => {
      localStorage.setItem('lang', 'en');
      localStorage.setItem('tw.app', stored);
    }, app);
    const en = (key: string) => text('en', key);
    await page.goto(`${server.url}/pages/publication/index`);
    await page.getByRole('link', { name: en('ieo.links.vote') }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/pages/publication/vote');
    const guest = page.getByTestId('vote-guest');
    await guest.waitFor({ timeout: 15_000 });
    await pollCard('closed').waitFor({ timeout: 15_000 });
    expect(await countOf('APT', 'closed')).toBe('1 vote · 100.0%');
    expect(await page.locator('input[type="radio"]').count()).toBe(0);
    await shot(page, 'vote-en-light-guest');
    await guest.getByRole('link', { name: en('vote.guest.login') }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/pages/user/login/login');
    expect(new URL(page.url()).searchParams.get('backpage')).toBe('/pages/publication/vote');
  });
});
