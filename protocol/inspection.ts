import { z } from 'zod/mini';
import { call, emptyResponse } from './call-spec';
import { RECORD_ID_MAX, recordIdField } from './fields';

/**
 * Live inspection of order machines (issue 15, "Machines drawn and inspected"): the app reports each order actor's
 * transitions (XState's inspection API), the server keeps them per order for a while, and the support console's QA
 * section shows each live actor on its machine with the events it received. Diagnostics only: nothing here moves
 * money or decides anything, and an order's own state always comes from its own calls.
 */

/** The machines whose actors report, by their registry id (machines/registry.ts). */
export const TRACED_MACHINES = [
  'spot-order',
  'option-contract',
  'lever-order',
  'c2c-order',
  'ieo-subscription',
] as const;
export type TracedMachine = (typeof TRACED_MACHINES)[number];

/** How long the server keeps a trace step (a QA session looks at orders of the last hours, not of last month). */
export const TRACE_KEEP_MS = 24 * 3_600_000;
/** At most this many steps a batch carries (the app sends one batch per second at most). */
export const TRACE_BATCH_MAX = 50;
/** At most this many steps are kept per actor: a flapping connection must not fill the table. Older ones go first. */
export const TRACE_ACTOR_MAX = 300;
/** Active state ids of one step (the lever machine has two regions; no machine has more than four). */
const STATES_MAX = 8;

/** An actor's id: random, made by the app when the actor starts (one order may have several: a ticket and a row). */
export const TRACE_ACTOR_RE = /^[a-z0-9]{8,32}$/;
/** An event type as XState names it: `SUBMIT`, `xstate.init`, `xstate.done.actor.0.optionContract.submitting`. */
const EVENT_RE = /^[\w.:\- ]{1,120}$/;
/** A state id as the drawings mark it: `optionContract.contract.running`. */
const STATE_ID_RE = /^[\w.]{1,120}$/;

const invalid = { error: 'invalidInput' } as const;

export const traceStep = z.object(
  {
    /** The actor's own count of its snapshots, from 0 (xstate.init). */
    seq: z.number(invalid).check(z.int(invalid), z.gte(0, invalid), z.lte(RECORD_ID_MAX, invalid)),
    /** When it happened, on the app's estimate of server time (ms). */
    at: z.number(invalid).check(z.int(invalid), z.gte(0, invalid)),
    /** The event that led to this snapshot. */
    event: z.string(invalid).check(z.regex(EVENT_RE, invalid)),
    /** The atomic states active after it. */
    states: z
      .array(z.string(invalid).check(z.regex(STATE_ID_RE, invalid)), invalid)
      .check(z.minLength(1, invalid), z.maxLength(STATES_MAX, invalid)),
  },
  invalid,
);
export type TraceStep = z.infer<typeof traceStep>;

/** The steps as one form field: JSON text of an array of steps. */
const stepsField = z.pipe(
  z.pipe(
    z.string({ error: 'invalidInput' }).check(z.maxLength(40_000, { error: 'invalidInput' })),
    z.transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.issues.push({ code: 'custom', message: 'invalidInput', input: ctx.value });
        return z.NEVER;
      }
    }),
  ),
  z
    .array(traceStep, { error: 'invalidInput' })
    .check(z.minLength(1), z.maxLength(TRACE_BATCH_MAX, { error: 'invalidInput' })),
);

/** qa/trace: steps of one actor of one of the caller's own orders. */
export const traceRequest = z.object({
  machine: z.enum(TRACED_MACHINES, { error: 'invalidInput' }),
  order: recordIdField,
  actor: z.string({ error: 'invalidInput' }).check(z.regex(TRACE_ACTOR_RE, { error: 'invalidInput' })),
  steps: stepsField,
});
export type TraceRequest = z.input<typeof traceRequest>;

export const inspectionCalls = {
  'qa/trace': call('POST', true, traceRequest, emptyResponse),
} as const;
