import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { OPTION_ENTRY_WAIT_MS, type OptionContract, type OptionDirection } from '../../../protocol/options';
import { optionExpiryTs } from '../../../protocol/rules/options';
import type { HookTick } from '../../../server/clock-hook/hook';
import { SETTLE_GRACE_MS } from '../../../server/domains/options/engine';
import { text } from '../locale';
import { FeedGate } from './feed-gate';
import { HeldCall } from './held-call';
import { type MachinePath, passes, type Step } from './plan';
import { attr, enabledNow, expectShown, marked, type Session, SHOWN_MS, textNow } from './session';

/**
 * The option contract machine (machines/options/contract.machine.ts) driven through the option page: the ticket's
 * machine carries the contract from choosing to its result, and each open contract's row runs the same machine
 * (drawn with its current states, "show order flow"). Everything on the simulator book, except the two paths
 * through `verifying`: that is the real account's answer to an unverified user (SPEC 8), which the simulator never
 * gives, so those buy on the same user's real account.
 */

interface Side {
  direction: OptionDirection;
  page: Page;
  gate: FeedGate;
  held?: HeldCall;
  contract?: OptionContract;
}

export interface OptionRun {
  session: Session;
  book: 'simulator' | 'real';
  symbol: string;
  period: number;
  /** The directions bought: up, or an up and a down together when the market decides the result. */
  directions: readonly OptionDirection[];
  /** Every page the path drives, one per direction. */
  sides: Side[];
  /** The pages whose machine the path follows (the one whose contract ended as the path says, once it has). */
  followed: Side[];
  /** Whether the page has had live prices yet (before, it has nothing to mark stale). */
  quotesSeen: boolean;
  /** E of the contracts bought (their entry tick's time plus the period). */
  expiry?: number;
  /** A flat path's plan: the entry price, and how many steps after the entry the walk is back at it. */
  flat?: { entry: string; backAfter: number };
}

const FINAL = ['won', 'lost', 'flat', 'refunded', 'cancelled'];
const COUNTING = ['waiting', 'running', 'settling'];
const MARKET_DECIDES = ['won', 'lost', 'flat'];
const STAKE = '10';
/** Pairs a path buys before the market gives it the result it follows (a BTC pair ends flat about 1 in 10,000). */
const PAIRS = 3;
/**
 * A flat path's exit comes at most this many steps (seconds) after the entry, well inside the 60 s period: the steps
 * go out in later requests than the entry, and the held market skips the grid times that real time passes meanwhile.
 */
const FLAT_BACK_WITHIN = 40;
/** How far ahead a flat path looks for its entry (TRX comes back within 40 steps almost every time: at most 6 in). */
const FLAT_LOOK_AHEAD = 600;

/** Where the path goes decides how it is driven: which book, which instrument, one page or an up/down pair. */
export async function beginOptionPath(session: Session, path: MachinePath): Promise<OptionRun> {
  // Leftovers of earlier paths (waiting or running contracts) settle before this one starts: no page is open. The
  // market is held from here on until a path makes it tick.
  await session.clocks.resync(75_000);
  const outcome = MARKET_DECIDES.find((s) => passes(path, 'contract', s));
  // Flat needs an exit at exactly the entry price: TRX moves a few ticks a second, BTC hundreds.
  const symbol = outcome === 'flat' ? 'TRX' : 'BTC';
  const flat = outcome === 'flat' ? await planFlat(session, symbol) : undefined;
  return {
    ...(flat ? { flat } : {}),
    session,
    book: passes(path, 'contract', 'verifying') ? 'real' : 'simulator',
    symbol,
    // A longer period gives the walk more ticks to land on the entry price.
    period: outcome === 'flat' ? 60 : 30,
    directions: outcome ? ['up', 'down'] : ['up'],
    sides: [],
    followed: [],
    quotesSeen: false,
  };
}

export async function endOptionPath(run: OptionRun): Promise<void> {
  for (const side of run.sides) {
    await side.held?.drop();
    await side.page.close();
  }
}

