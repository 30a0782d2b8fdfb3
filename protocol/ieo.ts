import { z } from 'zod/mini';
import { call } from './call-spec';
import { beforeIdField, listLimitField, recordIdField, tradeRequestIdField } from './fields';
import { decimalString } from './market';

/**
 * IEO: new-coin subscriptions (RULES.md "IEO", SPEC 2 publication and assets/ieo pages, 3 "IEO order", 4 "IEO
 * ipo_status" and "New-coin subscription"). The operator creates a project; users subscribe during its window; at the
 * allotment time protocol/rules/ieo.ts shares the supply out; an allotted user pays within the payment window; at
 * listing the coins are credited locked, and they unlock at the unlock time. Amounts are exact decimal strings.
 */

/** The currency subscriptions are paid in. */
export const IEO_PAY_CURRENCY = 'USDT' as const;
/** Decimals of an IEO coin (like every non-stable coin in the ledger). */
export const IEO_COIN_SCALE = 8;

/**
 * A project's state in the list (SPEC 4 "New-coin subscription"), from its times and its allotment:
 * `upcoming` before the window opens (an addition: SPEC lists no state for it), `subscribing` while it is open,
 * `under_review` after it closed until the allotment ran, then `sold_out` when the demand took the whole supply, or
 * `passed` when supply was left. SPEC's `redeeming` has no counterpart in these rules and is not used.
 */
export const IEO_PROJECT_STATES = ['upcoming', 'subscribing', 'under_review', 'sold_out', 'passed'] as const;
export type IeoProjectState = (typeof IEO_PROJECT_STATES)[number];

/**
 * A subscription's step. SPEC 4 numbers them (`ipo_status`): 1 subscribed, 2 allotment failed (nothing allotted),
 * 3 allotted, 4 paid, 5 listed and locked, 6 unlocked. `lapsed` is an allotment not paid within the payment window
 * (shown as "fail"); it keeps status 3.
 */
export const IEO_PHASES = ['subscribed', 'failed', 'allotted', 'lapsed', 'paid', 'locked', 'unlocked'] as const;
export type IeoPhase = (typeof IEO_PHASES)[number];
export const IPO_STATUS_OF_PHASE: Readonly<Record<IeoPhase, 1 | 2 | 3 | 4 | 5 | 6>> = {
  subscribed: 1,
  failed: 2,
  allotted: 3,
  lapsed: 3,
  paid: 4,
  locked: 5,
  unlocked: 6,
};

export const ieoProject = z.object({
  id: z.number().check(z.int()),
  coin: z.string(),
  name: z.string(),
  description: z.string(),
  /** Decimals of the coin. */
  scale: z.number().check(z.int(), z.gte(0)),
  pay_currency: z.literal(IEO_PAY_CURRENCY),
  ieo_price: decimalString,
  listing_price: decimalString,
  total_supply: decimalString,
  circulating_supply: decimalString,
  /** The supply offered in this IEO. */
  supply: decimalString,
  user_cap: decimalString,
  /** Everything subscribed so far (each ask capped), and the share of the supply it is. */
  subscribed: decimalString,
  state: z.enum(IEO_PROJECT_STATES),
  starts_at: z.number().check(z.int()),
  ends_at: z.number().check(z.int()),
  allot_at: z.number().check(z.int()),
  pay_until: z.number().check(z.int()),
  list_at: z.number().check(z.int()),
  unlock_at: z.number().check(z.int()),
  allotted_at: z.nullable(z.number().check(z.int())),
  listed_at: z.nullable(z.number().check(z.int())),
  unlocked_at: z.nullable(z.number().check(z.int())),
});
export type IeoProject = z.infer<typeof ieoProject>;

