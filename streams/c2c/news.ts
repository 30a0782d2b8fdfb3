import type { C2cOrder, C2cStatus } from '../../protocol/c2c';

/**
 * Which copy of a C2C order is newer. An order carries no `updated_at`, but its status only ever moves forward
 * (paying → paid → appeal → completed | cancelled, or paying → cancelled), so the status's rank orders the copies;
 * within one rank the time of its latest event (paid, appealed, decided, completed, cancelled) breaks the tie. A
 * higher rank or a later event is news; the same or an earlier one is a repeat or late news.
 */
export const C2C_STATUS_RANK: Readonly<Record<C2cStatus, number>> = {
  1: 0,
  2: 1,
  4: 2,
  3: 3,
  5: 3,
};

/** The server time of the order's latest event. */
export const lastEventAt = (order: C2cOrder): number =>
  Math.max(
    order.created_at,
    order.paid_at ?? 0,
    order.appeal?.opened_at ?? 0,
    order.appeal?.decided_at ?? 0,
    order.completed_at ?? 0,
    order.cancelled_at ?? 0,
  );

/** Whether `incoming` replaces `held` (both the same order): a later status, or a later event in the same rank. */
export function isNewerC2cOrder(held: C2cOrder | null | undefined, incoming: C2cOrder): boolean {
  if (!held) return true;
  const a = C2C_STATUS_RANK[held.status];
  const b = C2C_STATUS_RANK[incoming.status];
  if (b !== a) return b > a;
  return lastEventAt(incoming) > lastEventAt(held);
}

/** The newer of two copies of the same order (ties keep what is held). */
export const newerC2cOrder = (held: C2cOrder | null | undefined, incoming: C2cOrder): C2cOrder =>
  held && !isNewerC2cOrder(held, incoming) ? held : incoming;

/** Paying, paid or under appeal: the order still waits for someone. */
export const isOpenC2cOrder = (order: Pick<C2cOrder, 'status'>): boolean =>
  order.status === 1 || order.status === 2 || order.status === 4;
