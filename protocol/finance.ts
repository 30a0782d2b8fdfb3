import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { beforeIdField, listLimitField, recordIdField, tickedField, tradeRequestIdField } from './fields';
import { decimalString } from './market';

/**
 * Finance products (RULES.md "Finance", SPEC 2 finance pages, 3 "Finance hosting order", 4 "Finance hosting tabs",
 * 5 "Finance buy", 7, 9). Two families share one rule: trust products (lh/deposit/*) and hosting products
 * (lh/send/*). A product pays a fixed daily rate on a principal held in the trust account for a cycle of days, from a
 * reserve the operator funds; protocol/rules/finance.ts computes interest, penalty and capacity. Amounts are exact
 * decimal strings with all of the currency's decimals; messages are keys of the `errors` locale namespace.
 */

export const FINANCE_FAMILIES = ['trust', 'hosting'] as const;
export type FinanceFamily = (typeof FINANCE_FAMILIES)[number];

/** SPEC 4 "Finance hosting tabs": running (hosting), ran its cycle (completed), redeemed early (redeemed). */
export const FINANCE_ORDER_STATES = ['hosting', 'completed', 'redeemed'] as const;
export type FinanceOrderState = (typeof FINANCE_ORDER_STATES)[number];

export const PENALTY_KINDS = ['ratio', 'interest_multiple'] as const;

/** One product on offer, with what it can still sell (the reserve covers the promised yield of every order). */
export const financeProduct = z.object({
  id: z.number().check(z.int()),
  family: z.enum(FINANCE_FAMILIES),
  /** The operator's product name (not translated). */
  name: z.string(),
  currency: z.string(),
  /** Decimals of the currency in the ledger. */
  scale: z.number().check(z.int(), z.gte(0)),
  cycle_days: z.number().check(z.int(), z.positive()),
  daily_rate: decimalString,
  /** daily_rate × 365, simple (no compounding). */
  apr: decimalString,
  min_amount: decimalString,
  max_amount: decimalString,
  penalty: z.object({ kind: z.enum(PENALTY_KINDS), value: decimalString }),
  /** The largest principal one order can have now: the max amount, or less where the reserve covers less. */
  capacity: decimalString,
  /** Nothing at or above the minimum is covered, or the operator stopped selling it. */
  sold_out: z.boolean(),
  /** Listed by lh/send/get_recommend (the operator's choice, not a return ranking). */
  recommended: z.boolean(),
});
export type FinanceProduct = z.infer<typeof financeProduct>;

/** SPEC 3 "Finance hosting order" fields, plus the times and ledger facts that let a user re-check it. */
export const financeOrder = z.object({
  id: z.number().check(z.int()),
  order_no: z.string(),
  product_id: z.number().check(z.int()),
  family: z.enum(FINANCE_FAMILIES),
  name: z.string(),
  currency: z.string(),
  scale: z.number().check(z.int(), z.gte(0)),
  /** Purchase amount: the principal held in the trust account while it runs. */
  amount: decimalString,
  daily_rate: decimalString,
  cycle_days: z.number().check(z.int(), z.positive()),
  penalty_rule: z.object({ kind: z.enum(PENALTY_KINDS), value: decimalString }),
  state: z.enum(FINANCE_ORDER_STATES),
  days_paid: z.number().check(z.int(), z.gte(0)),
  days_left: z.number().check(z.int(), z.gte(0)),
  /** One day's interest (rounded down) and the whole cycle's. */
  daily_interest: decimalString,
  expected_income: decimalString,
  /** Interest paid so far ("current income"). */
  current_income: decimalString,
  /** What redeeming now would cost (running orders); the penalty charged (redeemed); null otherwise. */
  penalty: z.nullable(decimalString),
  /** Pay time (bought), first interest day start, completion time (end of the cycle), when it ended. */
  pay_time: z.number().check(z.int()),
  interest_start: z.number().check(z.int()),
  completion_time: z.number().check(z.int()),
  next_interest_at: z.nullable(z.number().check(z.int())),
  ended_at: z.nullable(z.number().check(z.int())),
  request_id: z.string(),
});
export type FinanceOrder = z.infer<typeof financeOrder>;

