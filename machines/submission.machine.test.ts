// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup, toPromise, waitFor } from 'xstate';
import {
  ANSWER_WITHIN_MS,
  type IdentifiedRequest,
  NO_ANSWER,
  needsVerification,
  requestFor,
  type SubmissionSend,
  type SubmitAnswer,
  type SubmitRefusal,
  sendWith,
  submissionMachine,
  VERIFICATION_REQUIRED,
} from './submission.machine';

/**
 * The submission child on its own, against a fake server with the real server's idempotency (server/trading/submit.ts):
 * the same id with the same arguments answers with the row it wrote; the same id with other arguments is refused
 * `requestIdReused`. The tests drive the transport (answers, silence, a lost line) and the clock.
 */

interface Args {
  symbol: string;
  qty: string;
}
interface Row {
  id: number;
  request_id: string;
  qty: string;
}
type Ok = { ok: true; order: Row };

const args: Args = { symbol: 'BTC', qty: '0.01' };
const machine = submissionMachine<Args, Ok>();

/** The child sending with `send`, provided the way a product machine provides it. */
const sending = (send: SubmissionSend<Args, Ok>) => machine.provide({ actors: { send: sendWith(send) } });

function counter(): () => string {
  let n = 0;
  return () => `req-${++n}`;
}

/** The server's side: one row per request id, written once. */
function fakeServer() {
  const rows = new Map<string, { key: string; row: Row }>();
  const refusals: string[] = [];
  const answer = (request: IdentifiedRequest<Args>): SubmitAnswer<Ok> => {
    const { request_id, ...rest } = request;
    const key = JSON.stringify(rest);
    const held = rows.get(request_id);
    if (held && held.key !== key) {
      refusals.push('requestIdReused');
      return { ok: false, message: 'Request id reused', reason: 'requestIdReused', answered: true };
    }
    if (held) return { ok: true, order: held.row };
    const row = { id: rows.size + 1, request_id, qty: request.qty };
    rows.set(request_id, { key, row });
    return { ok: true, order: row };
  };
  return { rows, refusals, answer };
}

/** A transport whose calls the test settles, one by one. */
function heldLine() {
  const calls: {
    request: IdentifiedRequest<Args>;
    signal: AbortSignal;
    settle: (a: SubmitAnswer<Ok>) => void;
    fail: (e: Error) => void;
  }[] = [];
  const send = (request: IdentifiedRequest<Args>, signal: AbortSignal) =>
    new Promise<SubmitAnswer<Ok>>((settle, fail) => {
      calls.push({ request, signal, settle, fail });
    });
  return { calls, send };
}

function start(send: SubmissionSend<Args, Ok>, extra = {}) {
  const actor = createActor(sending(send), { input: { args, makeId: counter(), ...extra } });
  actor.start();
  return actor;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the answer', () => {
  it('an acknowledgement ends acknowledged with the row, sent under a new id', async () => {
    const server = fakeServer();
    const actor = start(async (request) => server.answer(request));
    expect(actor.getSnapshot().value).toBe('sending');
    const output = await toPromise(actor);
    expect(actor.getSnapshot().value).toBe('acknowledged');
    expect(output).toEqual({ ok: true, order: { id: 1, request_id: 'req-1', qty: '0.01' } });
  });

  it('a refusal ends refused, with its reason key beside the message', async () => {
    const refusal: SubmitRefusal = {
      ok: false,
      message: 'Guthaben reicht nicht',
      field: 'qty',
      reason: 'insufficientBalance',
      answered: true,
    };
    const actor = start(async () => refusal);
    expect(await toPromise(actor)).toEqual(refusal);
    expect(actor.getSnapshot().value).toBe('refused');
  });

  it('verificationRequired is recognised by its reason, whatever the message says', async () => {
    const actor = start(async () => ({
      ok: false as const,
      message: 'Bitte verifiziere zuerst deine Identität.',
      reason: VERIFICATION_REQUIRED,
      answered: true,
    }));
    const output = await toPromise(actor);
    expect(actor.getSnapshot().value).toBe('verificationRequired');
    expect(needsVerification(output)).toBe(true);
    // The same words with another reason are an ordinary refusal.
    const other = start(async () => ({
      ok: false as const,
      message: 'Bitte verifiziere zuerst deine Identität.',
      reason: 'insufficientBalance',
      answered: true,
    }));
    expect(needsVerification(await toPromise(other))).toBe(false);
    expect(other.getSnapshot().value).toBe('refused');
  });

  it('no answer from the transport (offline) ends unanswered with its message', async () => {
    const actor = start(async () => ({ ok: false as const, message: 'Offline', answered: false }));
    expect(await toPromise(actor)).toEqual({ ok: false, message: 'Offline', answered: false });
    expect(actor.getSnapshot().value).toBe('unanswered');
  });

  it('a call that breaks ends unanswered with SPEC 8 fallback text', async () => {
    const actor = start(async () => {
      throw new Error('socket hang up');
    });
    expect(await toPromise(actor)).toEqual({ ok: false, message: NO_ANSWER, answered: false });
    expect(actor.getSnapshot().value).toBe('unanswered');
  });
});

