import { and, assign, fromPromise, type SnapshotFrom, sendTo, setup, stateIn } from 'xstate';
import {
  LEVER_STATUSES,
  type LeverCancelReason,
  type LeverCloseReason,
  type LeverPhase,
  type LeverPosition,
  type LeverStatus,
  OPEN_LEVER_PHASES,
  type SubmitLeverRequest,
} from '../../protocol/lever';
import {
  type HeldRequest,
  leavesRequestOpen,
  NO_ANSWER,
  needsVerification,
  requestFor,
  type SubmissionSend,
  type SubmitAnswer,
  sendWith,
  submissionInput,
  submissionMachine,
} from '../submission.machine';

export { NO_ANSWER };

/**
 * One lever order and the position it becomes, as its owner sees it (RULES "Lever", SPEC 4 "Lever order status",
 * protocol/lever.ts):
 *
 *   entering → submitting → waiting (status 0, for its entry tick) | pending (0, a resting limit)
 *            → holding (1) → closing (2) → closed (3: user, take profit, stop loss) | liquidated (3: liquidation)
 *   waiting | pending → cancelling → cancelled (4)       (also 4 without asking: no tick, too little margin)
 *   holding → closeRequested | addingMargin (isolated) | settingStop → back where the position then is
 *   holding → confirmingReverse → reverseRequested → closing (RULES "Reverse": the whole close, after which the other
 *   side opens at the same tick as a position of its own, with its own row and machine)
 *   submitting → entering (refused or no answer, with the error) | verifying (SPEC 8: the real book needs it,
 *   refusal reason `verificationRequired`)
 *   waiting, pending, holding, closing and the finished states → entering on NEW_ORDER (the ticket lets go; the
 *   list row follows the order)
 *
 * The server decides the lifecycle: its word comes as POSITION (the private `positions` topic merged with polling,
 * streams/lever/positions.ts, or an action's answer) and the machine goes where the position's `phase` says. Per
 * position the newer `updated_at` wins and the phase never goes back, so a late copy changes nothing, and a closed
 * or cancelled position stays so. The machine owns the request ids of the calls that move money twice if sent twice
 * (submit, add margin): made once per request and kept until a definite answer, so a retry after a lost answer is
 * the same request. The submission itself is the shared child (machines/submission.machine.ts).
 * Stale prices (streams/freshness.ts) refuse every user action in their own region, so the gate is part of the state
 * the tests walk.
 */

/** The ticket's request without its id: what the user asked for. */
export type LeverOrderDraft = Omit<SubmitLeverRequest, 'request_id'>;

/** New take-profit and stop-loss prices; an empty or missing one clears it (lever/setstop). */
export interface LeverStopsDraft {
  take_profit?: string | undefined;
  stop_loss?: string | undefined;
}

/** The server took the order: the position it becomes. */
type LeverAcknowledgement = { ok: true; position: LeverPosition };

/** What every call answers (core/api/lever.ts LeverResult). */
export type LeverCallResult = SubmitAnswer<LeverAcknowledgement>;

/** What a close sends (core/api/lever.ts closeLeverPosition): the lots to close (null: all) under its request id. */
export interface LeverCloseInput {
  id: number;
  lots: number | null;
  request_id: string;
}

/** What a reverse sends (core/api/lever.ts reverseLeverPosition): the position under its request id. */
export interface LeverReverseInput {
  id: number;
  request_id: string;
}

export interface LeverOrderMachineInput {
  /** Makes a request id (core/ids.ts newRequestId in the app, a counter in tests). */
  makeId: () => string;
  /** A position the server already has (a list row): the machine starts in its state, not on an empty ticket. */
  position?: LeverPosition;
  /**
   * The book's ticket: once the server has its order open, it lets go of it (the list row follows the order) and is an
   * empty ticket again, remembering the order's number for the page to announce.
   */
  ticket?: boolean;
}

