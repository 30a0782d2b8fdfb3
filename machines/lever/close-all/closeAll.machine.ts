import { and, assign, emit, fromPromise, type SnapshotFrom, setup, stateIn } from 'xstate';
import type { LeverCloseAllResult } from '../../../core/api/lever';
import type { LeverAccount } from '../../../protocol/lever';
import { NO_ANSWER } from '../../submission.machine';

export { NO_ANSWER };

/**
 * Closing every holding position of one book at once (RULES "Partial close": close-all closes every holding position
 * of the book, each at the next tick of its instrument; server lever/close_all):
 *
 *   idle → reviewing (OPEN: some position holds and prices are fresh; the sheet says how many)
 *   reviewing → sending (CONFIRM, same conditions) | idle (BACK, or nothing holds any more)
 *   sending → done (the server put its positions into closing: how many, announced as `closed`)
 *           | reviewing (refused, or no answer: the message on the sheet, to confirm again or go back)
 *   done → reviewing (OPEN again, for what holds by then)
 *
 * It is not one order: each position it closes is followed by its own row's machine (machines/lever/order.machine.ts)
 * from the positions stream, so this machine ends at the server's answer. A retry is harmless (the server closes only
 * what still holds then), so it carries no request id, unlike a submission. Stale prices (streams/freshness.ts) refuse
 * OPEN and CONFIRM in their own region, as on every lever action; a call already sent goes on.
 */

/** The call (core/api/lever.ts closeAllLeverPositions in the app, a fake in tests); its signal aborts on stop. */
export type CloseAllAnswer = LeverCloseAllResult;

export interface CloseAllInput {
  book: LeverAccount;
  /** How many positions of the book hold now (what close-all would close). */
  holding: number;
}

export type CloseAllEvent =
  /** Asks to close them all: the confirmation sheet. */
  | { type: 'OPEN' }
  | { type: 'CONFIRM' }
  | { type: 'BACK' }
  /** The book's holding positions changed (opened, closed, liquidated): how many hold now. */
  | { type: 'HOLDING'; count: number }
  | { type: 'PRICES_STALE' }
  | { type: 'PRICES_FRESH' };

/** Emitted on the server's answer: how many positions it put into closing (the page says so in a toast). */
export type CloseAllEmitted = { type: 'closed'; count: number };

export interface CloseAllContext {
  book: LeverAccount;
  holding: number;
  /** The last refusal's message (in the user's language), or NO_ANSWER; cleared by the next OPEN or CONFIRM. */
  error: string | null;
  /** How many positions the last answered close-all put into closing; null before one answered. */
  closed: number | null;
}

/** How many positions an answer put into closing (none when refused). */
const closedCount = (answer: CloseAllAnswer): number => (answer.ok ? answer.positions.length : 0);

/** The message a refusal shows; a failure without a message of its own shows "ERROR" (SPEC 8). */
const refusalOf = (answer: CloseAllAnswer): string | null => (answer.ok ? null : answer.message || NO_ANSWER);

export const leverCloseAllMachine = setup({
  types: {
    context: {} as CloseAllContext,
    events: {} as CloseAllEvent,
    input: {} as CloseAllInput,
    emitted: {} as CloseAllEmitted,
    tags: {} as 'busy',
  },
  actors: {
    // The app provides the real call; this default never settles, so a bare machine is inert.
    closeAll: fromPromise<CloseAllAnswer, { book: LeverAccount }>(() => new Promise(() => {})),
  },
  guards: {
    pricesFresh: stateIn('#leverCloseAll.prices.fresh'),
    somethingHolds: ({ context }) => context.holding > 0,
    nothingHolds: ({ context }) => context.holding === 0,
    /** The server did it (named, not inline, so the drawing says so). */
    accepted: (_, params: { answer: CloseAllAnswer }) => params.answer.ok,
  },
  actions: {
    countHolding: assign(({ event }) => (event.type === 'HOLDING' ? { holding: event.count } : {})),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'leverCloseAll',
  type: 'parallel',
  context: ({ input }) => ({ book: input.book, holding: input.holding, error: null, closed: null }),
  on: { HOLDING: { actions: 'countHolding' } },
  states: {
    close: {
      initial: 'idle',
      states: {
        idle: {
          on: { OPEN: { guard: and(['somethingHolds', 'pricesFresh']), target: 'reviewing', actions: 'clearError' } },
        },
        /** The sheet: nothing is sent until CONFIRM, never on stale prices, never with nothing to close. */
        reviewing: {
          always: { guard: 'nothingHolds', target: 'idle' },
          on: {
            CONFIRM: { guard: 'pricesFresh', target: 'sending', actions: 'clearError' },
            BACK: 'idle',
          },
        },
        sending: {
          tags: ['busy'],
          invoke: {
            id: 'closeAll',
            src: 'closeAll',
            input: ({ context }) => ({ book: context.book }),
            onDone: [
              {
                guard: { type: 'accepted', params: ({ event }) => ({ answer: event.output }) },
                target: 'done',
                actions: [
                  assign(({ event }) => ({ closed: closedCount(event.output) })),
                  emit(({ event }) => ({ type: 'closed', count: closedCount(event.output) })),
                ],
              },
              {
                target: 'reviewing',
                actions: assign(({ event }) => ({ error: refusalOf(event.output) })),
              },
            ],
            onError: { target: 'reviewing', actions: assign({ error: NO_ANSWER }) },
          },
        },
        done: {
          on: { OPEN: { guard: and(['somethingHolds', 'pricesFresh']), target: 'reviewing', actions: 'clearError' } },
        },
      },
    },
    prices: {
      // Stale until the feed proves itself, like streams/freshness.ts.
      initial: 'stale',
      states: {
        stale: { on: { PRICES_FRESH: 'fresh' } },
        fresh: { on: { PRICES_STALE: 'stale' } },
      },
    },
  },
});

export type CloseAllSnapshot = SnapshotFrom<typeof leverCloseAllMachine>;
export type CloseAllPhase = 'idle' | 'reviewing' | 'sending' | 'done';

/** What the button and the sheet show for a snapshot: one pure function, used by the UI and asserted by the tests. */
export interface CloseAllView {
  phase: CloseAllPhase;
  /** The confirmation sheet is up (under review, or sent and awaiting the answer). */
  sheetOpen: boolean;
  /** OPEN would be taken now. */
  openEnabled: boolean;
  /** CONFIRM would be taken now. */
  confirmEnabled: boolean;
  /** Why an action the state offers is off because of the market: prices stale. */
  blockedByStalePrices: boolean;
  busy: boolean;
  holding: number;
  error: string | null;
  closed: number | null;
}

export function closeAllView(snapshot: CloseAllSnapshot): CloseAllView {
  const value = snapshot.value as { close: CloseAllPhase; prices: 'stale' | 'fresh' };
  const phase = value.close;
  const fresh = value.prices === 'fresh';
  const holds = snapshot.context.holding > 0;
  const offered = {
    open: (phase === 'idle' || phase === 'done') && holds,
    confirm: phase === 'reviewing' && holds,
  };
  return {
    phase,
    sheetOpen: phase === 'reviewing' || phase === 'sending',
    openEnabled: offered.open && fresh,
    confirmEnabled: offered.confirm && fresh,
    blockedByStalePrices: !fresh && (offered.open || offered.confirm),
    busy: snapshot.hasTag('busy'),
    holding: snapshot.context.holding,
    error: snapshot.context.error,
    closed: snapshot.context.closed,
  };
}
