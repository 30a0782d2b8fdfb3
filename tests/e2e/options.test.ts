import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserPerTest, type InProcessServer, shot, startServerInProcess } from './harness';
import { depositDirectly, verifyIdentity } from './ledger-seed';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Options in a real Chromium at 375x812 against the real server in this process (ticks every 250 ms): on the
 * simulator a user buys up for 30 s, watches the countdown, sees the contract settle on its exit tick, the practice
 * balance move by its result, and the contract's detail re-checked against the price record; then resets the
 * practice funds. A real account without verification is prompted to verify; stale prices disable up and down.
 */
let server: InProcessServer;
let page: Page;

/** Option contracts settle from the price record and their detail re-checks against it: the record is on. */
const startRecordingServer = () => startServerInProcess({ record: true });

/** Test set-up only, never a product path: money straight into the real option account, like a deposit. */
const fundOption = (userId: number, amount: string) =>
  depositDirectly(server, { userId, requestId: `e2e-options-${userId}`, currency: 'USDT', amount, to: 'option' });

/** Basic identity verification, approved as an operator would. */
const verify = (token: string) => verifyIdentity(server, token);

const number = (s: string | null) => Number((s ?? '').replace(/[^\d.]/g, ''));
/** A result as shown ('+8.00 USDT', '-10.00 USDT', '0.00 USDT (flat)'), with its sign. */
const signed = (s: string | null) => (/-/.test(s ?? '') ? -1 : 1) * number(s);
const practice = async () => number(await page.getByTestId('practice-balance').textContent());
const countdown = async () => number(await page.getByTestId('countdown').textContent());
const SETTLED = ['won', 'lost', 'flat', 'refunded'];

