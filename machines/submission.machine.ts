import { type AnyActorLogic, assign, createActor, fromPromise, setup, toPromise } from 'xstate';

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
 * gave it, or an unanswered refusal the machine made itself.
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

export interface SubmissionInput<Args extends object, Ok extends { ok: true }> {
  args: Args;
  /** Makes a request id (core/ids.ts newRequestId in the app, a counter in tests). */
  makeId: () => string;
  /** The request that got no answer last time, if any: the same arguments keep its id. */
  held?: HeldRequest | null;
  /** Sends the request; the signal aborts when the machine stops waiting (time-out, reconnect, stopped). */
  send: (request: IdentifiedRequest<Args>, signal: AbortSignal) => Promise<SubmitAnswer<Ok>>;
  /** Defaults to ANSWER_WITHIN_MS. */
  answerWithinMs?: number;
}

export type SubmissionEvent = { type: 'RECONNECT' };

interface SubmissionContext<Args extends object, Ok extends { ok: true }> {
  send: SubmissionInput<Args, Ok>['send'];
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
      input: {} as SubmissionInput<Args, Ok>,
      output: {} as SubmitAnswer<Ok>,
    },
    actors: {
      call: fromPromise<SubmitAnswer<Ok>, Pick<SubmissionContext<Args, Ok>, 'send' | 'request'>>(({ input, signal }) =>
        input.send(input.request, signal),
      ),
    },
    delays: { answerWithin: ({ context }) => context.answerWithinMs },
  }).createMachine({
    id: 'submission',
    context: ({ input }) => ({
      send: input.send,
      request: { ...input.args, request_id: requestFor(input.held, input.args, input.makeId).requestId },
      answerWithinMs: input.answerWithinMs ?? ANSWER_WITHIN_MS,
      answer: noAnswer,
    }),
    initial: 'sending',
    states: {
      sending: {
        invoke: {
          src: 'call',
          input: ({ context }) => ({ send: context.send, request: context.request }),
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

/** A parent machine's actor as its invoke mappers see it: enough to find what it was provided. */
interface ProvidedParent {
  getSnapshot(): { machine: { implementations: { actors: Record<string, AnyActorLogic | { src: AnyActorLogic }> } } };
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
 * The child's input in a product machine's submitting state: the ticket's draft, the held request (already chosen on
 * SUBMIT, so updates about it are known while it is sent) and the call the product was provided under `call`.
 */
export function submissionInput<Args extends object, Ok extends { ok: true }>(call: string) {
  return ({
    context,
    self,
  }: {
    context: SubmittingContext<Args>;
    self: ProvidedParent;
  }): SubmissionInput<Args, Ok> => ({
    // SUBMIT sets the draft before it enters the submitting state that invokes the child.
    args: context.draft as Args,
    makeId: context.makeId,
    held: context.attempt,
    send: providedSend<IdentifiedRequest<Args>, SubmitAnswer<Ok>>(self, call),
  });
}

/**
 * The call a product machine was provided under `name`, as a `send` for its submission child. The app (and each test)
 * provides the product machine's call by the name it always had (`placeOrder`, `submitContract`, `submitOrder`);
 * the child runs whatever the parent was given, so providing the parent is enough.
 */
export function providedSend<Request, Answer>(
  self: ProvidedParent,
  name: string,
): (request: Request, signal: AbortSignal) => Promise<Answer> {
  return (request, signal) => {
    // Read when the call is made, not when the child is invoked: a parent may invoke it while it is still starting.
    const provided = self.getSnapshot().machine.implementations.actors[name];
    if (!provided) throw new Error(`No actor named ${name} is provided`);
    const logic = 'src' in provided ? provided.src : provided;
    const call = createActor(logic, { input: request });
    // Stopping the call aborts its own signal (fromPromise), so the transport lets go too.
    signal.addEventListener('abort', () => call.stop(), { once: true });
    call.start();
    return toPromise(call);
  };
}
