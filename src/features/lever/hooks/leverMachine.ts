import { fromPromise } from 'xstate';
import {
  addLeverMargin,
  cancelLeverOrder,
  closeLeverPosition,
  setLeverStops,
  submitLeverOrder,
} from '../../../../core/api/lever';
import { type LeverCallResult, leverOrderMachine } from '../../../../machines/lever/order.machine';
import type { SubmitLeverRequest } from '../../../../protocol/lever';

/**
 * The server refuses a real-account order without verified identity with `leverVerifyRequired` (SPEC 8): the
 * envelope's reason, whatever the language of its message.
 */
async function submit(input: SubmitLeverRequest): Promise<LeverCallResult> {
  const r = await submitLeverOrder(input);
  if (!r.ok && r.answered && r.reason === 'leverVerifyRequired') return { ...r, verifyRequired: true };
  return r;
}

/** The lever order machine with the real calls (core/api/lever.ts): the ticket and every row run this one. */
export const leverMachine = leverOrderMachine.provide({
  actors: {
    submitOrder: fromPromise(({ input }) => submit(input)),
    cancelOrder: fromPromise(({ input }) => cancelLeverOrder(input.id)),
    closePosition: fromPromise(({ input }) => closeLeverPosition(input.id)),
    setStops: fromPromise(({ input }) => setLeverStops(input)),
    addMargin: fromPromise(({ input }) => addLeverMargin(input)),
  },
});