type Driver = (run: OptionRun, step: Step) => Promise<void>;

/** Each event of the machine, as the page (or the market, or the clocks) makes it happen. */
export const optionDrivers: Record<string, Driver> = {
  // The page opens with the feed gate closed: the ticket starts before any price has come.
  'xstate.init': async (run) => {
    const route = run.book === 'real' ? 'detail' : 'simulator';
    for (const direction of run.directions) {
      const page = await run.session.context.newPage();
      const gate = await FeedGate.install(page, { closed: true, sockets: run.session.clocks.sockets });
      await page.goto(`${run.session.server.url}/pages/option/${route}?symbol=${run.symbol}`);
      run.sides.push({ direction, page, gate });
    }
    run.followed = [...run.sides];
  },
  PRICES_FRESH: async (run) => {
    for (const side of run.sides) side.gate.open();
    run.quotesSeen = true;
  },
  PRICES_STALE: async (run) => {
    for (const side of run.sides) side.gate.close();
    await run.session.clocks.agePagePrices();
  },
  // The stake and period typed, the purchase held on its way so the ticket is seen submitting.
  SUBMIT: async (run) => {
    for (const side of run.sides) {
      await side.page.getByTestId(`period-${run.period}`).click();
      await side.page.getByTestId('ticket-stake').fill(STAKE);
      side.held = await HeldCall.on(side.page, 'microtrade/submit');
      const buy = side.page.getByTestId(`buy-${side.direction}`);
      await expectShown('the buy button is enabled', () => enabledNow(buy)).toBe(true);
      await buy.click();
      await side.held.arrived();
    }
  },
  // The purchase goes to the server; the market is held, so an accepted contract waits for its entry tick.
  'submitContract done': async (run, step) => {
    for (const side of run.sides) {
      const answer = await (side.held as HeldCall).release<OptionContract>();
      if (answer.type === 'ok') side.contract = answer.data;
      else if (step.regions.contract !== 'verifying') throw new Error(`microtrade/submit refused: ${answer.message}`);
    }
  },
  CONTRACT_UPDATE: async (run, step) => {
    const decide = serverDecides[step.regions.contract as string];
    if (!decide) throw new Error(`no way to make the server say ${step.state}`);
    await decide(run);
  },
  // The countdown runs out on both clocks; the market held, the server has no tick after E to settle on yet. (It
  // refunds SETTLE_GRACE_MS after E: the page has that long, in real time, to be seen settling.)
  'after untilExpiry': async (run) => {
    await run.session.clocks.advanceTo(expiryOf(run) + 1_000, 'held');
  },
};

const expiryOf = (run: OptionRun): number => {
  if (run.expiry === undefined) throw new Error('the contract has no entry tick yet');
  return run.expiry;
};

/** One step of the held market: the first tick after the acceptance, the entry of every contract bought. */
async function enter(run: OptionRun): Promise<HookTick> {
  const moved = await run.session.clocks.step();
  const tick = moved.ticks[run.symbol];
  if (!tick) throw new Error(`the step has no ${run.symbol} tick`);
  run.expiry = optionExpiryTs(tick.ts, run.period);
  return tick;
}

/** What the server says next, and how the test makes it say so (the market and the clocks, never an operator). */
const serverDecides: Record<string, (run: OptionRun) => Promise<void>> = {
  running: async (run) => void (await enter(run)),
  // No tick after the entry up to E: once the settlement's grace has passed, the stake comes back.
  refunded: async (run) => {
    await enter(run);
    await run.session.clocks.advanceTo(expiryOf(run) + SETTLE_GRACE_MS + 1_000, 'held');
  },
  // No entry tick within the wait: cancelled, the stake released.
  cancelled: async (run) => {
    await run.session.clocks.advance(OPTION_ENTRY_WAIT_MS + 1_000, 'held');
  },
  won: (run) => settleByMarket(run, 'won'),
  lost: (run) => settleByMarket(run, 'lost'),
  flat: (run) => settleFlat(run),
};

