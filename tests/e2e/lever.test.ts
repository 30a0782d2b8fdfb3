import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withLever } from '../../server/domains/lever';
import { DEFAULT_LEVER_SETTINGS, setLeverSettings } from '../../server/domains/lever/terms';
import { browserPerTest, type InProcessServer, LOOKS, shot, startServerInProcess } from './harness';
import { depositDirectly, verifyIdentity, withServerDatabase } from './ledger-seed';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Lever in a real Chromium at 375x812 against the real server in this process (ticks every 250 ms). On the
 * simulator a user opens a long isolated and a short cross position, watches the floating P&L computed by the
 * positions worker (a real module Worker of the built app) move with the prices, sets take-profit and stop-loss,
 * adds margin and sees the liquidation price move, and closes one. A real account without verification is
 * prompted to verify; stale prices switch the ticket off. Last, a liquidation arriving live moves its row to the
 * history with the reason "liquidation". A long reversed from its one sheet becomes a short of the same lots whose entry
 * is the long's exit tick.
 */
let server: InProcessServer;
let page: Page;

/** Test set-up only, never a product path: money straight into the real contract account, like a deposit. */
const fundContract = (userId: number, amount: string) =>
  depositDirectly(server, { userId, requestId: `e2e-lever-${userId}`, currency: 'USDT', amount, to: 'contract' });

/** The operator's lever terms (npm run ops -- lever ...), set as the ops command does: for new positions only. */
const setMmr = (mmr: string) =>
  withServerDatabase(server, async (handle) => {
    const done = await setLeverSettings(handle.db, (s) => ({ ...s, mmr }), { operator: 'e2e' });
    if (!done.ok) throw new Error(done.problem);
  });

/** A number as the English interface shows it ('64,250.12 USDT' → 64250.12). */
const number = (s: string | null) => Number((s ?? '').replace(/[^\d.-]/g, ''));
const practice = async () => number(await page.getByTestId('practice-balance').textContent());
const positionRows = () => page.locator('li[data-testid^="position-"]');
const rowOf = (side: 'Long' | 'Short'): Locator => positionRows().filter({ hasText: new RegExp(`^${side} `) });
// Rows out of sight take no figures (the ticket's action stays in reach without a scroll), so bring the row into view
// before waiting for its floating P&L: the first row may sit below the fold depending on the ticket's height.
const pnlShown = async (row: Locator): Promise<void> => {
  await row.scrollIntoViewIfNeeded();
  await expect.poll(() => row.getByTestId('row-pnl').textContent(), { timeout: 15_000 }).toMatch(/\d/);
};

/** Fills the ticket and confirms once the price gate lets it. */
async function open(
  side: 'long' | 'short',
  options: { lots: string; leverage: number; cross?: boolean; lang?: 'de' | 'en' },
) {
  const lang = options.lang ?? 'en';
  await page.getByTestId(`side-${side}`).click();
  const mode = text(lang, options.cross ? 'lever.ticket.cross' : 'lever.ticket.isolated');
  await page.getByRole('tab', { name: mode, exact: true }).click();
  await page.getByTestId(`leverage-${options.leverage}`).click();
  await page.getByTestId('ticket-lots').fill(options.lots);
  const confirm = page.getByTestId('ticket-confirm');
  await expect.poll(() => confirm.isEnabled(), { timeout: 15_000 }).toBe(true);
  await confirm.click();
  // Nothing is sent before the sheet is confirmed: it names the order as it will go out.
  const sheet = page.getByTestId('confirm-sheet');
  await expect.poll(() => sheet.isVisible(), { timeout: 10_000 }).toBe(true);
  expect(await page.getByTestId('confirm-side').textContent()).toBe(
    text(lang, side === 'long' ? 'lever.ticket.long' : 'lever.ticket.short'),
  );
  expect(await page.getByTestId('confirm-leverage').textContent()).toContain(`${options.leverage}x`);
  expect(await page.getByTestId('confirm-margin').textContent()).toMatch(/\d.*USDT/);
  await page.getByTestId('confirm-action').click();
}

