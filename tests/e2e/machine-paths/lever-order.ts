import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { LeverPosition } from '../../../protocol/lever';
import { ENTRY_TICK_WAIT_MS } from '../../../protocol/spot';
import { DEFAULT_LEVER_SETTINGS, setLeverSettings } from '../../../server/domains/lever/terms';
import { withServerDatabase } from '../ledger-seed';
import { text } from '../locale';
import { FeedGate } from './feed-gate';
import { HeldCall } from './held-call';
import { type MachinePath, passes, type Step } from './plan';
import { attr, call, enabledNow, expectShown, lastPrice, marked, type Session, textNow } from './session';

/**
 * The lever order machine (machines/lever/order.machine.ts) driven through the lever page. The order lives in one
 * machine after another, as the page hands it on: the ticket's machine until the server has the order (it then lets
 * go, LeverTicket), the machine of its row in the orders list (waiting, pending, cancelling) or the positions list
 * (holding and the actions on it, closing), each drawn with its current states; once finished, its row in the history
 * says how it ended (no machine runs there: the row shows the server's word, as the machine's routing reads it).
 * Everything on the simulator book, except the paths through `verifying`: the real account's answer to an
 * unverified user (SPEC 8), which the simulator never gives.
 */

export interface LeverRun {
  session: Session;
  book: 'simulator' | 'real';
  type: 'market' | 'limit';
  leverage: number;
  /** A liquidation is driven by the operator's terms for new positions (a high maintenance margin rate). */
  liquidation: boolean;
  page?: Page;
  gate?: FeedGate;
  held?: HeldCall;
  /** The order the path follows (from the submission's answer; for a liquidation, the one liquidated). */
  id?: number;
  entryPrice?: string;
  quotesSeen: boolean;
}

const SYMBOL = 'BTC';
/** At this rate a 100x position's liquidation price lies about 0.01% from its entry (as in lever.test.ts). */
const LIQUIDATION_MMR = '0.0099';
/** Market time a liquidation may take: twenty jumps of two seconds (with the rate above, one or two do it). */
const LIQUIDATION_JUMPS = 20;

type Where = 'ticket' | 'orders' | 'positions' | 'history';
/** Which machine (or row) carries the order in each state. */
const CARRIER: Record<string, Where> = {
  entering: 'ticket',
  confirming: 'ticket',
  submitting: 'ticket',
  verifying: 'ticket',
  waiting: 'orders',
  pending: 'orders',
  cancelling: 'orders',
  holding: 'positions',
  confirmingClose: 'positions',
  closeRequested: 'positions',
  confirmingReverse: 'positions',
  reverseRequested: 'positions',
  settingStop: 'positions',
  addingMargin: 'positions',
  closing: 'positions',
  closed: 'history',
  liquidated: 'history',
  cancelled: 'history',
};
const ROW_ID: Record<Exclude<Where, 'ticket'>, string> = { orders: 'order', positions: 'position', history: 'history' };
/** Why a finished order ended, as the history row names it (the causes these paths drive). */
const REASON: Record<string, string> = { closed: 'user', liquidated: 'liquidation', cancelled: 'no_tick' };

/** Where the path goes decides how it is driven. The market is held from here on until a path makes it tick. */
export async function beginLeverPath(session: Session, path: MachinePath): Promise<LeverRun> {
  await cleanUp(session);
  const liquidation = passes(path, 'order', 'liquidated');
  if (liquidation) await setMmr(session, LIQUIDATION_MMR);
  return {
    session,
    book: passes(path, 'order', 'verifying') ? 'real' : 'simulator',
    // A limit far below the market rests: the only way to `pending`.
    type: passes(path, 'order', 'pending') ? 'limit' : 'market',
    leverage: liquidation ? 100 : 10,
    liquidation,
    quotesSeen: false,
  };
}

export async function endLeverPath(run: LeverRun): Promise<void> {
  await run.held?.drop();
  await run.page?.close();
  if (run.liquidation) await setMmr(run.session, DEFAULT_LEVER_SETTINGS.mmr);
}

/** The operator's lever terms (npm run ops -- lever …), set as the ops command does: for new positions only. */
async function setMmr(session: Session, mmr: string): Promise<void> {
  await withServerDatabase(session.server, async (handle) => {
    const done = await setLeverSettings(handle.db, (s) => ({ ...s, mmr }), { operator: 'e2e' });
    if (!done.ok) throw new Error(done.problem);
  });
}

/**
 * Before a path (no page open): what earlier paths left open goes, so each page shows only its own order. Waiting
 * orders run out of their wait on the clocks, resting ones are cancelled and positions closed at the next step.
 * Positions close through lever/close_all, which leaves one already closing as it is: a call of the last page that
 * reached the server late (after this list was read) then changes nothing here.
 */
