import { assign, fromPromise, setup } from 'xstate';

/**
 * One trade submission, the same for spot orders, option contracts and lever orders (server/trading/submit.ts is its
 * server side):
 *
 *   sending → acknowledged (the product's row) | refused (a reason from the errors table)
 *           | verificationRequired (the real account needs a verified identity: the product shows its prompt)
 *           | unanswered (no answer: offline, the call broke, or none within `answerWithinMs`)
 *   sending → sending on RECONNECT (the line dropped while waiting: the same request again, with the same id)
 *
 * The request id is what makes a retry safe: the server answers the same id with the same arguments with the row it
 * already wrote, and refuses the same id with other arguments (`requestIdReused`). So an id is kept exactly as long
 * as the arguments it was made for: a caller that got no answer passes the request back as `held`, and the same
 * arguments go out under the same id, while changed ones are a new request with a new id. A definite answer (the
 * row, or a refusal) ends the request; the next one is new.
 *
 * The product machines invoke it (with onDone) in their submitting state; its output is the answer as the server
 * gave it, or an unanswered refusal the machine made itself. The transport is the child's own actor `send`, provided
 * the ordinary XState way: a product machine is provided its submission child already provided with the call
 * (`submissionMachine<…>().provide({ actors: { send: sendWith(call) } })`, see each product's `…With`), so the call
 * is whatever the app or a test provided, and stopping the child stops the call, which aborts its signal.
 */

/** A refusal, or no answer at all (core/api/client.ts Refusal): `reason` is the errors-table key. */
export interface SubmitRefusal {
  ok: false;
  message: string;
  field?: string;
  reason?: string;
  /** False when no answer came: the server may still have acted, so a retry must carry the same id. */
  answered: boolean;
}

/** What a submission answers: the product's acknowledgement (`{ ok: true, order }`, …) or a refusal. */
export type SubmitAnswer<Ok extends { ok: true }> = Ok | SubmitRefusal;

/** The request on the wire: the arguments and the id. */
export type IdentifiedRequest<Args extends object> = Args & { request_id: string };

/** A request that has an id: its arguments as JSON (other arguments are another request) and that id. */
export interface HeldRequest {
  key: string;
  requestId: string;
}

/** The one refusal reason every product's submission shares (errors table `verificationRequired`, SPEC 8). */
export const VERIFICATION_REQUIRED = 'verificationRequired';

/** SPEC 8: a failure without a message of its own shows "ERROR". */
export const NO_ANSWER = 'ERROR';

/**
 * The machine's own time-out: the transport gives up after its own (core/api/client.ts, 60 s) and answers
 * `answered: false`; this one is for a call that never settles at all.
 */
export const ANSWER_WITHIN_MS = 65_000;

/** The request for `args`: the held one when the arguments are the same (a retry), else a new id. */
export function requestFor(held: HeldRequest | null | undefined, args: object, makeId: () => string): HeldRequest {
  const key = JSON.stringify(args);
  return held?.key === key ? held : { key, requestId: makeId() };
}

/** The refusal asks for identity verification first (the product shows SPEC 8's prompt, not the message alone). */
export const needsVerification = (answer: { ok: boolean; reason?: string }): boolean =>
  !answer.ok && answer.reason === VERIFICATION_REQUIRED;

/** Whether an answer leaves the request open: without an answer the server may have acted, so keep its id. */
export const leavesRequestOpen = (answer: { ok: boolean; answered?: boolean }): boolean =>
  !answer.ok && answer.answered === false;

const noAnswer: SubmitRefusal = { ok: false, message: NO_ANSWER, answered: false };

/**
 * The call that sends a request (core/api in the app, a fake in tests); the signal aborts when the machine stops
 * waiting (time-out, reconnect, stopped).
 */
export type SubmissionSend<Args extends object, Ok extends { ok: true }> = (
  request: IdentifiedRequest<Args>,
  signal: AbortSignal,
) => Promise<SubmitAnswer<Ok>>;

