import { fromPromise } from 'xstate';
import {
  addLeverMargin,
  cancelLeverOrder,
  closeLeverPosition,
  reverseLeverPosition,
  setLeverStops,
  submitLeverOrder,
} from '../../../../core/api/lever';
import { leverOrderMachine, submitOrderWith } from '../../../../machines/lever/order.machine';

/**
 * The lever order machine with the real calls (core/api/lever.ts): the ticket and every row run this one. A refusal
 * for a missing verification is the submission machine's to recognise (reason `verificationRequired`), not the page's.
 */
export const leverMachine = leverOrderMachine.provide({
  actors: {
    submitOrder: submitOrderWith(submitLeverOrder),
    cancelOrder: fromPromise(({ input }) => cancelLeverOrder(input.id)),
    closePosition: fromPromise(({ input }) =>
      closeLeverPosition(input.id, {
        request_id: input.request_id,
        ...(input.lots === null ? {} : { lots: input.lots }),
      }),
    ),
    reversePosition: fromPromise(({ input }) => reverseLeverPosition(input.id, input.request_id)),
    setStops: fromPromise(({ input }) => setLeverStops(input)),
    addMargin: fromPromise(({ input }) => addLeverMargin(input)),
  },
});