export type LeverOrderEvent =
  | { type: 'SUBMIT'; draft: LeverOrderDraft }
  /** Shows the draft for confirmation first (the trader's setting); CONFIRM sends it, BACK returns to the ticket. */
  | { type: 'REVIEW'; draft: LeverOrderDraft }
  /** Sends what is under review; a close may name the lots to close (RULES "Partial close"; none: all of them). */
  | { type: 'CONFIRM'; lots?: number }
  | { type: 'BACK' }
  | { type: 'POSITION'; position: LeverPosition }
  | { type: 'CANCEL' }
  | { type: 'CLOSE'; lots?: number }
  /** Asks to close, confirmed by CONFIRM (or taken back by BACK) before the close is sent. */
  | { type: 'REVIEW_CLOSE' }
  /** Asks to reverse (close all, open the other side), always on its sheet first: CONFIRM sends it, BACK does not. */
  | { type: 'REVIEW_REVERSE' }
  | { type: 'ADD_MARGIN'; amount: string }
  | { type: 'SET_STOP'; stops: LeverStopsDraft }
  /** Back to an empty ticket: after a finished order, or once a placed one is followed by its list row. */
  | { type: 'NEW_ORDER' }
  /** Away from the verification prompt. */
  | { type: 'DISMISS' }
  | { type: 'PRICES_STALE' }
  | { type: 'PRICES_FRESH' }
  /** The line is back: a submission still waiting asks again under its id. */
  | { type: 'RECONNECT' };

export interface LeverOrderContext {
  makeId: () => string;
  draft: LeverOrderDraft | null;
  /** The submission in flight or last failed without a definite answer; null once the server answered. */
  attempt: HeldRequest | null;
  position: LeverPosition | null;
  /** The margin top-up in flight (or lost without an answer) and its amount. */
  marginAttempt: (HeldRequest & { amount: string }) | null;
  /** The close in flight (or lost without an answer): its lots (null: all) and request id, kept for a retry. */
  closeAttempt: (HeldRequest & { lots: number | null }) | null;
  /** The reverse in flight (or lost without an answer), its request id kept for a retry. */
  reverseAttempt: HeldRequest | null;
  stops: LeverStopsDraft | null;
  /** What went wrong last (a message in the user's language, from the server or the client). */
  error: string | null;
  errorField: string | null;
  ticket: boolean;
  /** The number of the order this ticket placed and let go of last; cleared by the next submission. */
  placed: string | null;
}

/** How far along its lifecycle a phase is: news never moves a position back. */
const PHASE_RANK: Readonly<Record<LeverPhase, number>> = {
  waiting: 0,
  pending: 1,
  holding: 2,
  closing: 3,
  closed: 4,
  cancelled: 4,
};

/**
 * Whether `incoming` is news about `held`: the same position, changed later by the server (the same time is a repeat,
 * an earlier one late news from the slower path) and not back in its lifecycle.
 */
export function isPositionNews(held: LeverPosition, incoming: LeverPosition): boolean {
  // A partial close is the one way back: the position closing some of its lots holds the rest again after its tick.
  const restHolds =
    held.phase === 'closing' &&
    (held.close_lots ?? null) !== null &&
    incoming.phase === 'holding' &&
    incoming.lots < held.lots;
  return (
    incoming.id === held.id &&
    incoming.updated_at > held.updated_at &&
    (PHASE_RANK[incoming.phase] >= PHASE_RANK[held.phase] || restHolds)
  );
}

/** The position a client knows best: the news, or what is held when the incoming copy is a repeat or late. */
export function newerPosition(held: LeverPosition | null, incoming: LeverPosition): LeverPosition {
  if (!held || held.id !== incoming.id) return incoming;
  return isPositionNews(held, incoming) ? incoming : held;
}

/**
 * An action's answer, for the context: the position it answers with (unless an update already brought a newer one),
 * or the refusal's message.
 */
function answerOf(context: LeverOrderContext, output: LeverCallResult): Partial<LeverOrderContext> {
  if (output.ok) return { position: newerPosition(context.position, output.position) };
  return { error: output.message, errorField: output.field ?? null };
}

/**
 * News while an action on the position is in flight: news that moves the position on (a fill, a liquidation, the
 * close itself) leaves at once; news in the same phase (a new mark, the margin already added) is kept while the
 * answer is awaited.
 */
