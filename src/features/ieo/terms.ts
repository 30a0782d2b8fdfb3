import { type IeoOrder, type IeoProject, type IeoProjectState, ieoApplyRequest } from '../../../protocol/ieo';
import { ieoPayment } from '../../../protocol/rules/ieo';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';
import { IEO_PAY_SCALE, unitsOf } from './format';

/**
 * The purchase page's checks and figures, from the protocol's schema and the published rule code
 * (protocol/rules/ieo.ts) on integer minor units, so what the page says before a subscription is what the server
 * decides. Nothing here uses a float.
 */

/** `errors` keys a typed quantity can fail with before it is sent, in the order the server checks them. */
export type QuantityProblem =
  | 'ieoQuantityRequired'
  | 'amountInvalid'
  | 'amountTooPrecise'
  | 'amountNotPositive'
  | 'ieoAboveCap';

export type QuantityCheck = { ok: true; units: bigint } | { ok: false; problem: QuantityProblem };

/**
 * The quantity as the server reads it: given and plain decimal text (the protocol's own schema), at most the coin's
 * decimals, above zero, at most the per-user cap.
 */
export function checkQuantity(exact: string, project: Pick<IeoProject, 'scale' | 'user_cap'>): QuantityCheck {
  const shape = ieoApplyRequest.shape.quantity.safeParse(exact);
  if (!shape.success) {
    const key = shape.error.issues[0]?.message;
    return { ok: false, problem: key === 'ieoQuantityRequired' ? 'ieoQuantityRequired' : 'amountInvalid' };
  }
  const units = toUnits(shape.data, project.scale);
  if (units === null) return { ok: false, problem: 'amountTooPrecise' };
  if (units <= 0n) return { ok: false, problem: 'amountNotPositive' };
  if (units > unitsOf(project.user_cap, project.scale)) return { ok: false, problem: 'ieoAboveCap' };
  return { ok: true, units };
}

/** What `units` of the coin cost if all of it is allotted: × the IEO price, rounded up to a USDT unit (the rule's). */
export function fullCost(units: bigint, project: Pick<IeoProject, 'ieo_price' | 'scale'>): string {
  return fromUnits(ieoPayment(units, project.ieo_price, project.scale, IEO_PAY_SCALE), IEO_PAY_SCALE);
}

/**
 * The project's list state at server time `now`: the server's, moved on by the window's own times while the page is
 * open (upcoming → subscribing → under review). What comes after the review (sold out or passed) needs the
 * allotment, so only the server says it.
 */
export function projectStateAt(
  project: Pick<IeoProject, 'state' | 'starts_at' | 'ends_at'>,
  now: number,
): IeoProjectState {
  if (project.state === 'upcoming' && now >= project.starts_at)
    return now >= project.ends_at ? 'under_review' : 'subscribing';
  if (project.state === 'subscribing' && now >= project.ends_at) return 'under_review';
  return project.state;
}

/** Whether the user can pay what their order says (a figure is there and above zero). */
export const hasPayment = (order: Pick<IeoOrder, 'payment'>): order is { payment: string } =>
  order.payment !== null && unitsOf(order.payment, IEO_PAY_SCALE) > 0n;