async function cleanUp(session: Session): Promise<void> {
  await session.clocks.resync(ENTRY_TICK_WAIT_MS + 1_000);
  const open = [
    ...(await call<{ positions: LeverPosition[] }>(session, 'lever/my_trade', { list: 'orders', account: 'simulator' }))
      .positions,
    ...(
      await call<{ positions: LeverPosition[] }>(session, 'lever/my_trade', { list: 'positions', account: 'simulator' })
    ).positions,
  ];
  for (const p of open) {
    if (p.phase === 'pending' || p.phase === 'waiting') await call(session, 'lever/cancel', { id: String(p.id) });
  }
  if (open.some((p) => p.phase === 'holding')) await call(session, 'lever/close_all', { account: 'simulator' });
  if (open.some((p) => p.phase === 'holding' || p.phase === 'closing')) await session.clocks.step();
}

type Driver = (run: LeverRun, step: Step) => Promise<void>;

const pageOf = (run: LeverRun): Page => {
  if (!run.page) throw new Error('the page is not open');
  return run.page;
};

const tabName = (run: LeverRun, key: string) => {
  const label = text(run.session.lang, `lever.tabs.${key}`).split('{{')[0] as string;
  return new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
};

async function openTab(run: LeverRun, where: Exclude<Where, 'ticket'>): Promise<void> {
  await pageOf(run)
    .getByRole('tab', { name: tabName(run, where) })
    .click();
}

const rowOf = (run: LeverRun, where: Exclude<Where, 'ticket'>) => {
  if (run.id === undefined) throw new Error('the path has no order yet');
  return pageOf(run).getByTestId(`${ROW_ID[where]}-${run.id}`);
};

/** Each event of the machine, as the page (or the market, or the clocks) makes it happen. */
export const leverDrivers: Record<string, Driver> = {
  // The page opens with the feed gate closed: the ticket starts before any price has come.
  'xstate.init': async (run) => {
    const { session } = run;
    run.page = await session.context.newPage();
    run.gate = await FeedGate.install(run.page, { closed: true, sockets: session.clocks.sockets });
    const route = run.book === 'real' ? 'index' : 'simulator';
    await run.page.goto(`${session.server.url}/pages/lever/${route}?symbol=${SYMBOL}`);
  },
  PRICES_FRESH: async (run) => {
    run.gate?.open();
    run.quotesSeen = true;
  },
  PRICES_STALE: async (run) => {
    run.gate?.close();
    await run.session.clocks.agePagePrices();
  },
  // The ticket filled in and confirmed on its sheet (the default setting: SUBMIT is REVIEW then CONFIRM on the
  // page), the order held on its way so the ticket is seen submitting.
  SUBMIT: async (run) => {
    await fillTicket(run);
    run.held = await HeldCall.on(pageOf(run), 'lever/submit');
    await confirm(run);
    await pageOf(run).getByTestId('confirm-action').click();
    await run.held.arrived();
  },
  // The ticket filled in and shown on the confirmation sheet: nothing is sent.
  REVIEW: async (run) => {
    await fillTicket(run);
    await confirm(run);
    await expectShown('the sheet is shown', () => pageOf(run).getByTestId('confirm-sheet').isVisible()).toBe(true);
  },
  CLOSE: async (run) => {
    await openTab(run, 'positions');
    run.held = await HeldCall.on(pageOf(run), 'lever/close');
    await rowOf(run, 'positions').getByTestId('row-close').click();
    await pageOf(run).getByTestId('confirm-action').click();
    await run.held.arrived();
  },
  REVIEW_CLOSE: async (run) => {
    await openTab(run, 'positions');
    await rowOf(run, 'positions').getByTestId('row-close').click();
    await expectShown('the sheet is shown', () => pageOf(run).getByTestId('confirm-sheet').isVisible()).toBe(true);
  },
  REVIEW_REVERSE: async (run) => {
    await openTab(run, 'positions');
    await rowOf(run, 'positions').getByTestId('row-reverse').click();
    await expectShown('the sheet is shown', () => pageOf(run).getByTestId('confirm-sheet').isVisible()).toBe(true);
  },
  // The reverse's sheet confirmed (the only sheet a shortest path confirms on its own), the call held on its way.
  CONFIRM: async (run, step) => {
    if (step.regions.order !== 'reverseRequested') throw new Error(`no way to confirm into ${step.state}`);
    run.held = await HeldCall.on(pageOf(run), 'lever/reverse');
    await pageOf(run).getByTestId('confirm-action').click();
    await run.held.arrived();
  },

  // The order goes to the server; the market is held, so a market order waits for its entry tick.
  'submitOrder done': async (run, step) => {
    await answer(run, step.regions.order === 'verifying');
  },
  POSITION: async (run, step) => {
    await answer(run, false);
    const decide = serverDecides[step.regions.order as string];
    if (!decide) throw new Error(`no way to make the server say ${step.state}`);
    await decide(run);
  },
  CANCEL: async (run) => {
    await openTab(run, 'orders');
    run.held = await HeldCall.on(pageOf(run), 'lever/cancel');
    await rowOf(run, 'orders').getByTestId('order-cancel').click();
    await run.held.arrived();
  },
  SET_STOP: async (run) => {
    await openTab(run, 'positions');
    const row = rowOf(run, 'positions');
    const entry = Number(run.entryPrice);
    run.held = await HeldCall.on(pageOf(run), 'lever/setstop');
    await row.getByTestId('row-stops-open').click();
    // Take-profit 5% above and stop-loss 3% below the entry: at 10x the liquidation price is about 9.5% below.
    await row.getByTestId('stops-tp').fill(String(Math.ceil(entry * 1.05)));
    await row.getByTestId('stops-sl').fill(String(Math.floor(entry * 0.97)));
    await row.getByTestId('stops-save').click();
    await run.held.arrived();
  },
  ADD_MARGIN: async (run) => {
    await openTab(run, 'positions');
    const row = rowOf(run, 'positions');
    run.held = await HeldCall.on(pageOf(run), 'lever/add_margin');
    await row.getByTestId('row-margin-open').click();
    await row.getByTestId('margin-amount').fill('5');
    await row.getByTestId('margin-confirm').click();
    await run.held.arrived();
  },
};