/** A position's close, confirmed on its sheet. */
async function closeRow(row: Locator) {
  await row.getByTestId('row-close').click();
  await expect.poll(() => page.getByTestId('confirm-sheet').isVisible(), { timeout: 10_000 }).toBe(true);
  expect(await page.getByTestId('confirm-fee').textContent()).toMatch(/\d.*USDT/);
  await page.getByTestId('confirm-action').click();
}

/**
 * A picture of a live screen: `shot` checks accessibility in both themes first, which can hold the page's thread
 * long enough for prices to go stale; the picture is taken again once they are fresh, so it shows the screen as
 * a user sees it.
 */
async function liveShot(name: string) {
  await shot(page, name);
  const dir = process.env.E2E_SHOTS;
  if (!dir) return;
  await expect.poll(() => page.getByTestId('stale-note').count(), { timeout: 15_000 }).toBe(0);
  await expect.poll(() => page.getByTestId('ticket-confirm').isEnabled(), { timeout: 15_000 }).toBe(true);
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** Both themes of the same screen: the shell switches themes by data-theme on <html>. */
async function shotsInBothThemes(name: string, first: 'dark' | 'light') {
  const second = first === 'dark' ? 'light' : 'dark';
  await liveShot(`${name}-${first}`);
  await page.evaluate((theme) => {
    document.documentElement.dataset.theme = theme;
  }, second);
  await liveShot(`${name}-${second}`);
  await page.evaluate((theme) => {
    document.documentElement.dataset.theme = theme;
  }, first);
}

describe('lever in the browser', () => {
  browserPerTest(
    // Closes are re-checked against the price record on lever/info: the record is on.
    () => startServerInProcess({ record: true }),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('opens long isolated and short cross on the simulator, live P&L from the worker, TP/SL, margin, close', async () => {
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await loggedInUser(server, page, 'lever-sim@example.com');
    await page.goto(`${server.url}/pages/lever/simulator?symbol=BTC`);

    // Clearly practice: the band, its note, and the way back to the real account.
    const book = page.getByTestId('book');
    await expect.poll(() => book.getAttribute('data-book'), { timeout: 15_000 }).toBe('simulator');
    expect(await book.textContent()).toContain(text('en', 'lever.book.practice'));
    await expect.poll(practice, { timeout: 15_000 }).toBe(10_000);
    await expect.poll(() => page.getByTestId('lever-last').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    expect(await page.getByTestId('risk-note').isVisible()).toBe(true);
    expect(await page.getByText(text('en', 'lever.positions.empty')).count()).toBe(1);

    // Before confirming: 2 lots of 0.001 BTC at 10x hold a tenth of the notional, plus the 0.05% fee.
    await page.getByTestId('ticket-lots').fill('2');
    await page.getByTestId('leverage-10').click();
    const last = number(await page.getByTestId('lever-last').textContent());
    const margin = number(await page.getByTestId('estimate-margin').textContent());
    expect(Math.abs(margin - (0.002 * last) / 10)).toBeLessThan(1);
    expect(number(await page.getByTestId('estimate-fee').textContent())).toBeGreaterThan(0);
    expect(await page.getByTestId('ticket-available').textContent()).toContain('10,000');

    // SPEC 5: lots must be a whole number of at least 1 (the field keeps digits only; 0 is refused).
    await page.getByTestId('ticket-lots').fill('0');
    const confirm = page.getByTestId('ticket-confirm');
    await expect.poll(() => confirm.isEnabled(), { timeout: 15_000 }).toBe(true);
    await confirm.click();
    expect(await page.getByRole('alert').first().textContent()).toContain('whole number');

    await open('long', { lots: '2', leverage: 10 });
    await expect.poll(() => rowOf('Long').count(), { timeout: 20_000 }).toBe(1);
    await open('short', { lots: '1', leverage: 20, cross: true });
    await expect.poll(() => rowOf('Short').count(), { timeout: 20_000 }).toBe(1);
    const long = rowOf('Long');
    const short = rowOf('Short');
    expect(await long.textContent()).toContain(text('en', 'lever.ticket.isolated'));
    expect(await short.textContent()).toContain(text('en', 'lever.ticket.cross'));

    // The worker runs as a real module Worker of the built app, and its figures fill the cells and move.
    expect(workers.some((url) => url.includes('positions'))).toBe(true);
    const pnl = long.getByTestId('row-pnl');
    await pnlShown(long);
    const firstPnl = await pnl.textContent();
    await expect.poll(() => pnl.textContent(), { timeout: 30_000 }).not.toBe(firstPnl);
    await expect.poll(() => short.getByTestId('row-liquidation').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    await expect.poll(() => long.getByTestId('row-distance').textContent(), { timeout: 15_000 }).toMatch(/%/);
    expect(await long.getAttribute('data-warning')).toBe('safe');

    // Take-profit 5% above and stop-loss 3% below the entry (10x: the liquidation price is about 9.5% below).
    const entry = number(await long.locator('dd').nth(3).textContent());
    const tp = Math.round(entry * 1.05);
    const sl = Math.round(entry * 0.97);
    await long.getByTestId('row-stops-open').click();
    await long.getByTestId('stops-tp').fill(String(tp));
    await long.getByTestId('stops-sl').fill(String(sl));
    await long.getByTestId('stops-save').click();
    await expect
      .poll(async () => number((await long.getByTestId('row-stops').textContent())?.split('/')[0] ?? ''), {
        timeout: 15_000,
      })
      .toBe(tp);

    // Add 5 USDT of margin: the form shows the new liquidation price first, then the row's moves down to it.
    const lpBefore = number(await long.getByTestId('row-liquidation').textContent());
    await long.getByTestId('row-margin-open').click();
    await long.getByTestId('margin-amount').fill('5');
    const preview = await long.getByTestId('margin-new-liquidation').textContent();
    const previewLp = number(preview?.split('(')[0] ?? '');
    expect(previewLp).toBeLessThan(lpBefore);
    await shotsInBothThemes('lever-add-margin-en', 'dark');
    await long.getByTestId('margin-confirm').click();
    await expect
      .poll(async () => number(await long.getByTestId('row-liquidation').textContent()), {
        timeout: 15_000,
      })
      .toBe(previewLp);
    await shotsInBothThemes('lever-positions-en', 'dark');

    // Close the short: it leaves the open list and shows in the history, closed by the user.
    await closeRow(short);
    await expect.poll(() => rowOf('Short').count(), { timeout: 20_000 }).toBe(0);
    await page.getByRole('tab', { name: text('en', 'lever.tabs.history') }).click();
    const history = page.locator('li[data-testid^="history-"]');
    await expect.poll(() => history.count(), { timeout: 15_000 }).toBe(1);
    expect(await history.first().getAttribute('data-reason')).toBe('user');
    expect(await history.first().textContent()).toContain(text('en', 'lever.closeReason.user'));
    await liveShot('lever-history-en-dark');

    // Practice funds: margin is held, the short's result is booked; a reset brings the available back to 10,000.
    await page.getByTestId('reset').click();
    await page.getByTestId('reset-confirm').click();
    await expect.poll(practice, { timeout: 10_000 }).toBe(10_000);
    await page.getByTestId('exit-simulation').click();
    await expect.poll(() => page.getByTestId('book').getAttribute('data-book'), { timeout: 15_000 }).toBe('real');
  });

  it('a verified user opens and closes a position on the real account', async () => {
    const session = await loggedInUser(server, page, 'lever-verified@example.com');
    await fundContract(session.user.id, '100');
    await verifyIdentity(server, session.token);
    await page.goto(`${server.url}/pages/lever/index?symbol=ETH`);
    await expect.poll(() => page.getByTestId('book').getAttribute('data-book'), { timeout: 15_000 }).toBe('real');
    expect(await page.getByTestId('verify-banner').count()).toBe(0);
    await open('long', { lots: '1', leverage: 10 });
    await expect.poll(() => rowOf('Long').count(), { timeout: 20_000 }).toBe(1);
    await pnlShown(rowOf('Long'));
    await shot(page, 'lever-real-open');
    await closeRow(rowOf('Long'));
    await expect.poll(() => rowOf('Long').count(), { timeout: 20_000 }).toBe(0);
    await page.getByRole('tab', { name: text('en', 'lever.tabs.history') }).click();
    const history = page.locator('li[data-testid^="history-"]');
    await expect.poll(() => history.count(), { timeout: 15_000 }).toBe(1);
    expect(await history.first().getAttribute('data-reason')).toBe('user');
  });

  it('closes part of a position, then every position of the book, each confirmed', async () => {
    await loggedInUser(server, page, 'lever-parts@example.com', { lang: 'de' });
    await page.goto(`${server.url}/pages/lever/simulator?symbol=BTC`);
    await open('long', { lots: '3', leverage: 10, lang: 'de' });
    const long = positionRows().first();
    await expect.poll(() => long.getAttribute('data-phase'), { timeout: 20_000 }).toBe('holding');

    // One of its three lots: the sheet asks how many and names the part's fee; the rest holds on.
    await long.getByTestId('row-close').click();
    const lots = page.getByTestId('close-lots');
    await expect.poll(() => lots.inputValue(), { timeout: 10_000 }).toBe('3');
    await lots.fill('4');
    expect(await page.getByTestId('confirm-action').isDisabled()).toBe(true);
    await lots.fill('1');
    expect(await page.getByTestId('confirm-action').textContent()).toBe(
      text('de', 'lever.confirm.closePart_one').replace('{{count}}', '1'),
    );
    await page.getByTestId('confirm-action').click();
    await page.getByRole('tab', { name: new RegExp(`^${text('de', 'lever.tabs.history')}`) }).click();
    const history = page.locator('li[data-testid^="history-"]');
    await expect.poll(() => history.count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole('tab', { name: /^Positionen/ }).click();
    await expect.poll(() => long.getAttribute('data-phase'), { timeout: 20_000 }).toBe('holding');
    expect(await positionRows().count()).toBe(1);

    // A second position, then close-all: both close at their next ticks.
    await open('short', { lots: '1', leverage: 5, lang: 'de' });
    await expect.poll(() => positionRows().count(), { timeout: 20_000 }).toBe(2);
    await page.getByTestId('close-all').click();
    await expect.poll(() => page.getByTestId('close-all-count').textContent(), { timeout: 10_000 }).toBe('2');
    await page.getByTestId('confirm-action').click();
    await expect.poll(() => positionRows().count(), { timeout: 20_000 }).toBe(0);
    await page.getByRole('tab', { name: new RegExp(`^${text('de', 'lever.tabs.history')}`) }).click();
    await expect.poll(() => history.count(), { timeout: 20_000 }).toBe(3);
  });

  it('prompts a real account without verification, with the way to the verification page', async () => {
    const session = await loggedInUser(server, page, 'lever-real@example.com');
    await fundContract(session.user.id, '100');
    await page.goto(`${server.url}/pages/lever/index?symbol=ETH`);
    await expect.poll(() => page.getByTestId('verify-banner').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('ticket-available').textContent(), { timeout: 15_000 }).toContain('100');
    await open('long', { lots: '1', leverage: 10 });
    // The server refuses (verificationRequired) and the machine shows SPEC 8's prompt.
    const dialog = page.getByRole('dialog', { name: text('en', 'lever.verify.title') });
    await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(1);
    await shot(page, 'lever-verify');
    await page.getByTestId('verify-go').click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/pages/verification/index');
  });

  it('in German and the light theme: positions, then stale prices switch the ticket and the rows off', async () => {
    await loggedInUser(server, page, 'lever-de@example.com', { lang: 'de', theme: 'light' });
    // "Show order flow" on (as the settings switch stores it): each row draws its machine with its live state.
    await page.addInitScript(() => localStorage.setItem('tw.orderFlow', '1'));
    await page.goto(`${server.url}/pages/lever/simulator?symbol=BTC`);
    await expect.poll(() => page.getByTestId('lever-last').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    await open('long', { lots: '3', leverage: 20, lang: 'de' });
    await expect.poll(() => positionRows().count(), { timeout: 20_000 }).toBe(1);
    await open('short', { lots: '1', leverage: 5, cross: true, lang: 'de' });
    await expect.poll(() => positionRows().count(), { timeout: 20_000 }).toBe(2);
    await pnlShown(positionRows().first());
    await page.getByTestId('ticket').scrollIntoViewIfNeeded();
    await shotsInBothThemes('lever-ticket-de', 'light');
    await page.getByTestId('positions').scrollIntoViewIfNeeded();
    await shotsInBothThemes('lever-positions-de', 'light');
    const flow = positionRows().first().getByTestId('machine-chart');
    const marked = () =>
      flow.locator('g[data-current]').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state')));
    await expect.poll(marked, { timeout: 15_000 }).toEqual(['leverOrder.order.holding', 'leverOrder.prices.fresh']);
    expect(await flow.getByTestId('machine-chart-now').textContent()).toBe('Jetzt: holding, fresh');
    await flow.scrollIntoViewIfNeeded();
    await shotsInBothThemes('lever-flow-de', 'light');

    const confirm = page.getByTestId('ticket-confirm');
    const close = positionRows().first().getByTestId('row-close');
    await expect.poll(() => close.isEnabled(), { timeout: 15_000 }).toBe(true);
    server.feed.stop();
    try {
      await expect.poll(() => page.getByTestId('stale-blocked').count(), { timeout: 15_000 }).toBe(1);
      expect(await confirm.isDisabled()).toBe(true);
      expect(await close.isDisabled()).toBe(true);
      await shot(page, 'lever-stale-de-light');
      // The machine's price region follows the feed.
      await expect.poll(marked, { timeout: 15_000 }).toEqual(['leverOrder.order.holding', 'leverOrder.prices.stale']);
    } finally {
      server.feed.start();
    }
    await expect.poll(() => confirm.isEnabled(), { timeout: 15_000 }).toBe(true);
  });

  for (const [lang, theme] of LOOKS) {
    it(`reverses a long into a short of the same lots at one tick, from one sheet (${lang}, ${theme})`, async () => {
      const session = await loggedInUser(server, page, `lever-reverse-${lang}@example.com`, { lang, theme });
      const qty = lang === 'de' ? '0,002' : '0.002';
      await page.goto(`${server.url}/pages/lever/simulator?symbol=BTC`);
      await open('long', { lots: '2', leverage: 10, lang });
      const long = rowOf('Long');
      await expect.poll(() => long.getAttribute('data-phase'), { timeout: 20_000 }).toBe('holding');
      const reverse = long.getByTestId('row-reverse');
      expect(await reverse.textContent()).toBe(text(lang, 'lever.row.reverse'));
      await expect.poll(() => reverse.isEnabled(), { timeout: 15_000 }).toBe(true);

      // One sheet names both trades: the close of the long's 2 lots and the open of a 2-lot short, at the next tick.
      await reverse.click();
      await expect.poll(() => page.getByTestId('confirm-sheet').isVisible(), { timeout: 10_000 }).toBe(true);
      expect(await page.getByTestId('reverse-close').textContent()).toMatch(new RegExp(`^Long 2 \\S+ = ${qty} BTC$`));
      expect(await page.getByTestId('reverse-open').textContent()).toMatch(new RegExp(`^Short 2 \\S+ = ${qty} BTC$`));
      expect(await page.getByTestId('confirm-leverage').textContent()).toContain('10x');
      await expect
        .poll(() => page.getByTestId('reverse-margin').textContent(), { timeout: 10_000 })
        .toMatch(/\d.*USDT/);
      expect(await page.getByTestId('reverse-fee').textContent()).toMatch(/\d.*USDT/);
      expect(await page.getByTestId('reverse-liquidation').textContent()).toMatch(/\d/);
      await shot(page, `lever-reverse-${lang}-${theme}`);
      await page.getByTestId('confirm-action').click();

      // The long leaves for the history, closed by the user; a short of 2 lots holds, marked as a reverse.
      const short = rowOf('Short');
      await expect.poll(() => short.count(), { timeout: 20_000 }).toBe(1);
      await expect.poll(() => short.getAttribute('data-phase'), { timeout: 20_000 }).toBe('holding');
      expect(await rowOf('Long').count()).toBe(0);
      expect(await short.getByTestId('row-reversed').textContent()).toBe(text(lang, 'lever.row.reversedFrom'));
      expect(await short.locator('dd').nth(2).textContent()).toBe('2');
      const shortEntry = await short.locator('dd').nth(3).textContent();
      await page.getByRole('tab', { name: new RegExp(`^${text(lang, 'lever.tabs.history')}`) }).click();
      const history = page.locator('li[data-testid^="history-"]');
      await expect.poll(() => history.count(), { timeout: 20_000 }).toBe(1);
      expect(await history.first().getAttribute('data-reason')).toBe('user');
      expect(await history.first().getByTestId('history-reason').textContent()).toBe(
        text(lang, 'lever.closeReason.user'),
      );
      // The long's exit as the history shows it is the short's entry.
      expect(await history.first().locator('dd').nth(1).textContent()).toBe(shortEntry);

      // And it is the same recorded tick: the short names the long and entered at the long's exit sequence number.
      const rows = await withServerDatabase(server, (handle) =>
        withLever(handle.db)
          .selectFrom('lever_positions')
          .selectAll()
          .where('user_id', '=', session.user.id)
          .orderBy('id')
          .execute(),
      );
      const [closed, opened] = rows;
      expect(rows).toHaveLength(2);
      expect(closed).toMatchObject({ side: 'long', phase: 'closed', close_reason: 'user', lots: 2 });
      expect(opened).toMatchObject({
        side: 'short',
        phase: 'holding',
        lots: 2,
        leverage: 10,
        margin_mode: 'isolated',
        reversed_from: closed?.id,
        entry_seq: closed?.exit_seq,
        entry_price: closed?.exit_price,
      });
    });
  }

  it('a liquidation arriving live moves the row to the history with the reason "liquidation"', async () => {
    // Driven by the operator's terms, not by the price: at MMR 0.99% a 100x position's liquidation price lies
    // about 0.01% from its entry, so a long and a short of the same instrument cannot both outlive the next moves.
    await setMmr('0.0099');
    try {
      await loggedInUser(server, page, 'lever-liq@example.com');
      await page.goto(`${server.url}/pages/lever/simulator?symbol=BTC`);
      await expect.poll(() => page.getByTestId('lever-last').textContent(), { timeout: 15_000 }).toMatch(/\d/);
      await open('long', { lots: '1', leverage: 100 });
      await open('short', { lots: '1', leverage: 100 });
      await page.getByRole('tab', { name: text('en', 'lever.tabs.history') }).click();
      const liquidated = page.locator('li[data-testid^="history-"][data-reason="liquidation"]');
      await expect.poll(() => liquidated.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
      expect(await liquidated.first().textContent()).toContain(text('en', 'lever.closeReason.liquidation'));
      expect(await liquidated.first().getAttribute('data-phase')).toBe('liquidated');
      await liveShot('lever-liquidated-en-dark');

      // Its details name the liquidation tick and re-check it against the price record with the published rules.
      await liquidated.first().getByRole('link').click();
      await expect
        .poll(() => page.getByTestId('position-info').getAttribute('data-phase'), { timeout: 15_000 })
        .toBe('closed');
      expect(await page.getByTestId('info-phase').textContent()).toContain(
        text('en', 'leverdetail.closeReason.liquidation'),
      );
      expect(await page.getByTestId('info-exit').textContent()).toMatch(/#\d+/);
      await expect.poll(() => page.getByTestId('recheck').getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
      await shot(page, 'lever-info-en-dark');
      await page.getByRole('link', { name: text('en', 'leverdetail.rule.link') }).click();
      await expect.poll(() => page.getByTestId('rule-terms').count(), { timeout: 15_000 }).toBe(1);
      expect(await page.getByTestId('risk-note').textContent()).toContain(
        text('en', 'leverdetail.rule.risk').slice(0, 20),
      );
      await shot(page, 'lever-rule-en-dark');
    } finally {
      await setMmr(DEFAULT_LEVER_SETTINGS.mmr);
    }
  });
});
