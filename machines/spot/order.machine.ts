import { assign, fromPromise, type SnapshotFrom, sendTo, setup, stateIn } from 'xstate';
import type { CancelReason, PlaceOrderRequest, SpotOrder } from '../../protocol/spot';
import {
  type HeldRequest,
  leavesRequestOpen,
  NO_ANSWER,
  requestFor,
  type SubmissionSend,
  type SubmitAnswer,
  sendWith,
  submissionInput,
  submissionMachine,
} from '../submission.machine';

export { NO_ANSWER };

/**
 * One spot ticket's order lifecycle (RULES "Spot", protocol/spot.ts):
 *
 *   entering → submitting → waiting (for its entry tick) → completed
 *                                   → pending (a resting limit) → completed | cancelling → cancelled
 *                                   → cancelled (no tick within the wait, or the price band)
 *   submitting → entering (refused or no answer, with the error)
 *
 * The ticket's fields live in the view; the machine gets the finished request on SUBMIT and holds its request id
 * until a definite answer, so a retry after a lost answer is the same order to the server. The submission itself
 * (the call, its time-out, a reconnect, what a refusal means) is the shared child, machines/submission.machine.ts. The server's word on the order comes in as ORDER_UPDATE (the private `orders` topic merged with
 * polling, streams/spot/orders.ts); a stale price feed (streams/freshness.ts) blocks new submissions in its own
 * region, so the gate is part of the state the tests walk.
 */

/** A ticket's request without its id: what the user asked for. */
export type OrderDraft = Omit<PlaceOrderRequest, 'request_id'>;

/** The server took the order: its row. */
type SpotAcknowledgement = { ok: true; order: SpotOrder };

/** What the placement and cancellation calls answer (core/api/spot.ts SpotOrderResult). */
export type OrderCallResult = SubmitAnswer<SpotAcknowledgement>;

export interface OrderMachineInput {
  /** Makes a request id (core/ids.ts newRequestId in the app, a counter in tests). */
  makeId: () => string;
  /**
   * An order the server already has (a row of the open orders): the machine starts in that order's state instead of
   * an empty ticket, so the row's cancel runs through the same lifecycle as the ticket's.
   */
  order?: SpotOrder;
}

export type OrderEvent =
  | { type: 'SUBMIT'; draft: OrderDraft }
  /** Shows a market order for confirmation first (the trader's setting); CONFIRM sends it, BACK returns. */
  | { type: 'REVIEW'; draft: OrderDraft }
  | { type: 'CONFIRM' }
  | { type: 'BACK' }
  | { type: 'ORDER_UPDATE'; order: SpotOrder }
  | { type: 'CANCEL' }
  /** Back to an empty ticket after a finished order. */
  | { type: 'NEW_ORDER' }
  | { type: 'PRICES_STALE' }
  | { type: 'PRICES_FRESH' }
  /** The line is back: a submission still waiting asks again under its id. */
  | { type: 'RECONNECT' };

export interface OrderContext {
  makeId: () => string;
  draft: OrderDraft | null;
  /** The submission in flight or last refused without a definite answer; null once the server answered. */
  attempt: HeldRequest | null;
  order: SpotOrder | null;
  /** What went wrong last (a message in the user's language, from the server or the client). */
  error: string | null;
  /** The field the error is about, when the server said. */
  errorField: string | null;
}

/** The order a client knows best: the one the server changed last (ties keep what is held: a repeat). */
export function newerOrder(held: SpotOrder | null, incoming: SpotOrder): SpotOrder {
  if (!held || held.id !== incoming.id) return incoming;
  return incoming.updated_at > held.updated_at ? incoming : held;
}

const isOpen = (order: SpotOrder) => order.state === 'waiting' || order.state === 'pending';

const placement = submissionMachine<OrderDraft, SpotAcknowledgement>();

/**
 * The submission child sending with `send` (core/api/spot.ts placeSpotOrder in the app, a fake in tests), as the
 * machine is provided it under `placeOrder`. The parent looks `placeOrder` up when it invokes the child, so a
 * machine provided after it was made runs the call it was given; stopping the child aborts the call's signal.
 */
export const placeOrderWith = (send: SubmissionSend<OrderDraft, SpotAcknowledgement>) =>
  placement.provide({ actors: { send: sendWith(send) } });

