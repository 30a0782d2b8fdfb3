import { stepOf as c2cStepOf } from '../../../machines/c2c/steps';
import { stepOf as ieoStepOf } from '../../../machines/ieo/steps';
import type { C2cOrder } from '../../../protocol/c2c';
import type { IeoOrder } from '../../../protocol/ieo';

/**
 * What waits for the user now (issue 26 "Nothing lapses silently"): an IEO allotment to pay before its payment
 * window ends, a C2C order to pay (the buyer, within the 30-minute window) or to release (the merchant, once the buyer
 * marked it paid). Pure, so the hook only feeds it the streams and the server clock.
 */
export type AwaitingItem =
  | { kind: 'ieoPay'; key: string; deadline: number; order: IeoOrder }
  | { kind: 'c2cPay'; key: string; deadline: number; order: C2cOrder }
  | { kind: 'c2cRelease'; key: string; deadline: null; order: C2cOrder };

/**
 * The records that wait for the user by their state alone, whatever the time: a deadline that passed still leaves
 * them here until the server's word (lapsed, cancelled) arrives, which keeps the clock ticking until then.
 */
export function waitingRecords(ieo: readonly IeoOrder[], c2c: readonly C2cOrder[]): AwaitingItem[] {
  const items: AwaitingItem[] = [];
  for (const order of ieo) {
    if (order.phase === 'allotted' && order.payment !== null) {
      items.push({ kind: 'ieoPay', key: `ieo-${order.id}`, deadline: order.pay_date, order });
    }
  }
  for (const order of c2c) {
    if (order.role === 'buyer' && order.status === 1) {
      items.push({ kind: 'c2cPay', key: `c2c-${order.id}`, deadline: order.pay_until, order });
    } else if (order.role === 'merchant' && order.status === 2) {
      items.push({ kind: 'c2cRelease', key: `c2c-${order.id}`, deadline: null, order });
    }
  }
  return items;
}

/** Whether the item can still be acted on at server time `now`: the step its order page would show says so. */
const actionable = (item: AwaitingItem, now: number): boolean => {
  switch (item.kind) {
    case 'ieoPay':
      return ieoStepOf(item.order, now) === 'allotted';
    case 'c2cPay':
      return c2cStepOf(item.order, now) === 'awaitingPayment';
    case 'c2cRelease':
      return c2cStepOf(item.order, now) === 'paid';
  }
};

/**
 * What the user can still act on at server time `now`, the nearest deadline first, then the releases, the longest
 * waiting first (a buyer who paid waits with no deadline of theirs).
 */
export function awaitingAt(items: readonly AwaitingItem[], now: number): AwaitingItem[] {
  const waitedSince = (item: AwaitingItem) => (item.kind === 'c2cRelease' ? (item.order.paid_at ?? 0) : 0);
  return items
    .filter((item) => actionable(item, now))
    .sort(
      (a, b) =>
        (a.deadline ?? Number.POSITIVE_INFINITY) - (b.deadline ?? Number.POSITIVE_INFINITY) ||
        waitedSince(a) - waitedSince(b) ||
        a.key.localeCompare(b.key),
    );
}

/** Time left as a clock (29:59, 1:05:03) and the whole days in front of it. */
export function timeLeft(ms: number): { days: number; clock: string } {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const rest = total % 86_400;
  const two = (n: number) => String(n).padStart(2, '0');
  const hours = Math.floor(rest / 3600);
  const minutes = `${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`;
  return { days, clock: hours > 0 || days > 0 ? `${hours}:${minutes}` : minutes };
}