/** The ticket as every path fills it: the run's order type, leverage and one lot. */
async function fillTicket(run: LeverRun): Promise<void> {
  const page = pageOf(run);
  const lang = run.session.lang;
  if (run.type === 'limit') {
    await page.getByRole('tab', { name: text(lang, 'lever.ticket.limit'), exact: true }).click();
    // A long limit a fifth below the market: no tick of these paths comes near it.
    const last = Number(await lastPrice(run.session, SYMBOL));
    await page.getByTestId('ticket-price').fill(String(Math.floor(last * 0.8)));
  }
  await page.getByTestId(`leverage-${run.leverage}`).click();
  await page.getByTestId('ticket-lots').fill('1');
}

async function confirm(run: LeverRun): Promise<void> {
  const button = pageOf(run).getByTestId('ticket-confirm');
  await expectShown('the ticket can be confirmed', () => enabledNow(button)).toBe(true);
  await button.click();
}

/** Lets the held submission through; an accepted order is the one the path follows. */
async function answer(run: LeverRun, refusalExpected: boolean): Promise<void> {
  const answered = await (run.held as HeldCall).release<LeverPosition>();
  run.held = undefined;
  if (answered.type === 'ok') run.id = answered.data.id;
  else if (!refusalExpected) throw new Error(`lever/submit refused: ${answered.message}`);
}

/** One step of the held market: the entry tick of a waiting order (and the exit of a closing one). */
async function tick(run: LeverRun): Promise<void> {
  const moved = await run.session.clocks.step();
  run.entryPrice ??= moved.ticks[SYMBOL]?.price;
}

/** The position's own close, through its row, answered at once; the market held, it closes at the next tick. */
async function closeFromRow(run: LeverRun): Promise<void> {
  await openTab(run, 'positions');
  const row = rowOf(run, 'positions');
  await expectShown('the position is open', () => attr(row, 'data-phase')).toBe('holding');
  const close = row.getByTestId('row-close');
  await expectShown('close is offered', () => enabledNow(close)).toBe(true);
  await close.click();
  await pageOf(run).getByTestId('confirm-action').click();
  await expectShown('the position is closing', () => attr(row, 'data-phase')).toBe('closing');
}

/** What the server says next, and how the test makes it say so (the market and the clocks). */
const serverDecides: Record<string, (run: LeverRun) => Promise<void>> = {
  // The entry tick: a market order opens at it, a limit far from it rests.
  pending: tick,
  holding: tick,
  // No entry tick within the wait (RULES "No tick, no trade").
  cancelled: async (run) => void (await run.session.clocks.advance(ENTRY_TICK_WAIT_MS + 1_000, 'held')),
  closing: async (run) => {
    await tick(run);
    await closeFromRow(run);
  },
  closed: async (run) => {
    await tick(run);
    await closeFromRow(run);
    await tick(run);
  },
  liquidated: liquidate,
};

/**
 * A liquidation is the market's to make: a long and a short at 100x under a high maintenance margin rate open at
 * the same entry tick, and the market ticks on until one of them is liquidated; the path follows that one.
 */