/**
 * The child's `send` actor for a call: a promise actor, so stopping it (the child leaves `sending`, or is stopped with
 * its parent) aborts the call's signal. The request travels wrapped: XState's invoke types cannot check a generic
 * intersection (`Args & { request_id }`) as an input, an object holding it they can.
 */
export function sendWith<Args extends object, Ok extends { ok: true }>(send: SubmissionSend<Args, Ok>) {
  return fromPromise<SubmitAnswer<Ok>, { request: IdentifiedRequest<Args> }>(({ input, signal }) =>
    send(input.request, signal),
  );
}

export interface SubmissionInput<Args extends object> {
  args: Args;
  /** Makes a request id (core/ids.ts newRequestId in the app, a counter in tests). */
  makeId: () => string;
  /** The request that got no answer last time, if any: the same arguments keep its id. */
  held?: HeldRequest | null;
  /** Defaults to ANSWER_WITHIN_MS. */
  answerWithinMs?: number;
}

export type SubmissionEvent = { type: 'RECONNECT' };

interface SubmissionContext<Args extends object, Ok extends { ok: true }> {
  request: IdentifiedRequest<Args>;
  answerWithinMs: number;
  answer: SubmitAnswer<Ok>;
}

/** The submission machine for one product's arguments and acknowledgement (one definition, typed per product). */
export function submissionMachine<Args extends object, Ok extends { ok: true }>() {
  return setup({
    types: {
      context: {} as SubmissionContext<Args, Ok>,
      events: {} as SubmissionEvent,
      input: {} as SubmissionInput<Args>,
      output: {} as SubmitAnswer<Ok>,
    },
    actors: {
      // The product's call, provided with the child (see the product machines); this default never settles, so a
      // bare child is inert like a bare product machine.
      send: sendWith<Args, Ok>(() => new Promise(() => {})),
    },
    delays: { answerWithin: ({ context }) => context.answerWithinMs },
  }).createMachine({
    id: 'submission',
    context: ({ input }) => ({
      request: { ...input.args, request_id: requestFor(input.held, input.args, input.makeId).requestId },
      answerWithinMs: input.answerWithinMs ?? ANSWER_WITHIN_MS,
      answer: noAnswer,
    }),
    initial: 'sending',
    states: {
      sending: {
        invoke: {
          src: 'send',
          input: ({ context }) => ({ request: context.request }),
          onDone: { target: 'answered', actions: assign({ answer: ({ event }) => event.output }) },
          // The call broke without an answer: SPEC 8's fallback text.
          onError: 'unanswered',
        },
        after: { answerWithin: 'unanswered' },
        on: {
          // The answer may have been lost with the line: ask again under the same id, the server answers it once.
          RECONNECT: { target: 'sending', reenter: true },
        },
      },
      /** Transient: what the answer means. */
      answered: {
        always: [
          { guard: ({ context }) => context.answer.ok, target: 'acknowledged' },
          { guard: ({ context }) => needsVerification(context.answer), target: 'verificationRequired' },
          { guard: ({ context }) => !leavesRequestOpen(context.answer), target: 'refused' },
          { target: 'unanswered' },
        ],
      },
      acknowledged: { type: 'final' },
      refused: { type: 'final' },
      verificationRequired: { type: 'final' },
      unanswered: { type: 'final' },
    },
    output: ({ context }) => context.answer,
  });
}

/** What a product machine holds about its ticket's submission. */
interface SubmittingContext<Args extends object> {
  makeId: () => string;
  /** The ticket's request; set on SUBMIT, before the child is invoked. */
  draft: Args | null;
  /** The request that got no answer last time, if any. */
  attempt: HeldRequest | null;
}

/**
 * The child's input in a product machine's submitting state: the ticket's draft and the held request (already chosen
 * on SUBMIT, so updates about it are known while it is sent).
 */
export function submissionInput<Args extends object>({
  context,
}: {
  context: SubmittingContext<Args>;
}): SubmissionInput<Args> {
  return {
    // SUBMIT sets the draft before it enters the submitting state that invokes the child.
    args: context.draft as Args,
    makeId: context.makeId,
    held: context.attempt,
  };
}