const newsWhileBusy = (samePhases: readonly LeverPhase[]) =>
  [
    { guard: { type: 'isNewsLeaving', params: { samePhases } }, target: 'routing', actions: 'takeUpdate' },
    { guard: 'isNewsOfOurs', actions: 'takeUpdate' },
  ] as const;

const clearError = { error: null, errorField: null } as const;

const submission = submissionMachine<LeverOrderDraft, LeverAcknowledgement>();

/**
 * The submission child sending with `send` (core/api/lever.ts submitLeverOrder in the app, a fake in tests), as the
 * machine is provided it under `submitOrder`. The parent looks `submitOrder` up when it invokes the child, so a
 * machine provided after it was made runs the call it was given; stopping the child aborts the call's signal.
 */
export const submitOrderWith = (send: SubmissionSend<LeverOrderDraft, LeverAcknowledgement>) =>
  submission.provide({ actors: { send: sendWith(send) } });

export const leverOrderMachine = setup({
  types: {
    context: {} as LeverOrderContext,
    events: {} as LeverOrderEvent,
    input: {} as LeverOrderMachineInput,
    tags: {} as 'busy' | 'final' | `status:${LeverStatus}`,
  },
  actors: {
    // The app provides the real calls (core/api/lever.ts); these defaults never settle, so a bare machine is inert.
    // The submission child, sending with the call it was provided (submitOrderWith).
    submitOrder: submission,
    cancelOrder: fromPromise<LeverCallResult, { id: number }>(() => new Promise(() => {})),
    closePosition: fromPromise<LeverCallResult, LeverCloseInput>(() => new Promise(() => {})),
    reversePosition: fromPromise<LeverCallResult, LeverReverseInput>(() => new Promise(() => {})),
    setStops: fromPromise<LeverCallResult, { id: number } & LeverStopsDraft>(() => new Promise(() => {})),
    addMargin: fromPromise<LeverCallResult, { id: number; amount: string; request_id: string }>(
      () => new Promise(() => {}),
    ),
  },
  guards: {
    pricesFresh: stateIn('#leverOrder.prices.fresh'),
    isIsolated: ({ context }) => context.position?.margin_mode === 'isolated',
    /** An update about this machine's position that is newer than what is held. */
    isNewsOfOurs: ({ context, event }) => {
      if (event.type !== 'POSITION') return false;
      const held = context.position;
      if (held) return isPositionNews(held, event.position);
      // Before the submission answers, the order is known by its request id only.
      return context.attempt !== null && event.position.request_id === context.attempt.requestId;
    },
    /** News of ours in another phase than the busy state's own: the position moved on without waiting for us. */
    isNewsLeaving: ({ context, event }, params: { samePhases: readonly LeverPhase[] }) =>
      event.type === 'POSITION' &&
      context.position !== null &&
      isPositionNews(context.position, event.position) &&
      !params.samePhases.includes(event.position.phase),
  },
  actions: {
    beginAttempt: assign(({ context, event }) => {
      // SUBMIT brings the draft; CONFIRM sends the one under review.
      const draft = event.type === 'SUBMIT' ? event.draft : event.type === 'CONFIRM' ? context.draft : null;
      if (draft === null) return {};
      // The same draft again (a retry after a failure) keeps its id; anything changed is a new submission.
      const attempt = requestFor(context.attempt, draft, context.makeId);
      return { draft, attempt, position: null, placed: null, ...clearError };
    }),
    holdReview: assign(({ event }) =>
      event.type === 'REVIEW' ? { draft: event.draft, position: null, placed: null, ...clearError } : {},
    ),
    beginClose: assign(({ context, event }) => {
      if (event.type !== 'CLOSE' && event.type !== 'CONFIRM') return {};
      const lots = event.lots ?? null;
      // The same close again (a retry after no answer) keeps its id; other lots are a new request, and so is a close
      // of a position whose lots changed meanwhile (the unanswered part did close: its id must not be sent again).
      const p = context.position;
      const request = requestFor(context.closeAttempt, [p?.id, p?.lots, lots], context.makeId);
      return { closeAttempt: { ...request, lots } };
    }),
    beginReverse: assign(({ context }) => {
      // The same reverse again (a retry after no answer) keeps its id; a position whose lots changed meanwhile is
      // another request (what a lost reverse asked for is no longer what the sheet showed).
      const p = context.position;
      return { reverseAttempt: requestFor(context.reverseAttempt, [p?.id, p?.lots], context.makeId) };
    }),
    beginTopUp: assign(({ context, event }) => {
      if (event.type !== 'ADD_MARGIN') return {};
      // A top-up whose margin shows in the position meanwhile did apply: the next one is new.
      const p = context.position;
      const request = requestFor(context.marginAttempt, [p?.id, p?.additional_margin, event.amount], context.makeId);
      return { marginAttempt: { ...request, amount: event.amount } };
    }),
    takeUpdate: assign(({ context, event }) =>
      event.type === 'POSITION' ? { position: newerPosition(context.position, event.position) } : {},
    ),
    clearError: assign(clearError),
    showNoAnswer: assign({ error: NO_ANSWER, errorField: null }),
    forget: assign({
      draft: null,
      attempt: null,
      position: null,
      marginAttempt: null,
      closeAttempt: null,
      reverseAttempt: null,
      stops: null,
      ...clearError,
    }),
  },
}).createMachine({
  id: 'leverOrder',
  type: 'parallel',
  context: ({ input }) => ({
    makeId: input.makeId,
    draft: null,
    attempt: null,
    position: input.position ?? null,
    marginAttempt: null,
    closeAttempt: null,
    reverseAttempt: null,
    stops: null,
    ...clearError,
    ticket: input.ticket ?? false,
    placed: null,
  }),
  states: {
    order: {
      initial: 'start',
      states: {
        /** Transient: an empty ticket, or the state of the position the machine was started with. */
        start: {
          always: [{ guard: ({ context }) => context.position !== null, target: 'routing' }, { target: 'entering' }],
        },
        entering: {
          on: {
            SUBMIT: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
            REVIEW: { guard: 'pricesFresh', target: 'confirming', actions: 'holdReview' },
          },
        },
        /** The draft on the confirmation sheet: nothing is sent until CONFIRM, and never on stale prices. */
        confirming: {
          on: {
            CONFIRM: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
            BACK: 'entering',
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'submitOrder',
            src: 'submitOrder',
            input: submissionInput<LeverOrderDraft>,
            onDone: [
              {
                guard: ({ event }) => event.output.ok,
                target: 'routing',
                // A definite answer: the next submission is a new one.
                actions: assign(({ context, event }) => ({ ...answerOf(context, event.output), attempt: null })),
              },
              {
                // SPEC 8: "account not authenticated, go to authentication?" A definite refusal.
                guard: ({ event }) => needsVerification(event.output),
                target: 'verifying',
                actions: assign(({ context, event }) => ({ ...answerOf(context, event.output), attempt: null })),
              },
              {
                target: 'entering',
                actions: assign(({ context, event }) => ({
                  ...answerOf(context, event.output),
                  // A refusal is definite; without an answer the server may have opened it, so keep the id.
                  attempt: leavesRequestOpen(event.output) ? context.attempt : null,
                })),
              },
            ],
            // The call broke without an answer (SPEC 8's fallback text); the id stays for the retry.
            onError: { target: 'entering', actions: 'showNoAnswer' },
          },
          on: {
            // The server has the order (news by its request id overtook the answer): follow it, the answer is moot.
            POSITION: { guard: 'isNewsOfOurs', target: 'routing', actions: ['takeUpdate', assign({ attempt: null })] },
            RECONNECT: { actions: sendTo('submitOrder', { type: 'RECONNECT' }) },
          },
        },
        verifying: {
          on: { DISMISS: { target: 'entering', actions: 'clearError' } },
        },
        /** Transient: where the held position belongs, by the phase the server gave it. */
        routing: {
          always: [
            {
              // The ticket's order is open on the server: its row takes it from here, the ticket is free again.
              guard: ({ context }) =>
                context.ticket &&
                (OPEN_LEVER_PHASES as readonly LeverPhase[]).includes(context.position?.phase ?? 'closed'),
              target: 'entering',
              actions: [assign(({ context }) => ({ placed: context.position?.order_no ?? null })), 'forget'],
            },
            {
              guard: ({ context }) =>
                context.position?.phase === 'closed' && context.position.close_reason === 'liquidation',
              target: 'liquidated',
            },
            { guard: ({ context }) => context.position?.phase === 'closed', target: 'closed' },
            { guard: ({ context }) => context.position?.phase === 'cancelled', target: 'cancelled' },
            { guard: ({ context }) => context.position?.phase === 'closing', target: 'closing' },
            { guard: ({ context }) => context.position?.phase === 'holding', target: 'holding' },
            { guard: ({ context }) => context.position?.phase === 'pending', target: 'pending' },
            { target: 'waiting' },
          ],
        },
        waiting: {
          tags: ['status:0'],
          on: {
            POSITION: { guard: 'isNewsOfOurs', target: 'routing', actions: 'takeUpdate' },
            NEW_ORDER: { target: 'entering', actions: 'forget' },
            CANCEL: { guard: 'pricesFresh', target: 'cancelling', actions: 'clearError' },
          },
        },
        pending: {
          tags: ['status:0'],
          on: {
            POSITION: { guard: 'isNewsOfOurs', target: 'routing', actions: 'takeUpdate' },
            NEW_ORDER: { target: 'entering', actions: 'forget' },
            CANCEL: { guard: 'pricesFresh', target: 'cancelling', actions: 'clearError' },
          },
        },
        // The actions on an open position: each answer (or refusal, or silence) goes where the position then is.
        cancelling: {
          tags: ['busy', 'status:0'],
          invoke: {
            id: 'cancelOrder',
            src: 'cancelOrder',
            input: ({ context }) => ({ id: context.position?.id ?? 0 }),
            onDone: { target: 'routing', actions: assign(({ context, event }) => answerOf(context, event.output)) },
            onError: { target: 'routing', actions: 'showNoAnswer' },
          },
          on: { POSITION: newsWhileBusy(['waiting', 'pending']) },
        },
        holding: {
          tags: ['status:1'],
          on: {
            POSITION: { guard: 'isNewsOfOurs', target: 'routing', actions: 'takeUpdate' },
            NEW_ORDER: { target: 'entering', actions: 'forget' },
            CLOSE: { guard: 'pricesFresh', target: 'closeRequested', actions: ['clearError', 'beginClose'] },
            REVIEW_CLOSE: { guard: 'pricesFresh', target: 'confirmingClose', actions: 'clearError' },
            REVIEW_REVERSE: { guard: 'pricesFresh', target: 'confirmingReverse', actions: 'clearError' },
            SET_STOP: {
              guard: 'pricesFresh',
              target: 'settingStop',
              actions: ['clearError', assign(({ event }) => ({ stops: event.stops }))],
            },
            ADD_MARGIN: {
              guard: and(['pricesFresh', 'isIsolated']),
              target: 'addingMargin',
              actions: ['clearError', 'beginTopUp'],
            },
          },
        },
        /** The close on the confirmation sheet; news of the position (a trigger, a liquidation) takes it over. */
        confirmingClose: {
          tags: ['status:1'],
          on: {
            POSITION: { guard: 'isNewsOfOurs', target: 'routing', actions: 'takeUpdate' },
            CONFIRM: { guard: 'pricesFresh', target: 'closeRequested', actions: 'beginClose' },
            BACK: 'holding',
          },
        },
        closeRequested: {
          tags: ['busy', 'status:1'],
          invoke: {
            id: 'closePosition',
            src: 'closePosition',
            input: ({ context }) => ({
              id: context.position?.id ?? 0,
              lots: context.closeAttempt?.lots ?? null,
              request_id: context.closeAttempt?.requestId ?? '',
            }),
            onDone: {
              target: 'routing',
              actions: assign(({ context, event }) => ({
                ...answerOf(context, event.output),
                // Answered either way: the next close is a new one. No answer: the retry keeps the id.
                closeAttempt: leavesRequestOpen(event.output) ? context.closeAttempt : null,
              })),
            },
            onError: { target: 'routing', actions: 'showNoAnswer' },
          },
          on: { POSITION: newsWhileBusy(['holding']) },
        },
        /** The reverse on its sheet (the close and the open it makes); news of the position takes it over. */
        confirmingReverse: {
          tags: ['status:1'],
          on: {
            POSITION: { guard: 'isNewsOfOurs', target: 'routing', actions: 'takeUpdate' },
            CONFIRM: { guard: 'pricesFresh', target: 'reverseRequested', actions: 'beginReverse' },
            BACK: 'holding',
          },
        },
        reverseRequested: {
          tags: ['busy', 'status:1'],
          invoke: {
            id: 'reversePosition',
            src: 'reversePosition',
            input: ({ context }) => ({
              id: context.position?.id ?? 0,
              request_id: context.reverseAttempt?.requestId ?? '',
            }),
            onDone: {
              target: 'routing',
              actions: assign(({ context, event }) => ({
                ...answerOf(context, event.output),
                // Answered either way: the next reverse is a new one. No answer: the retry keeps the id.
                reverseAttempt: leavesRequestOpen(event.output) ? context.reverseAttempt : null,
              })),
            },
            onError: { target: 'routing', actions: 'showNoAnswer' },
          },
          on: { POSITION: newsWhileBusy(['holding']) },
        },
        settingStop: {
          tags: ['busy', 'status:1'],
          invoke: {
            id: 'setStops',
            src: 'setStops',
            input: ({ context }) => ({ id: context.position?.id ?? 0, ...context.stops }),
            onDone: { target: 'routing', actions: assign(({ context, event }) => answerOf(context, event.output)) },
            onError: { target: 'routing', actions: 'showNoAnswer' },
          },
          on: { POSITION: newsWhileBusy(['holding']) },
        },
        addingMargin: {
          tags: ['busy', 'status:1'],
          invoke: {
            id: 'addMargin',
            src: 'addMargin',
            input: ({ context }) => ({
              id: context.position?.id ?? 0,
              amount: context.marginAttempt?.amount ?? '',
              request_id: context.marginAttempt?.requestId ?? '',
            }),
            onDone: {
              target: 'routing',
              actions: assign(({ context, event }) => ({
                ...answerOf(context, event.output),
                // Answered either way: the next top-up is a new one. No answer: the retry keeps the id.
                marginAttempt: leavesRequestOpen(event.output) ? context.marginAttempt : null,
              })),
            },
            onError: { target: 'routing', actions: 'showNoAnswer' },
          },
          on: { POSITION: newsWhileBusy(['holding']) },
        },
        closing: {
          tags: ['status:2'],
          on: {
            POSITION: { guard: 'isNewsOfOurs', target: 'routing', actions: 'takeUpdate' },
            NEW_ORDER: { target: 'entering', actions: 'forget' },
          },
        },
        closed: { tags: ['status:3', 'final'], on: finishedOn() },
        liquidated: { tags: ['status:3', 'final'], on: finishedOn() },
        cancelled: { tags: ['status:4', 'final'], on: finishedOn() },
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

/** A finished order: the ticket may place the next one at once, or clear its status line. */
function finishedOn() {
  return {
    SUBMIT: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
    REVIEW: { guard: 'pricesFresh', target: 'confirming', actions: 'holdReview' },
    NEW_ORDER: { target: 'entering', actions: 'forget' },
  } as const;
}

export type LeverOrderSnapshot = SnapshotFrom<typeof leverOrderMachine>;
export type LeverOrderPhase =
  | 'entering'
  | 'confirming'
  | 'submitting'
  | 'verifying'
  | 'waiting'
  | 'pending'
  | 'cancelling'
  | 'holding'
  | 'confirmingClose'
  | 'closeRequested'
  | 'confirmingReverse'
  | 'reverseRequested'
  | 'settingStop'
  | 'addingMargin'
  | 'closing'
  | 'closed'
  | 'liquidated'
  | 'cancelled';

/** What the ticket or the row shows for a snapshot: one pure function, used by the UI and asserted by the tests. */
export interface LeverOrderView {
  phase: LeverOrderPhase;
  /** SPEC 4's number (0 pending order … 4 cancelled); null before the server has the order. */
  status: LeverStatus | null;
  /** Key (lever namespace) of the status line. */
  labelKey: `lever.phase.${LeverOrderPhase}`;
  /** Key of why it closed or was cancelled, once it did. */
  reasonKey: `lever.closeReason.${LeverCloseReason}` | `lever.cancelReason.${LeverCancelReason}` | null;
  submitEnabled: boolean;
  /** The draft (`reviewing: 'open'`), the close (`'close'`) or the reverse (`'reverse'`) is on its sheet. */
  reviewing: 'open' | 'close' | 'reverse' | null;
  /** CONFIRM would be taken now (prices fresh). */
  confirmEnabled: boolean;
  /** The draft under review. */
  draft: LeverOrderDraft | null;
  cancelEnabled: boolean;
  closeEnabled: boolean;
  /** A holding position may be reversed (RULES "Reverse"). */
  reverseEnabled: boolean;
  setStopEnabled: boolean;
  /** Isolated holding positions only (cross margin is the whole wallet). */
  addMarginEnabled: boolean;
  /** Why an action the state offers is off because of the market, not the order: prices stale. */
  blockedByStalePrices: boolean;
  busy: boolean;
  /** SPEC 8's prompt to go to identity verification. */
  promptVerify: boolean;
  final: boolean;
  error: string | null;
  errorField: string | null;
  /** The number of the order the ticket placed and let go of last (to announce it); null on a row. */
  placed: string | null;
  position: LeverPosition | null;
}

/** Which sheet a phase shows. */
const REVIEWS: Partial<Record<LeverOrderPhase, LeverOrderView['reviewing']>> = {
  confirming: 'open',
  confirmingClose: 'close',
  confirmingReverse: 'reverse',
};

export function leverOrderView(snapshot: LeverOrderSnapshot): LeverOrderView {
  const value = snapshot.value as { order: LeverOrderPhase | 'routing' | 'start'; prices: 'stale' | 'fresh' };
  // `start` and `routing` are left in the step they are entered; they never show, but say something sane if they did.
  const phase: LeverOrderPhase =
    value.order === 'routing' ? 'waiting' : value.order === 'start' ? 'entering' : value.order;
  const fresh = value.prices === 'fresh';
  const position = snapshot.context.position;
  const offered = {
    submit: phase === 'entering' || snapshot.hasTag('final'),
    confirm: phase === 'confirming' || phase === 'confirmingClose' || phase === 'confirmingReverse',
    cancel: phase === 'waiting' || phase === 'pending',
    close: phase === 'holding',
    reverse: phase === 'holding',
    setStop: phase === 'holding',
    addMargin: phase === 'holding' && position?.margin_mode === 'isolated',
  };
  const reasonKey =
    (phase === 'closed' || phase === 'liquidated') && position?.close_reason
      ? (`lever.closeReason.${position.close_reason}` as const)
      : phase === 'cancelled' && position?.cancel_reason
        ? (`lever.cancelReason.${position.cancel_reason}` as const)
        : null;
  return {
    phase,
    status: LEVER_STATUSES.find((s) => snapshot.hasTag(`status:${s}`)) ?? null,
    labelKey: `lever.phase.${phase}`,
    reasonKey,
    submitEnabled: offered.submit && fresh,
    reviewing: REVIEWS[phase] ?? null,
    confirmEnabled: offered.confirm && fresh,
    draft: snapshot.context.draft,
    cancelEnabled: offered.cancel && fresh,
    closeEnabled: offered.close && fresh,
    reverseEnabled: offered.reverse && fresh,
    setStopEnabled: offered.setStop && fresh,
    addMarginEnabled: offered.addMargin && fresh,
    blockedByStalePrices: !fresh && Object.values(offered).some(Boolean),
    busy: snapshot.hasTag('busy'),
    promptVerify: phase === 'verifying',
    final: snapshot.hasTag('final'),
    error: snapshot.context.error,
    errorField: snapshot.context.errorField,
    placed: snapshot.context.placed,
    position,
  };
}