async function liquidate(run: LeverRun): Promise<void> {
  const page = pageOf(run);
  const first = run.id;
  await expectShown('the ticket let go of the first order', () => attr(page.getByTestId('ticket'), 'data-phase')).toBe(
    'entering',
  );
  await page.getByTestId('side-short').click();
  const second = await HeldCall.on(page, 'lever/submit');
  await confirm(run);
  await page.getByTestId('confirm-action').click();
  const answered = await second.release<LeverPosition>();
  if (answered.type !== 'ok') throw new Error(`the opposite order was refused: ${answered.message}`);
  const pair = [first, answered.data.id];
  await tick(run);
  for (let jump = 1; jump <= LIQUIDATION_JUMPS; jump++) {
    await run.session.clocks.advance(2_000, 'ticking');
    const history = await call<{ positions: LeverPosition[] }>(run.session, 'lever/my_trade', {
      list: 'history',
      account: 'simulator',
    });
    const liquidated = history.positions.find((p) => pair.includes(p.id) && p.close_reason === 'liquidation');
    if (liquidated) {
      run.id = liquidated.id;
      await run.session.clocks.hold();
      return;
    }
  }
  throw new Error(
    `neither the long nor the short at 100x (MMR ${LIQUIDATION_MMR}) was liquidated in ${LIQUIDATION_JUMPS * 2} s`,
  );
}

/** What the page must show in `step`'s state: the machine carrying the order, and the price gate. */
export async function leverShows(run: LeverRun, step: Step): Promise<void> {
  const page = pageOf(run);
  const lang = run.session.lang;
  const phase = step.regions.order as string;
  const where = CARRIER[phase];
  if (!where) throw new Error(`no place on the page for ${phase}`);
  const ticket = page.getByTestId('ticket');
  // The ticket carries the order until the server has it; then it is free for the next one.
  const ticketPhase = where === 'ticket' ? phase : 'entering';
  await expectShown(`the ticket is ${ticketPhase}`, () => attr(ticket, 'data-phase')).toBe(ticketPhase);

  if (phase === 'submitting') {
    expect(await attr(page.getByTestId('ticket-confirm'), 'aria-busy')).toBe('true');
  } else if (phase === 'verifying') {
    const dialog = page.getByRole('dialog', { name: text(lang, 'lever.verify.title') });
    await expectShown('the verification prompt', () => dialog.count()).toBe(1);
  } else if (where !== 'ticket') {
    // The close's confirmation sheet is modal: the row is read behind it, on the tab its driver opened.
    if (phase !== 'confirmingClose' && phase !== 'confirmingReverse') await openTab(run, where);
    const row = rowOf(run, where);
    await expectShown(`its row is ${phase}`, () => attr(row, 'data-phase')).toBe(phase);
    expect(await textNow(row.getByTestId('row-phase'))).toBe(text(lang, `lever.phase.${phase}`));
    if (where === 'history') {
      expect(await attr(row, 'data-reason')).toBe(REASON[phase]);
    } else {
      // The row's own machine, drawn with its current states.
      await expectShown(`its drawing marks ${step.state}`, () => marked(row)).toEqual([...step.ids].sort());
    }
    if (phase === 'cancelling') expect(await attr(row.getByTestId('order-cancel'), 'aria-busy')).toBe('true');
    if (phase === 'closeRequested') expect(await attr(row.getByTestId('row-close'), 'aria-busy')).toBe('true');
    if (phase === 'reverseRequested') expect(await attr(row.getByTestId('row-reverse'), 'aria-busy')).toBe('true');
  }
  await pricesShow(run, ticketPhase, step.regions.prices === 'stale');
}

/** Stale prices: the page's note, and the ticket's confirm switched off while it could place an order. */
async function pricesShow(run: LeverRun, ticketPhase: string, stale: boolean): Promise<void> {
  const page = pageOf(run);
  const blocked = page.getByTestId('stale-blocked');
  const note = page.getByTestId('stale-note');
  if (stale) {
    // The ticket could place an order, or confirm the one on its sheet: stale prices switch that off.
    const canOrder = ticketPhase === 'entering' || ticketPhase === 'confirming';
    await expectShown('the ticket says prices are stale', () => blocked.count()).toBe(canOrder ? 1 : 0);
    if (run.quotesSeen) await expectShown('the stale note', () => note.count()).toBe(1);
    if (ticketPhase === 'entering') expect(await enabledNow(page.getByTestId('ticket-confirm'))).toBe(false);
    if (ticketPhase === 'confirming') expect(await enabledNow(page.getByTestId('confirm-action'))).toBe(false);
  } else {
    await expectShown('no stale note', () => note.count()).toBe(0);
    await expectShown('nothing blocked by stale prices', () => blocked.count()).toBe(0);
  }
}