/** lh/deposit/config, lh/send/config: the family's products and the default early-redemption rule. */
export const financeConfigResponse = z.object({
  products: z.array(financeProduct),
  default_penalty: z.object({ kind: z.enum(PENALTY_KINDS), value: decimalString }),
});
export type FinanceConfig = z.infer<typeof financeConfigResponse>;

export const financeProductRequest = z.object({ id: recordIdField });
/** product_info: the product, and the caller's trust account available balance in its currency. */
export const financeProductResponse = z.object({ product: financeProduct, available: decimalString });
export type FinanceProductInfo = z.infer<typeof financeProductResponse>;

/** lh/send/get_recommend: the hosting products the operator recommends (on sale only). */
export const financeRecommendResponse = z.object({ products: z.array(financeProduct) });

/**
 * lh/deposit and lh/send/order (buy), checked in this order: amount given (`financeAmountRequired`, SPEC 5), a
 * plain decimal (`amountInvalid`), agreement ticked (`financeAgreeRequired`); the server then checks the product
 * (`financeProductNotFound`, `financeSoldOut`), the currency's decimals, the minimum and maximum
 * (`financeAmountBelowMin`, `financeAmountAboveMax`), the trust balance (`insufficientBalance`) and the reserve
 * (`financeSoldOut`). A retry with the same request id returns the order it placed.
 */
export const financeBuyRequest = z.object({
  product_id: recordIdField,
  amount: z
    .string({ error: 'financeAmountRequired' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'financeAmountRequired' }),
      z.maxLength(40, { error: 'amountInvalid' }),
      z.regex(/^\d+(\.\d+)?$/, { error: 'amountInvalid' }),
    ),
  agree: tickedField('financeAgreeRequired'),
  request_id: tradeRequestIdField,
});
export type FinanceBuyRequest = z.input<typeof financeBuyRequest>;

/** lh/deposit/order, lh/send/order_list: the caller's orders of one tab, newest first. */
export const financeOrdersRequest = z.object({
  state: z._default(z.optional(z.enum(FINANCE_ORDER_STATES, { error: 'invalidInput' })), 'hosting'),
  limit: listLimitField,
  before_id: beforeIdField,
});
export type FinanceOrdersRequest = z.input<typeof financeOrdersRequest>;
export const financeOrdersResponse = z.object({
  orders: z.array(financeOrder),
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type FinanceOrderPage = z.infer<typeof financeOrdersResponse>;

/** lh/deposit/order/cancel: early redemption of a running order of either family (its penalty as shown). */
export const financeRedeemRequest = z.object({ id: recordIdField });

/** lh/deposit/report: the caller's totals per currency over both families. */
export const financeReportResponse = z.object({
  currencies: z.array(
    z.object({
      currency: z.string(),
      /** Principal of running orders. */
      principal: decimalString,
      /** Interest paid over all orders, and in the last completed UTC day. */
      income_total: decimalString,
      income_yesterday: decimalString,
      running: z.number().check(z.int(), z.gte(0)),
    }),
  ),
});
export type FinanceReport = z.infer<typeof financeReportResponse>;

/** The user event recorded with every change of an order (bought, paid a day, completed, redeemed). */
export const FINANCE_ORDER_EVENT = 'finance_order' as const;

export const financeCalls = {
  'lh/deposit/config': call('GET', false, none, financeConfigResponse),
  'lh/deposit/product_info': call('GET', true, financeProductRequest, financeProductResponse),
  'lh/deposit/report': call('GET', true, none, financeReportResponse),
  'lh/deposit/order': call('GET', true, financeOrdersRequest, financeOrdersResponse),
  'lh/deposit': call('POST', true, financeBuyRequest, financeOrder),
  'lh/deposit/order/cancel': call('POST', true, financeRedeemRequest, financeOrder),
  'lh/send/config': call('GET', false, none, financeConfigResponse),
  'lh/send/product_info': call('GET', true, financeProductRequest, financeProductResponse),
  'lh/send/order_list': call('GET', true, financeOrdersRequest, financeOrdersResponse),
  'lh/send/get_recommend': call('GET', false, none, financeRecommendResponse),
  'lh/send/order': call('POST', true, financeBuyRequest, financeOrder),
} as const;