describe('options in the browser', () => {
  browserPerTest(
    startRecordingServer,
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('buys up for 30 s on the simulator, counts down, settles on its exit tick, re-checks it, resets', async () => {
    await loggedInUser(server, page, 'options-sim@example.com');
    await page.goto(`${server.url}/pages/option/simulator?symbol=BTC`);

    // Clearly practice: the band, its note, and the way back to the real account.
    const book = page.getByTestId('book');
    await expect.poll(() => book.getAttribute('data-book'), { timeout: 15_000 }).toBe('simulator');
    expect(await book.textContent()).toContain(text('en', 'options.book.practice'));
    expect(await page.getByRole('link', { name: text('en', 'options.book.exit') }).count()).toBe(1);
    await expect.poll(practice, { timeout: 15_000 }).toBe(10_000);
    await expect.poll(() => page.getByTestId('option-last').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    expect(await page.getByTestId('risk-note').isVisible()).toBe(true);

    // 30 s at 80%, stake 10 USDT: a win would pay back 18.
    await page.getByTestId('period-30').click();
    await page.getByTestId('ticket-stake').fill('10');
    expect(await page.getByTestId('ticket-win').textContent()).toContain('18.00');
    const up = page.getByTestId('buy-up');
    await expect.poll(() => up.isEnabled(), { timeout: 15_000 }).toBe(true);
    await up.click();

    // Accepted, entered on its first tick, then counting down on server time.
    const status = page.getByTestId('contract-status');
    await expect.poll(() => status.getAttribute('data-phase'), { timeout: 20_000 }).toBe('running');
    await expect.poll(practice, { timeout: 10_000 }).toBe(9_990);
    const first = await countdown();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(30);
    await expect.poll(countdown, { timeout: 10_000 }).toBeLessThan(first);
    expect(await page.getByTestId('standing').textContent()).toContain(text('en', 'options.standing.basis'));
    expect(await page.getByTestId('running').locator('li').count()).toBe(1);
    await shot(page, 'options-running');

    // At E the countdown stops; the server settles from the record and the result arrives on the socket.
    await expect
      .poll(() => status.getAttribute('data-phase'), { timeout: 60_000 })
      .toSatisfy((phase: string | null) => SETTLED.includes(phase ?? ''));
    // The result is what the contract made or lost (a loss is -10, not the 0 it paid back): the balance moves by it.
    const result = signed(await page.getByTestId('status-result').textContent());
    await expect.poll(practice, { timeout: 10_000 }).toBe(10_000 + result);
    await expect.poll(() => page.getByTestId('running').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('results').locator('li').count(), { timeout: 10_000 }).toBe(1);
    await shot(page, 'options-settled');

    // The detail: entry and exit ticks with time and price, the rule applied, the payout, and the re-check.
    await page.getByTestId('status-details').click();
    await expect.poll(() => page.getByTestId('contract-info').count(), { timeout: 15_000 }).toBe(1);
    const state = await page.getByTestId('contract-info').getAttribute('data-state');
    expect(SETTLED).toContain(state);
    expect(await page.getByTestId('info-entry').textContent()).toMatch(/#\d+/);
    if (state !== 'refunded') expect(await page.getByTestId('info-exit').textContent()).toMatch(/#\d+/);
    expect(signed(await page.getByTestId('info-result').textContent())).toBe(result);
    expect(number(await page.getByTestId('info-payout').textContent())).toBe(10 + result);
    const recheck = page.getByTestId('recheck');
    await expect.poll(() => recheck.getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    await recheck.getByRole('button', { name: text('en', 'options.recheck.what') }).click();
    const entrySeq = (await page.getByTestId('info-entry').textContent())?.match(/#(\d+)/)?.[1];
    expect(await page.getByTestId('recheck-explain').textContent()).toContain(`#${entrySeq}`);
    await shot(page, 'options-info');

    // Back on the simulator: reset the practice funds to 10,000.
    await page.goto(`${server.url}/pages/option/simulator?symbol=BTC`);
    await expect.poll(practice, { timeout: 15_000 }).toBe(10_000 + result);
    await page.getByTestId('reset').click();
    await page.getByTestId('reset-confirm').click();
    await expect.poll(practice, { timeout: 10_000 }).toBe(10_000);

    // Exit simulation: back to the real account's Option tab.
    await page.getByTestId('exit-simulation').click();
    await expect.poll(() => page.getByTestId('book').getAttribute('data-book'), { timeout: 15_000 }).toBe('real');
  }, 150_000);

  it('shows the result of a contract that settled while the socket was down', async () => {
    await loggedInUser(server, page, 'options-offline@example.com');
    await page.goto(`${server.url}/pages/option/simulator?symbol=BTC`);
    await page.getByTestId('period-30').click();
    await page.getByTestId('ticket-stake').fill('10');
    const up = page.getByTestId('buy-up');
    await expect.poll(() => up.isEnabled(), { timeout: 15_000 }).toBe(true);
    await up.click();
    const status = page.getByTestId('contract-status');
    await expect.poll(() => status.getAttribute('data-phase'), { timeout: 20_000 }).toBe('running');

    // The socket goes down and stays down past the settlement: every handshake is refused. Only the open-contract
    // polls reach the server; the contract leaves their list, and the ticket asks for how it ended.
    let refusing = true;
    server.app.io.use((_socket, next) => (refusing ? next(new Error('down for the test')) : next()));
    server.app.io.disconnectSockets(true);
    try {
      await expect
        .poll(() => status.getAttribute('data-phase'), { timeout: 90_000 })
        .toSatisfy((phase: string | null) => SETTLED.includes(phase ?? ''));
      await shot(page, 'options-settled-offline');
    } finally {
      refusing = false;
    }
    await expect.poll(() => page.getByTestId('results').locator('li').count(), { timeout: 15_000 }).toBe(1);
  }, 150_000);

  it('prompts a real account without verification, with the way to the verification page', async () => {
    const session = await loggedInUser(server, page, 'options-real@example.com');
    await fundOption(session.user.id, '100');
    await page.goto(`${server.url}/pages/option/detail?symbol=BTC`);

    // The Option tab sits after Spot in the tab bar.
    const tabs = page.getByRole('navigation', { name: text('en', 'nav.tabs') });
    await expect.poll(() => tabs.getByRole('link').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    const labels = await tabs.getByRole('link').allTextContents();
    expect(labels.indexOf(text('en', 'tabs.option'))).toBe(labels.indexOf(text('en', 'tabs.spot')) + 1);
    expect(labels.at(-1)).toBe(text('en', 'tabs.assets'));

    await expect.poll(() => page.getByTestId('verify-banner').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('ticket-available').textContent(), { timeout: 15_000 }).toContain('100');
    await page.getByTestId('period-30').click();
    await page.getByTestId('ticket-stake').fill('10');
    const up = page.getByTestId('buy-up');
    await expect.poll(() => up.isEnabled(), { timeout: 15_000 }).toBe(true);
    await up.click();
    // The server refuses (verificationRequired) and the machine shows SPEC 8's prompt.
    const dialog = page.getByRole('dialog', { name: text('en', 'options.verify.title') });
    await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(1);
    await shot(page, 'options-verify');
    await page.getByTestId('verify-go').click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/pages/verification/index');
  });

  it('a verified user buys down on the real account and sees it run on the real book', async () => {
    const session = await loggedInUser(server, page, 'options-verified@example.com', { lang: 'de' });
    await fundOption(session.user.id, '100');
    await verify(session.token);
    await page.goto(`${server.url}/pages/option/detail?symbol=ETH`);
    await expect.poll(() => page.getByTestId('book').getAttribute('data-book'), { timeout: 15_000 }).toBe('real');
    expect(await page.getByTestId('verify-banner').count()).toBe(0);
    await page.getByTestId('period-60').click();
    await page.getByTestId('ticket-stake').fill('10');
    const down = page.getByTestId('buy-down');
    await expect.poll(() => down.isEnabled(), { timeout: 15_000 }).toBe(true);
    await down.click();
    const status = page.getByTestId('contract-status');
    await expect.poll(() => status.getAttribute('data-phase'), { timeout: 20_000 }).toBe('running');
    // The stake is held in the real option account; the countdown runs from the 60 s period.
    await expect.poll(() => page.getByTestId('ticket-available').textContent(), { timeout: 10_000 }).toContain('90');
    expect(await countdown()).toBeLessThanOrEqual(60);
    expect(await page.getByTestId('running').locator('li').count()).toBe(1);
    await shot(page, 'options-real-running');
  });

  it('shows the rules; stale prices disable up and down until prices are fresh again (light theme)', async () => {
    await loggedInUser(server, page, 'options-stale@example.com', { theme: 'light' });
    // The rule page first: each period's ratio and the house edge from houseEdge() (0.80 → 10%), and the risk note.
    await page.goto(`${server.url}/pages/option/rule`);
    await expect.poll(() => page.getByTestId('rule-30').textContent(), { timeout: 15_000 }).toContain('80%');
    expect(await page.getByTestId('rule-30').textContent()).toContain('10%');
    expect(await page.getByTestId('rule-120').textContent()).toContain('7.5%');
    expect(await page.getByTestId('risk-note').isVisible()).toBe(true);
    await shot(page, 'options-rule');

    await page.goto(`${server.url}/pages/option/simulator?symbol=BTC`);
    const up = page.getByTestId('buy-up');
    const down = page.getByTestId('buy-down');
    await expect.poll(() => up.isEnabled(), { timeout: 15_000 }).toBe(true);
    server.feed.stop();
    try {
      await expect.poll(() => page.getByTestId('stale-blocked').count(), { timeout: 15_000 }).toBe(1);
      expect(await up.isDisabled()).toBe(true);
      expect(await down.isDisabled()).toBe(true);
      await shot(page, 'options-stale');
    } finally {
      server.feed.start();
    }
    await expect.poll(() => up.isEnabled(), { timeout: 15_000 }).toBe(true);
  });
});
