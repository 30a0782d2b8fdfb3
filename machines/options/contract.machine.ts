import { assign, type SnapshotFrom, sendTo, setup, stateIn } from 'xstate';
import { compareDecimalText } from '../../core/decimal-text';
import type { OptionContract, OptionState, SubmitOptionRequest } from '../../protocol/options';
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
 * One option ticket's contract lifecycle (RULES "Options", protocol/options.ts):
 *
 *   choosing → submitting → waiting (for the entry tick) → running (countdown to E) → settling (E passed, waiting for
 *   the server's result) → won | lost | flat | refunded
 *                         → cancelled (no entry tick within the wait)
 *   submitting → choosing (refused or no answer, with the message) | verifying (SPEC 8: the real account is not
 *   verified, refusal reason `verificationRequired`; the prompt offers the identity verification page)
 *
 * The countdown runs on server time: the machine is given the server clock (core/clock.ts serverNow in the app, a
 * fake in tests) and never reads the device clock, so remaining = expiry_ts − serverNow() is right however far the
 * device clock is off. The machine holds the request id until a definite answer, so a retry after a lost answer
 * buys the same contract; the submission itself is the shared child (machines/submission.machine.ts). The server's word on the contract arrives as
 * CONTRACT_UPDATE (the private `options` topic merged with polling, streams/options/contracts.ts); stale prices block
 * new submissions in their own region.
 */

/** A ticket's request without its id: what the user asked for. */
export type ContractDraft = Omit<SubmitOptionRequest, 'request_id'>;

/** The server took the contract: its row. */
type ContractAcknowledgement = { ok: true; contract: OptionContract };

/** What the submission answers (core/api/options.ts OptionSubmitResult). */
export type SubmitCallResult = SubmitAnswer<ContractAcknowledgement>;

export interface ContractMachineInput {
  /** Makes a request id (core/ids.ts newRequestId in the app, a counter in tests). */
  makeId: () => string;
  /** Server time now, epoch ms (core/clock.ts serverNow). The only clock the machine reads. */
  serverNow: () => number;
  /** A contract the server already has (a row of the running list): the machine starts in its state. */
  contract?: OptionContract;
}

export type ContractEvent =
  | { type: 'SUBMIT'; draft: ContractDraft }
  | { type: 'CONTRACT_UPDATE'; contract: OptionContract }
  /** Back to an empty ticket after a finished contract, or away from the verification prompt. */
  | { type: 'NEW_CONTRACT' }
  | { type: 'DISMISS' }
  | { type: 'PRICES_STALE' }
  | { type: 'PRICES_FRESH' }
  /** The line is back: a submission still waiting asks again under its id. */
  | { type: 'RECONNECT' };

export interface ContractContext {
  makeId: () => string;
  serverNow: () => number;
  draft: ContractDraft | null;
  /** The submission in flight or last refused without a definite answer; null once the server answered. */
  attempt: HeldRequest | null;
  contract: OptionContract | null;
  /** What went wrong last (a message in the user's language, from the server or the client). */
  error: string | null;
  errorField: string | null;
}

/** The contract a client knows best: the one the server changed last (ties keep what is held: a repeat). */
export function newerContract(held: OptionContract | null, incoming: OptionContract): OptionContract {
  if (!held || held.id !== incoming.id) return incoming;
  return incoming.updated_at > held.updated_at ? incoming : held;
}

const FINAL: readonly OptionState[] = ['won', 'lost', 'flat', 'refunded', 'cancelled'];
export const isFinalContract = (c: OptionContract): boolean => FINAL.includes(c.state);

/** Milliseconds of the countdown left at server time `now` (0 once E has passed; null without an entry tick). */
export function remainingMs(contract: OptionContract, now: number): number | null {
  return contract.expiry_ts === null ? null : Math.max(0, contract.expiry_ts - now);
}

export type Standing = 'winning' | 'losing' | 'even';

/**
 * How a running contract stands if it ended at `price` (the current last price): the rule compares the exit with the
 * entry price, exactly (decimal text, no float). Null before the entry tick or without a price.
 */
export function standingAt(contract: OptionContract, price: string | null): Standing | null {
  if (!contract.entry || price === null) return null;
  const cmp = compareDecimalText(price, contract.entry.price);
  if (cmp === 0) return 'even';
  return cmp > 0 === (contract.direction === 'up') ? 'winning' : 'losing';
}

const startAttempt = (context: ContractContext, draft: ContractDraft) => {
  // The same draft again (a retry after a failure) keeps its id; anything changed is a new submission.
  const attempt = requestFor(context.attempt, draft, context.makeId);
  return { draft, attempt, contract: null, error: null, errorField: null };
};

/** A finished contract: the ticket may buy the next one at once, or clear its status line. */
const finished = () => ({
  on: {
    SUBMIT: { guard: 'pricesFresh' as const, target: 'submitting', actions: 'beginAttempt' as const },
    NEW_CONTRACT: { target: 'choosing', actions: 'forget' as const },
  },
});

const purchase = submissionMachine<ContractDraft, ContractAcknowledgement>();

/**
 * The submission child sending with `send` (core/api/options.ts submitOptionContract in the app, a fake in tests),
 * as the machine is provided it under `submitContract`. The parent looks `submitContract` up when it invokes the
 * child, so a machine provided after it was made runs the call it was given; stopping the child aborts the call's
 * signal.
 */
export const submitContractWith = (send: SubmissionSend<ContractDraft, ContractAcknowledgement>) =>
  purchase.provide({ actors: { send: sendWith(send) } });

export const optionContractMachine = setup({
  types: {
    context: {} as ContractContext,
    events: {} as ContractEvent,
    input: {} as ContractMachineInput,
  },
  actors: {
    // The app provides the real call (core/api/options.ts); this default never settles, so a bare machine is inert.
    // The submission child, sending with the call it was provided (submitContractWith).
    submitContract: purchase,
  },
  delays: {
    // Read from the server clock when `running` is entered; a contract that arrives after E settles at once.
    untilExpiry: ({ context }) =>
      context.contract?.expiry_ts == null ? 0 : Math.max(0, context.contract.expiry_ts - context.serverNow()),
  },
  guards: {
    pricesFresh: stateIn('#optionContract.prices.fresh'),
    /** An update about this ticket's contract that is newer than what is held. */
    isNewsOfOurContract: ({ context, event }) => {
      if (event.type !== 'CONTRACT_UPDATE') return false;
      const held = context.contract;
      if (held) return held.id === event.contract.id && event.contract.updated_at > held.updated_at;
      // Before the submission answers, the contract is known by its request id only.
      return context.attempt !== null && event.contract.request_id === context.attempt.requestId;
    },
  },
  actions: {
    beginAttempt: assign(({ context, event }) => (event.type === 'SUBMIT' ? startAttempt(context, event.draft) : {})),
    takeUpdate: assign(({ context, event }) =>
      event.type === 'CONTRACT_UPDATE' ? { contract: newerContract(context.contract, event.contract) } : {},
    ),
    forget: assign({ draft: null, attempt: null, contract: null, error: null, errorField: null }),
  },
}).createMachine({
  id: 'optionContract',
  type: 'parallel',
  context: ({ input }) => ({
    makeId: input.makeId,
    serverNow: input.serverNow,
    draft: null,
    attempt: null,
    contract: input.contract ?? null,
    error: null,
    errorField: null,
  }),
  states: {
    contract: {
      initial: 'start',
      states: {
        /** Transient: an empty ticket, or the state of the contract the machine was started with. */
        start: {
          always: [{ guard: ({ context }) => context.contract !== null, target: 'routing' }, { target: 'choosing' }],
        },
        choosing: {
          on: { SUBMIT: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' } },
        },
        submitting: {
          invoke: {
            id: 'submitContract',
            src: 'submitContract',
            input: submissionInput<ContractDraft>,
            onDone: [
              {
                guard: ({ event }) => event.output.ok,
                target: 'routing',
                actions: assign(({ context, event }) => ({
                  // The answer and an update that overtook it: the newer one counts.
                  contract: event.output.ok ? newerContract(context.contract, event.output.contract) : context.contract,
                  // A definite answer: the next submission is a new one.
                  attempt: null,
                })),
              },
              {
                // SPEC 8: "account not authenticated, go to authentication?" A definite refusal.
                guard: ({ event }) => needsVerification(event.output),
                target: 'verifying',
                actions: assign(({ event }) => ({
                  error: event.output.ok ? null : event.output.message,
                  errorField: null,
                  attempt: null,
                })),
              },
              {
                target: 'choosing',
                actions: assign(({ context, event }) => {
                  const out = event.output;
                  if (out.ok) return {};
                  return {
                    error: out.message,
                    errorField: out.field ?? null,
                    // A refusal is definite; without an answer the server may have bought it, so keep the id.
                    attempt: leavesRequestOpen(out) ? context.attempt : null,
                  };
                }),
              },
            ],
            onError: {
              // The call broke without an answer (SPEC 8's fallback text); the id stays for the retry.
              target: 'choosing',
              actions: assign({ error: NO_ANSWER, errorField: null }),
            },
          },
          on: {
            CONTRACT_UPDATE: { guard: 'isNewsOfOurContract', actions: 'takeUpdate' },
            RECONNECT: { actions: sendTo('submitContract', { type: 'RECONNECT' }) },
          },
        },
        verifying: {
          on: { DISMISS: { target: 'choosing', actions: assign({ error: null }) } },
        },
        /** Transient: where a contract the server answered with belongs. */
        routing: {
          always: [
            { guard: ({ context }) => context.contract?.state === 'won', target: 'won' },
            { guard: ({ context }) => context.contract?.state === 'lost', target: 'lost' },
            { guard: ({ context }) => context.contract?.state === 'flat', target: 'flat' },
            { guard: ({ context }) => context.contract?.state === 'refunded', target: 'refunded' },
            { guard: ({ context }) => context.contract?.state === 'cancelled', target: 'cancelled' },
            { guard: ({ context }) => context.contract?.state === 'running', target: 'running' },
            { target: 'waiting' },
          ],
        },
        waiting: {
          on: { CONTRACT_UPDATE: { guard: 'isNewsOfOurContract', target: 'routing', actions: 'takeUpdate' } },
        },
        running: {
          // E passed on the server clock: the result is the server's to post (it needs the record up to E).
          after: { untilExpiry: 'settling' },
          on: {
            CONTRACT_UPDATE: { guard: 'isNewsOfOurContract', target: 'routing', actions: 'takeUpdate' },
            SUBMIT: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
          },
        },
        settling: {
          on: {
            // Only a final state leaves settling: a late copy saying `running` must not restart the countdown.
            CONTRACT_UPDATE: {
              guard: ({ context, event }) =>
                isFinalContract(event.contract) &&
                context.contract !== null &&
                event.contract.id === context.contract.id &&
                event.contract.updated_at > context.contract.updated_at,
              target: 'routing',
              actions: 'takeUpdate',
            },
            SUBMIT: { guard: 'pricesFresh', target: 'submitting', actions: 'beginAttempt' },
          },
        },
        won: finished(),
        lost: finished(),
        flat: finished(),
        refunded: finished(),
        cancelled: finished(),
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

export type ContractSnapshot = SnapshotFrom<typeof optionContractMachine>;
export type ContractPhase =
  | 'choosing'
  | 'submitting'
  | 'verifying'
  | 'waiting'
  | 'running'
  | 'settling'
  | 'won'
  | 'lost'
  | 'flat'
  | 'refunded'
  | 'cancelled';

const SETTLED_PHASES: readonly ContractPhase[] = ['won', 'lost', 'flat', 'refunded', 'cancelled'];

/** What the ticket shows for a snapshot at server time `now`: one pure function, used by the UI and the tests. */
export interface ContractView {
  phase: ContractPhase;
  /** Key (options namespace) of the contract's status line. */
  labelKey: `options.phase.${ContractPhase}`;
  /** Up and down are enabled (a new contract may be bought now). */
  submitEnabled: boolean;
  /** Why up and down are off because of the market, not the contract: prices stale. */
  blockedByStalePrices: boolean;
  busy: boolean;
  /** SPEC 8's prompt to go to identity verification. */
  promptVerify: boolean;
  /** The countdown, whole seconds rounded up (0 at and after E); null outside running and settling. */
  secondsLeft: number | null;
  /** Milliseconds left on the server clock; null outside running and settling. */
  remainingMs: number | null;
  settled: boolean;
  error: string | null;
  errorField: string | null;
  contract: OptionContract | null;
}

export function contractView(snapshot: ContractSnapshot, now: number): ContractView {
  const value = snapshot.value as {
    contract: ContractPhase | 'routing' | 'start';
    prices: 'stale' | 'fresh';
  };
  // `start` and `routing` are left in the step they are entered; they never show, but say something sane if they did.
  const phase: ContractPhase =
    value.contract === 'routing' ? 'waiting' : value.contract === 'start' ? 'choosing' : value.contract;
  const fresh = value.prices === 'fresh';
  const canStart = phase !== 'submitting' && phase !== 'verifying' && phase !== 'waiting';
  const contract = snapshot.context.contract;
  const counting = (phase === 'running' || phase === 'settling') && contract !== null;
  const left = counting ? remainingMs(contract, now) : null;
  return {
    phase,
    labelKey: `options.phase.${phase}`,
    submitEnabled: canStart && fresh,
    blockedByStalePrices: canStart && !fresh,
    busy: phase === 'submitting',
    promptVerify: phase === 'verifying',
    // In settling the server has not posted yet, whatever the device shows: the countdown stays at 0.
    secondsLeft: left === null ? null : phase === 'settling' ? 0 : Math.ceil(left / 1000),
    remainingMs: left === null ? null : phase === 'settling' ? 0 : left,
    settled: SETTLED_PHASES.includes(phase),
    error: snapshot.context.error,
    errorField: snapshot.context.errorField,
    contract,
  };
}