export const spotOrderMachine = setup({
  types: {
    context: {} as OrderContext,
    events: {} as OrderEvent,
    input: {} as OrderMachineInput,
  },
  actors: {
    // The app provides the real calls (core/api/spot.ts); these defaults never settle, so a bare machine is inert.
    // The submission child, sending with the call it was provided (placeOrderWith).
    placeOrder: placement,
    cancelOrder: fromPromise<OrderCallResult, { id: number }>(() => new Promise(() => {})),
  },
  guards: {
    pricesFresh: stateIn('#spotOrder.prices.fresh'),
    /** An update about this ticket's order that is newer than what is held. */
    isNewsOfOurOrder: ({ context, event }) => {
      if (event.type !== 'ORDER_UPDATE') return false;
      const held = context.order;
      if (held) return held.id === event.order.id && event.order.updated_at > held.updated_at;
      // Before the placement answers, the order is known by its request id only.
      return context.attempt !== null && event.order.request_id === context.attempt.requestId;
    },
  },
  actions: {
    beginAttempt: assign(({ context, event }) => {
      // SUBMIT brings the draft; CONFIRM sends the one under review.
      const draft = event.type === 'SUBMIT' ? event.draft : event.type === 'CONFIRM' ? context.draft : null;
      if (draft === null) return {};
      // The same draft again (a retry after a failure) keeps its id; anything changed is a new submission.
      const attempt = requestFor(context.attempt, draft, context.makeId);
      return { draft, attempt, order: null, error: null, errorField: null };
    }),
    holdReview: assign(({ event }) =>
      event.type === 'REVIEW' ? { draft: event.draft, order: null, error: null, errorField: null } : {},
    ),
    takeUpdate: assign(({ context, event }) =>
      event.type === 'ORDER_UPDATE' ? { order: newerOrder(context.order, event.order) } : {},
    ),
    forget: assign({ draft: null, attempt: null, order: null, error: null, errorField: null }),
  },
}).createMachine({
  id: 'spotOrder',
  type: 'parallel',
  context: ({ input }) => ({
    makeId: input.makeId,
    draft: null,
    attempt: null,
    order: input.order ?? null,
    error: null,
    errorField: null,
  }),
  states: {
    order: {
      initial: 'start',
      states: {
        /** Transient: an empty ticket, or the state of the order the machine was started with. */
        start: {
          always: [{ guard: ({ context }) => context.order !== null, target: 'routing' }, { target: 'entering' }],
        },
        entering: {
          on: {
            SUBMIT: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
            REVIEW: { guard: 'pricesFresh', target: 'confirming', actions: 'holdReview' },
          },
        },
        /** The order on the confirmation sheet: nothing is sent until CONFIRM, and never on stale prices. */
        confirming: {
          on: {
            CONFIRM: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
            BACK: 'entering',
          },
        },
        submitting: {
          invoke: {
            id: 'placeOrder',
            src: 'placeOrder',
            input: submissionInput<OrderDraft>,
            onDone: [
              {
                guard: ({ event }) => event.output.ok,
                target: 'routing',
                actions: assign(({ context, event }) => ({
                  // The answer and an update that overtook it: the newer one counts.
                  order: event.output.ok ? newerOrder(context.order, event.output.order) : context.order,
                  // A definite answer: the next submission is a new one.
                  attempt: null,
                })),
              },
              {
                target: 'entering',
                actions: assign(({ context, event }) => {
                  const out = event.output;
                  if (out.ok) return {};
                  return {
                    error: out.message,
                    errorField: out.field ?? null,
                    // A refusal is definite; without an answer the server may have acted, so keep the id.
                    attempt: leavesRequestOpen(out) ? context.attempt : null,
                  };
                }),
              },
            ],
            onError: {
              // The call broke without an answer (SPEC 8's fallback text); the id stays for the retry.
              target: 'entering',
              actions: assign({ error: NO_ANSWER, errorField: null }),
            },
          },
          on: {
            ORDER_UPDATE: { guard: 'isNewsOfOurOrder', actions: 'takeUpdate' },
            RECONNECT: { actions: sendTo('placeOrder', { type: 'RECONNECT' }) },
          },
        },
        /** Transient: where an order the server answered with belongs. */
        routing: {
          always: [
            { guard: ({ context }) => context.order?.state === 'pending', target: 'pending' },
            { guard: ({ context }) => context.order?.state === 'completed', target: 'completed' },
            { guard: ({ context }) => context.order?.state === 'cancelled', target: 'cancelled' },
            { target: 'waiting' },
          ],
        },
        waiting: {
          on: { ORDER_UPDATE: { guard: 'isNewsOfOurOrder', target: 'routing', actions: 'takeUpdate' } },
        },
        pending: {
          on: {
            ORDER_UPDATE: { guard: 'isNewsOfOurOrder', target: 'routing', actions: 'takeUpdate' },
            CANCEL: { target: 'cancelling', actions: assign({ error: null, errorField: null }) },
          },
        },
        cancelling: {
          invoke: {
            id: 'cancelOrder',
            src: 'cancelOrder',
            input: ({ context }) => ({ id: context.order?.id ?? 0 }),
            onDone: [
              {
                guard: ({ event }) => event.output.ok,
                target: 'routing',
                actions: assign(({ context, event }) => ({
                  order: event.output.ok ? newerOrder(context.order, event.output.order) : context.order,
                })),
              },
              {
                // Refused (it filled meanwhile, or no answer): it rests until the server says otherwise.
                target: 'pending',
                actions: assign(({ event }) => (event.output.ok ? {} : { error: event.output.message })),
              },
            ],
            onError: { target: 'pending', actions: assign({ error: NO_ANSWER }) },
          },
          on: {
            // A fill or the cancellation itself may arrive on the topic before the answer.
            ORDER_UPDATE: {
              guard: ({ context, event }) =>
                context.order !== null &&
                event.order.id === context.order.id &&
                event.order.updated_at > context.order.updated_at &&
                !isOpen(event.order),
              target: 'routing',
              actions: 'takeUpdate',
            },
          },
        },
        completed: {
          on: {
            SUBMIT: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
            REVIEW: { guard: 'pricesFresh', target: 'confirming', actions: 'holdReview' },
            NEW_ORDER: { target: 'entering', actions: 'forget' },
          },
        },
        cancelled: {
          on: {
            SUBMIT: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
            REVIEW: { guard: 'pricesFresh', target: 'confirming', actions: 'holdReview' },
            NEW_ORDER: { target: 'entering', actions: 'forget' },
          },
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

export type OrderSnapshot = SnapshotFrom<typeof spotOrderMachine>;
export type OrderPhase =
  | 'entering'
  | 'confirming'
  | 'submitting'
  | 'waiting'
  | 'pending'
  | 'cancelling'
  | 'completed'
  | 'cancelled';

/** What the ticket shows for a snapshot: one pure function, used by the UI and asserted by the model test. */
export interface OrderView {
  phase: OrderPhase;
  /** Key (spot namespace) of the order's status line. */
  labelKey: `spot.phase.${OrderPhase}`;
  /** Key of why it was cancelled, when it was. */
  reasonKey: `spot.cancelReason.${CancelReason}` | null;
  submitEnabled: boolean;
  /** The order is on the confirmation sheet. */
  reviewing: boolean;
  /** CONFIRM would be taken now (prices fresh). */
  confirmEnabled: boolean;
  /** The order under review, or the last one sent. */
  draft: OrderDraft | null;
  /** Why submit is off because of the market, not the order: prices stale. */
  blockedByStalePrices: boolean;
  cancelEnabled: boolean;
  busy: boolean;
  error: string | null;
  errorField: string | null;
  order: SpotOrder | null;
}

export function orderView(snapshot: OrderSnapshot): OrderView {
  const value = snapshot.value as { order: OrderPhase | 'routing' | 'start'; prices: 'stale' | 'fresh' };
  // `start` and `routing` are left in the step they are entered; they never show, but say something sane if they did.
  const phase: OrderPhase = value.order === 'routing' ? 'waiting' : value.order === 'start' ? 'entering' : value.order;
  const fresh = value.prices === 'fresh';
  const canStart = phase === 'entering' || phase === 'completed' || phase === 'cancelled';
  const order = snapshot.context.order;
  return {
    phase,
    labelKey: `spot.phase.${phase}`,
    reasonKey: phase === 'cancelled' && order?.cancel_reason ? `spot.cancelReason.${order.cancel_reason}` : null,
    submitEnabled: canStart && fresh,
    reviewing: phase === 'confirming',
    confirmEnabled: phase === 'confirming' && fresh,
    draft: snapshot.context.draft,
    blockedByStalePrices: (canStart || phase === 'confirming') && !fresh,
    cancelEnabled: phase === 'pending',
    busy: phase === 'submitting' || phase === 'cancelling',
    error: snapshot.context.error,
    errorField: snapshot.context.errorField,
    order,
  };
}