describe('the time-out', () => {
  it('gives up waiting after answerWithinMs, aborts the call and reports no answer', () => {
    vi.useFakeTimers();
    const line = heldLine();
    const actor = start(line.send);
    vi.advanceTimersByTime(ANSWER_WITHIN_MS - 1);
    expect(actor.getSnapshot().value).toBe('sending');
    expect(line.calls[0]?.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('unanswered');
    expect(actor.getSnapshot().output).toEqual({ ok: false, message: NO_ANSWER, answered: false });
    expect(line.calls[0]?.signal.aborted).toBe(true);
  });

  it('takes its own time-out from the input', () => {
    vi.useFakeTimers();
    const actor = start(heldLine().send, { answerWithinMs: 5_000 });
    vi.advanceTimersByTime(5_000);
    expect(actor.getSnapshot().value).toBe('unanswered');
  });
});

describe('a reconnect', () => {
  it('sends the unanswered request again under the same id and takes the answer to the second', async () => {
    vi.useFakeTimers();
    const line = heldLine();
    const actor = start(line.send);
    vi.advanceTimersByTime(ANSWER_WITHIN_MS - 1_000);
    actor.send({ type: 'RECONNECT' });
    expect(line.calls.map((c) => c.request)).toEqual([
      { ...args, request_id: 'req-1' },
      { ...args, request_id: 'req-1' },
    ]);
    // The first call is let go; the time-out starts again with the second.
    expect(line.calls[0]?.signal.aborted).toBe(true);
    vi.advanceTimersByTime(ANSWER_WITHIN_MS - 1);
    expect(actor.getSnapshot().value).toBe('sending');
    line.calls[1]?.settle({ ok: true, order: { id: 1, request_id: 'req-1', qty: '0.01' } });
    vi.useRealTimers();
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('acknowledged');
  });

  it('changes nothing once the answer is in', async () => {
    const server = fakeServer();
    let sent = 0;
    const actor = start(async (request) => {
      sent += 1;
      return server.answer(request);
    });
    await toPromise(actor);
    actor.send({ type: 'RECONNECT' });
    expect(sent).toBe(1);
    expect(actor.getSnapshot().value).toBe('acknowledged');
  });
});

describe('retries and the request id', () => {
  it('keeps the id for the same arguments and makes a new one for other arguments', () => {
    const makeId = counter();
    const first = requestFor(null, args, makeId);
    expect(first.requestId).toBe('req-1');
    expect(requestFor(first, { ...args }, makeId)).toBe(first);
    expect(requestFor(first, { ...args, qty: '0.02' }, makeId).requestId).toBe('req-2');
  });

  it('a retry after a lost answer gets the row the server already wrote; changed arguments are a new order', async () => {
    vi.useFakeTimers();
    const server = fakeServer();
    // The server takes the order, but its answer never arrives.
    const lost = createActor(
      sending((request) => {
        server.answer(request);
        return new Promise<SubmitAnswer<Ok>>(() => {});
      }),
      { input: { args, makeId: counter() } },
    ).start();
    vi.advanceTimersByTime(ANSWER_WITHIN_MS);
    expect(lost.getSnapshot().value).toBe('unanswered');
    const held = requestFor(null, args, () => lost.getSnapshot().context.request.request_id);
    vi.useRealTimers();

    const sent: IdentifiedRequest<Args>[] = [];
    const send = async (request: IdentifiedRequest<Args>) => {
      sent.push(request);
      return server.answer(request);
    };
    const makeId = () => 'req-2';
    const retry = createActor(sending(send), { input: { args, makeId, held } }).start();
    expect(await toPromise(retry)).toEqual({ ok: true, order: { id: 1, request_id: 'req-1', qty: '0.01' } });
    expect(server.rows.size).toBe(1);

    const changed = createActor(sending(send), { input: { args: { ...args, qty: '0.02' }, makeId, held } }).start();
    expect(await toPromise(changed)).toEqual({ ok: true, order: { id: 2, request_id: 'req-2', qty: '0.02' } });
    expect(sent.map((r) => r.request_id)).toEqual(['req-1', 'req-2']);
    expect(server.refusals).toEqual([]);
  });
});

describe('invoked by a product machine', () => {
  /**
   * A parent shaped like the product machines: it is provided its submission child, sending with the call, by the
   * call's name, and invokes it with onDone.
   */
  const parent = setup({
    types: { context: {} as { answer: SubmitAnswer<Ok> | null } },
    actors: { placeOrder: machine },
  }).createMachine({
    context: { answer: null },
    initial: 'submitting',
    states: {
      submitting: {
        invoke: {
          id: 'placeOrder',
          src: 'placeOrder',
          input: { args, makeId: () => 'req-9' },
          onDone: { target: 'done', actions: assign({ answer: ({ event }) => event.output }) },
        },
      },
      done: {},
    },
  });

  it('runs the call the parent was provided and hands the answer to its onDone', async () => {
    const requests: unknown[] = [];
    const provided = parent.provide({
      actors: {
        placeOrder: sending(async (request) => {
          requests.push(request);
          return { ok: true as const, order: { id: 3, request_id: request.request_id, qty: request.qty } };
        }),
      },
    });
    const actor = createActor(provided).start();
    await waitFor(actor, (s) => s.matches('done'));
    expect(requests).toEqual([{ ...args, request_id: 'req-9' }]);
    expect(actor.getSnapshot().context.answer).toEqual({
      ok: true,
      order: { id: 3, request_id: 'req-9', qty: '0.01' },
    });
  });

  it('stops the provided call when the parent leaves before the answer', () => {
    let aborted: AbortSignal | null = null;
    const provided = parent.provide({
      actors: {
        placeOrder: sending((_request, signal) => {
          aborted = signal;
          return new Promise<SubmitAnswer<Ok>>(() => {});
        }),
      },
    });
    const actor = createActor(provided).start();
    expect(aborted).not.toBeNull();
    actor.stop();
    expect((aborted as AbortSignal | null)?.aborted).toBe(true);
  });
});
