import { useSelector } from '@xstate/react';
import type { LeverOrderRef } from '../../../../machines/lever/book.machine';
import { leverOrderView } from '../../../../machines/lever/order.machine';

/**
 * What one order machine of the live book shows (the ticket's or a row's): its snapshot, the view of it, and how to
 * tell it what the user did. The machine lives in the book (machines/lever/live.ts), fed by the streams; the
 * component only draws it and renders when its snapshot changes.
 */
export function useOrderActor(ref: LeverOrderRef) {
  const snapshot = useSelector(ref, (s) => s);
  return { view: leverOrderView(snapshot), snapshot, send: ref.send };
}