/**
 * Won or lost is the market's to say, never forced: an up and a down bought at the same entry tick run through the
 * ticking market to E, one wins and one loses, and the path follows the one whose result it names. Both flat (the
 * exit at the entry price) says neither: the pair is bought again.
 */
async function settleByMarket(run: OptionRun, result: string): Promise<void> {
  const results: string[] = [];
  for (let pair = 1; pair <= PAIRS; pair++) {
    if (pair > 1) await buyAgain(run);
    await enter(run);
    await run.session.clocks.advanceTo(expiryOf(run) + 1_000, 'ticking', { record: true });
    const ended = await settledPhases(run);
    results.push(ended.join('/'));
    const side = run.sides.find((_, k) => ended[k] === result);
    if (side) {
      run.followed = [side];
      return;
    }
  }
  throw new Error(`${PAIRS} up/down pairs ended ${results.join(', ')}: none ${result}`);
}

/**
 * Before a flat path buys (the market held, no page open): the walk's next steps, read ahead from the server's
 * seeded market, tell which step to enter on so that the price comes back to it well before E; the steps before
 * that one are taken now. Nothing is forced: the ticks are the ones the market would publish anyway, the test only
 * chooses when to buy, as a trader watching the feed could.
 */
async function planFlat(session: Session, symbol: string): Promise<NonNullable<OptionRun['flat']>> {
  const prices = await session.server.marketAhead(symbol, FLAT_LOOK_AHEAD);
  for (let k = 0; k < prices.length; k++) {
    for (let j = 1; j <= FLAT_BACK_WITHIN && k + j < prices.length; j++) {
      if (prices[k + j] !== prices[k]) continue;
      if (k > 0) await session.clocks.step({ count: k });
      return { entry: prices[k] as string, backAfter: j };
    }
  }
  throw new Error(
    `${symbol} never comes back to a price within ${FLAT_BACK_WITHIN} steps in the next ${prices.length}`,
  );
}

/**
 * Flat: the exit (the last recorded tick at or before E) at exactly the entry price. The path entered on the step its
 * plan chose, the market is stepped to the step that comes back to the entry price, then held past E, and one more
 * tick after E lets the record prove it has every tick up to E.
 */
async function settleFlat(run: OptionRun): Promise<void> {
  const plan = run.flat;
  if (!plan) throw new Error('a flat path without its plan');
  const entry = await enter(run);
  if (entry.price !== plan.entry) throw new Error(`entered at ${entry.price}, planned ${plan.entry}: the market moved`);
  const expiry = expiryOf(run);
  const back = (await run.session.clocks.step({ count: plan.backAfter })).ticks[run.symbol];
  if (back?.price !== entry.price || back.ts >= expiry) {
    throw new Error(`the exit ${JSON.stringify(back)} is not at ${entry.price} before E ${expiry}`);
  }
  await run.session.clocks.advanceTo(expiry + 1_000, 'held');
  await run.session.clocks.step({ record: true });
  const ended = await settledPhases(run);
  if (!ended.every((phase) => phase === 'flat')) throw new Error(`both flat, the pair ended ${ended.join('/')}`);
  run.followed = [run.sides[0] as Side];
}

/** Every page's ticket once its contract has its result. */
async function settledPhases(run: OptionRun): Promise<string[]> {
  const phases: string[] = [];
  for (const side of run.sides) {
    const ticket = side.page.getByTestId('ticket');
    await expect
      .poll(async () => (await attr(ticket, 'data-phase')) ?? '', { timeout: SHOWN_MS, message: 'a result' })
      .toSatisfy((phase: string) => FINAL.includes(phase));
    phases.push((await attr(ticket, 'data-phase')) ?? '');
  }
  return phases;
}