/** SPEC 3 "IEO order": one user's subscription with the project's facts it shows. */
export const ieoOrder = z.object({
  id: z.number().check(z.int()),
  /** SPEC 3 `sn`: the order number shown to the user and support. */
  sn: z.string(),
  project_id: z.number().check(z.int()),
  coin: z.string(),
  name: z.string(),
  description: z.string(),
  scale: z.number().check(z.int(), z.gte(0)),
  listing_price: decimalString,
  ieo_price: decimalString,
  total_supply: decimalString,
  circulating_supply: decimalString,
  /** Asked (capped at the user cap when subscribing). */
  quantity: decimalString,
  allotment_quantity: z.nullable(decimalString),
  /** Asked but not allotted (SPEC 3 `pending_quantity`), once the allotment ran. */
  pending_quantity: z.nullable(decimalString),
  /** What the allotment costs, and what was paid (SPEC 3 `success_pay`). */
  payment: z.nullable(decimalString),
  success_pay: z.nullable(decimalString),
  ipo_status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)]),
  phase: z.enum(IEO_PHASES),
  apply_time: z.number().check(z.int()),
  allotment_date: z.number().check(z.int()),
  pay_date: z.number().check(z.int()),
  listing_date: z.number().check(z.int()),
  lock_date: z.number().check(z.int()),
  paid_at: z.nullable(z.number().check(z.int())),
  request_id: z.string(),
});
export type IeoOrder = z.infer<typeof ieoOrder>;

export const ieoListRequest = z.object({ limit: listLimitField, before_id: beforeIdField });
export const ieoListResponse = z.object({
  projects: z.array(ieoProject),
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type IeoProjectPage = z.infer<typeof ieoListResponse>;

export const ieoIdRequest = z.object({ id: recordIdField });

/** ieo/detail: a project, and the caller's subscription to it when signed in and subscribed. */
export const ieoDetailResponse = z.object({ project: ieoProject, order: z.nullable(ieoOrder) });
export type IeoDetail = z.infer<typeof ieoDetailResponse>;

/**
 * ieo/apply: subscribe `quantity` coins to an open project, once per project. Checked in this order: quantity given
 * (`ieoQuantityRequired`), a plain decimal (`amountInvalid`); the server then checks the project
 * (`ieoProjectNotFound`), its window (`ieoNotSubscribing`), the coin's decimals (`amountTooPrecise`), the cap
 * (`ieoAboveCap`) and one subscription per user (`ieoAlreadySubscribed`).
 */
export const ieoApplyRequest = z.object({
  project_id: recordIdField,
  quantity: z
    .string({ error: 'ieoQuantityRequired' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'ieoQuantityRequired' }),
      z.maxLength(40, { error: 'amountInvalid' }),
      z.regex(/^\d+(\.\d+)?$/, { error: 'amountInvalid' }),
    ),
  request_id: tradeRequestIdField,
});
export type IeoApplyRequest = z.input<typeof ieoApplyRequest>;

export const ieoMyApplyRequest = z.object({ limit: listLimitField, before_id: beforeIdField });
export const ieoMyApplyResponse = z.object({
  orders: z.array(ieoOrder),
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type IeoOrderPage = z.infer<typeof ieoMyApplyResponse>;

/** The user event recorded with every change of a subscription (it feeds the `ieo` private topic). */
export const IEO_ORDER_EVENT = 'ieo_order' as const;
export const IEO_TOPIC = 'ieo' as const;
export const ieoTopicMessage = z.union([
  z.object({ kind: z.literal('snapshot'), orders: z.array(ieoOrder) }),
  z.object({ kind: z.literal('order'), order: ieoOrder }),
]);
export type IeoTopicMessage = z.infer<typeof ieoTopicMessage>;

export const ieoCalls = {
  'ieo/list': call('POST', false, ieoListRequest, ieoListResponse),
  'ieo/detail': call('GET', false, ieoIdRequest, ieoDetailResponse),
  'ieo/apply': call('POST', true, ieoApplyRequest, ieoOrder),
  'ieo/myApply': call('POST', true, ieoMyApplyRequest, ieoMyApplyResponse),
  'ieo/order': call('GET', true, ieoIdRequest, ieoOrder),
  'ieo/pay': call('POST', true, ieoIdRequest, ieoOrder),
} as const;