/** The finished tickets buy the same again (a finished contract lets the ticket buy at once), the market held. */
async function buyAgain(run: OptionRun): Promise<void> {
  await run.session.clocks.hold();
  for (const side of run.sides) {
    const buy = side.page.getByTestId(`buy-${side.direction}`);
    await expectShown('the buy button is enabled', () => enabledNow(buy)).toBe(true);
    const held = await HeldCall.on(side.page, 'microtrade/submit');
    await buy.click();
    // The path follows the new contract from here.
    const answer = await held.release<OptionContract>();
    if (answer.type !== 'ok') throw new Error(`microtrade/submit refused: ${answer.message}`);
    side.contract = answer.data;
  }
}

/** What each page the path follows must show in `step`'s state: the ticket, its status line, the contract's row. */
export async function optionShows(run: OptionRun, step: Step): Promise<void> {
  for (const side of run.followed) await sideShows(run, side, step);
}

async function sideShows(run: OptionRun, side: Side, step: Step): Promise<void> {
  const { page } = side;
  const lang = run.session.lang;
  const phase = step.regions.contract as string;
  const ticket = page.getByTestId('ticket');
  const status = page.getByTestId('contract-status');
  await expectShown(`the ticket is ${phase}`, () => attr(ticket, 'data-phase')).toBe(phase);

  if (phase === 'choosing') {
    expect(await status.count()).toBe(0);
  } else if (phase === 'submitting') {
    expect(await attr(page.getByTestId(`buy-${side.direction}`), 'aria-busy')).toBe('true');
  } else if (phase === 'verifying') {
    const dialog = page.getByRole('dialog', { name: text(lang, 'options.verify.title') });
    await expectShown('the verification prompt', () => dialog.count()).toBe(1);
  } else {
    await expectShown(`the status line says ${phase}`, () => attr(status, 'data-phase')).toBe(phase);
    expect(await textNow(status.locator('.option-status-label'))).toBe(text(lang, `options.phase.${phase}`));
    await rowShows(side, step, phase);
  }
  await pricesShow(run, side, phase, step.regions.prices === 'stale');
}

/** An open contract's row, with its own machine drawn; a settled one has left the running list. */
async function rowShows(side: Side, step: Step, phase: string): Promise<void> {
  const id = side.contract?.id;
  if (id === undefined) throw new Error('the path has no contract');
  const row = side.page.getByTestId(`contract-${id}`);
  if (FINAL.includes(phase)) {
    await expectShown('the settled contract left the running list', () => row.count()).toBe(0);
    expect(await side.page.getByTestId('status-result').count()).toBe(1);
    return;
  }
  if (!COUNTING.includes(phase)) return;
  await expectShown(`its row is ${phase}`, () => attr(row, 'data-phase')).toBe(phase);
  await expectShown(`its drawing marks ${step.state}`, () => marked(row)).toEqual([...step.ids].sort());
  const countdown = side.page.getByTestId('countdown');
  if (phase === 'running') {
    await expectShown('the countdown runs', async () =>
      Number((await textNow(countdown))?.match(/\d+/)?.[0]),
    ).toBeGreaterThan(0);
  } else if (phase === 'settling') {
    await expectShown('the countdown stopped at 0', async () => (await textNow(countdown))?.match(/\d+/)?.[0]).toBe(
      '0',
    );
  }
}

/** Stale prices: the page's note, and up and down switched off where the ticket could buy. */
async function pricesShow(run: OptionRun, side: Side, phase: string, stale: boolean): Promise<void> {
  const { page } = side;
  const canBuy = !['submitting', 'verifying', 'waiting'].includes(phase);
  const blocked = page.getByTestId('stale-blocked');
  const note = page.getByTestId('stale-note');
  if (stale) {
    await expectShown('up and down say prices are stale', () => blocked.count()).toBe(canBuy ? 1 : 0);
    if (run.quotesSeen) await expectShown('the stale note', () => note.count()).toBe(1);
    if (canBuy) expect(await enabledNow(page.getByTestId(`buy-${side.direction}`))).toBe(false);
  } else {
    await expectShown('no stale note', () => note.count()).toBe(0);
    await expectShown('nothing blocked by stale prices', () => blocked.count()).toBe(0);
  }
}
