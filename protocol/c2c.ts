import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { beforeIdField, listLimitField, optionalTextField, recordIdField, tradeRequestIdField } from './fields';
import { decimalString } from './market';

/**
 * C2C: buying coins from merchants (RULES.md "C2C", SPEC 2 assets/c2c pages, 3 "C2C order", 4 "C2C order status",
 * 6 merchants, 7 ctc/*, 9 the 30-minute window). A merchant (a user the operator marks as one) publishes ads; a
 * buyer's order holds the merchant's coins in escrow at once; the buyer pays outside the app within the window and
 * marks the order paid; the merchant releases the coins, or either side appeals and an operator decides. Amounts are
 * exact decimal strings: coin quantities at the coin's ledger scale, fiat in cents (2 decimals).
 */

/** SPEC 9: the buyer has this long, on server time, to pay and mark the order paid. */
export const C2C_PAY_WINDOW_MS = 30 * 60_000;
/** Fiat amounts have two decimals. */
export const C2C_FIAT_SCALE = 2;
/** The fiat currencies an ad may be priced in. */
export const C2C_FIATS = ['EUR', 'USD', 'GBP', 'CHF'] as const;
export type C2cFiat = (typeof C2C_FIATS)[number];
/** The payment methods an ad may offer (paid outside the app). */
export const C2C_PAY_TYPES = ['bank', 'sepa', 'paypal', 'revolut', 'wise'] as const;
export type C2cPayType = (typeof C2C_PAY_TYPES)[number];

/**
 * SPEC 4: 1 paying, 2 paid, 5 cancelled; SPEC leaves 3 and 4 blank, RULES.md gives them: 3 completed (the merchant
 * released the coins, or an operator decided for the buyer) and 4 appeal (open, waiting for an operator).
 */
export const C2C_STATUSES = [1, 2, 3, 4, 5] as const;
export type C2cStatus = (typeof C2C_STATUSES)[number];
export const C2C_STATUS = { paying: 1, paid: 2, completed: 3, appeal: 4, cancelled: 5 } as const;
/** Why an order was cancelled. */
export const C2C_CANCEL_REASONS = ['buyer', 'expired', 'appeal'] as const;

/** One payment method of an ad with the details the buyer pays to (account holder, IBAN, e-mail, ...). */
export const c2cPayMethod = z.object({
  type: z.enum(C2C_PAY_TYPES),
  /** Who receives the payment. */
  name: z.string(),
  /** Account number, IBAN, e-mail or handle, depending on the type. */
  account: z.string(),
  /** Bank name or a note; may be empty. */
  note: z.string(),
});
export type C2cPayMethod = z.infer<typeof c2cPayMethod>;

/** A merchant's ad (SPEC 7 ctc/product/*): what the buyer sees before ordering. Payment details are not in it. */
export const c2cAd = z.object({
  id: z.number().check(z.int()),
  merchant_id: z.number().check(z.int()),
  /** The merchant's public nickname (SPEC 3 "merchant nickname"). */
  merchant_nickname: z.string(),
  coin: z.string(),
  /** Decimals of the coin's quantity. */
  scale: z.number().check(z.int(), z.gte(0)),
  fiat: z.enum(C2C_FIATS),
  /** Price of one coin in the fiat currency. */
  price: decimalString,
  /** Order limits in the fiat currency (SPEC 3 "limit"). */
  min_fiat: decimalString,
  max_fiat: decimalString,
  /** Coins still offered: the ad's amount less open and completed orders. */
  available: decimalString,
  /** Coins sold through completed orders (SPEC 3 "deal volume"). */
  deal_volume: decimalString,
  pay_types: z.array(z.enum(C2C_PAY_TYPES)),
  /** `open` shows in the list; `closed` by the merchant (open orders still finish). */
  state: z.enum(['open', 'closed']),
  created_at: z.number().check(z.int()),
});
export type C2cAd = z.infer<typeof c2cAd>;

/** SPEC 3 "C2C order": one order as its buyer or its merchant sees it. */
export const c2cOrder = z.object({
  id: z.number().check(z.int()),
  /** SPEC 3 order number, shown to both sides and support. */
  sn: z.string(),
  ad_id: z.number().check(z.int()),
  /** The viewer's side of this order. */
  role: z.enum(['buyer', 'merchant']),
  merchant_nickname: z.string(),
  buyer_nickname: z.string(),
  coin: z.string(),
  scale: z.number().check(z.int(), z.gte(0)),
  fiat: z.enum(C2C_FIATS),
  price: decimalString,
  /** Coins bought (SPEC 3 "quantity"), held in escrow from the merchant's coin account while the order runs. */
  quantity: decimalString,
  /** Fiat to pay: quantity × price rounded up to the cent (protocol/rules/c2c.ts; SPEC 3 "amount"). */
  amount: decimalString,
  min_fiat: decimalString,
  max_fiat: decimalString,
  /** The payment method the buyer chose (SPEC 3 "pay type") and its details (SPEC 3 "pay info"). */
  pay_type: z.enum(C2C_PAY_TYPES),
  pay_info: c2cPayMethod,
  status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
  created_at: z.number().check(z.int()),
  /** The end of the payment window: created_at + C2C_PAY_WINDOW_MS (server time). */
  pay_until: z.number().check(z.int()),
  paid_at: z.nullable(z.number().check(z.int())),
  completed_at: z.nullable(z.number().check(z.int())),
  cancelled_at: z.nullable(z.number().check(z.int())),
  cancel_reason: z.nullable(z.enum(C2C_CANCEL_REASONS)),
  /** An appeal: who opened it, why, and how an operator decided it (with the operator's reason). */
  appeal: z.nullable(
    z.object({
      by: z.enum(['buyer', 'merchant']),
      reason: z.string(),
      opened_at: z.number().check(z.int()),
      decision: z.nullable(z.enum(['release', 'cancel'])),
      decision_reason: z.nullable(z.string()),
      decided_at: z.nullable(z.number().check(z.int())),
    }),
  ),
  /** The order's chat (the chat module's conversation id). */
  conversation_id: z.nullable(z.number().check(z.int())),
  request_id: z.string(),
});
export type C2cOrder = z.infer<typeof c2cOrder>;

const coinField = z
  .string({ error: 'invalidInput' })
  .check(z.trim(), z.regex(/^[A-Z0-9]{1,12}$/, { error: 'invalidInput' }));
const amountField = (requiredKey: string) =>
  z
    .string({ error: requiredKey })
    .check(
      z.trim(),
      z.minLength(1, { error: requiredKey }),
      z.maxLength(40, { error: 'amountInvalid' }),
      z.regex(/^\d+(\.\d+)?$/, { error: 'amountInvalid' }),
    );
const reasonField = z
  .string({ error: 'c2cReasonRequired' })
  .check(z.trim(), z.minLength(1, { error: 'c2cReasonRequired' }), z.maxLength(500, { error: 'tooLong' }));

/** ctc/product/all: the coins and fiat currencies that have open ads (the filter of assets/c2c/index). */
export const c2cMarketsResponse = z.object({
  coins: z.array(z.string()),
  fiats: z.array(z.enum(C2C_FIATS)),
});
/**
 * ctc/product/list: open ads with coins left, filtered, best (lowest) price first. `next_before_id` is the last ad of
 * the page: sent back as `before_id`, the next page starts after it in the same order.
 */
export const c2cAdListRequest = z.object({
  coin: z.optional(coinField),
  fiat: z.optional(z.enum(C2C_FIATS, { error: 'invalidInput' })),
  limit: listLimitField,
  before_id: beforeIdField,
});
export const c2cAdListResponse = z.object({
  ads: z.array(c2cAd),
  next_before_id: z.nullable(z.number().check(z.int())),
});
export const c2cIdRequest = z.object({ id: recordIdField });

/**
 * ctc/order/add: buy `quantity` coins from an ad with one of its payment methods. Checked in this order: quantity
 * given (`c2cQuantityRequired`), a plain decimal (`amountInvalid`), a pay type of the list (`c2cPayTypeInvalid`); the
 * server then checks the ad (`c2cAdNotFound`: missing or closed), the buyer is not its merchant (`c2cOwnAd`), the
 * coin's decimals (`amountTooPrecise`; zero: `amountNotPositive`), the fiat amount within the limits (`c2cBelowMin`, `c2cAboveMax`), the ad
 * offers the pay type (`c2cPayTypeInvalid`), one open order per buyer and ad (`c2cOrderOpen`) and the available
 * amount (`c2cSoldOut`).
 */
export const c2cOrderAddRequest = z.object({
  ad_id: recordIdField,
  quantity: amountField('c2cQuantityRequired'),
  pay_type: z.enum(C2C_PAY_TYPES, { error: 'c2cPayTypeInvalid' }),
  request_id: tradeRequestIdField,
});
export type C2cOrderAddRequest = z.input<typeof c2cOrderAddRequest>;

/** ctc/order/list: the caller's orders as buyer, or as merchant (`side=merchant`), newest first. */
export const c2cOrderListRequest = z.object({
  side: z.optional(z.enum(['buyer', 'merchant'], { error: 'invalidInput' })),
  /** Only orders in these states ("1,2"); all when left out. */
  status: z.optional(
    z.pipe(
      z.string({ error: 'invalidInput' }).check(z.regex(/^[1-5](,[1-5]){0,4}$/, { error: 'invalidInput' })),
      z.transform((v) => v.split(',').map(Number) as C2cStatus[]),
    ),
  ),
  limit: listLimitField,
  before_id: beforeIdField,
});
export const c2cOrderListResponse = z.object({
  orders: z.array(c2cOrder),
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type C2cOrderPage = z.infer<typeof c2cOrderListResponse>;

/** ctc/order/appeal (either side, after "paid"): the reason goes to the operator. */
export const c2cAppealRequest = z.object({ id: recordIdField, reason: reasonField });

/** The merchant's own profile: whether the caller is a merchant, and the nickname buyers see. */
export const c2cMerchantResponse = z.object({
  merchant: z.boolean(),
  nickname: z.nullable(z.string()),
});

/**
 * ctc/merchant/ad/save (merchants only; `c2cNotMerchant` otherwise): publish a new ad, or change an open one of
 * their own (`id`). `pay_methods` is a JSON array of {type, name, account, note}, at least one
 * (`c2cPayMethodsRequired`; a method without name or account, or a type twice: `c2cPayMethodInvalid`), minimum not
 * above maximum (`c2cLimitOrder`). The ad's amount must be in the merchant's coin account (`insufficientBalance`): it
 * is held only order by order, so it stays the merchant's until a buyer orders. An edit keeps coin and fiat
 * (`c2cAdCoinFixed`) and cannot go below what orders already took (`c2cAmountBelowOrdered`). Prices have at most 6
 * decimals, limits 2 (protocol/rules/c2c.ts).
 */
export const c2cAdSaveRequest = z.object({
  id: z.optional(recordIdField),
  coin: coinField,
  fiat: z.enum(C2C_FIATS, { error: 'invalidInput' }),
  price: amountField('c2cPriceRequired'),
  /** The coins the ad offers in total. */
  amount: amountField('c2cAmountRequired'),
  min_fiat: amountField('c2cLimitRequired'),
  max_fiat: amountField('c2cLimitRequired'),
  pay_methods: z.string({ error: 'c2cPayMethodsRequired' }).check(z.maxLength(4000, { error: 'tooLong' })),
  note: optionalTextField(500),
});
export type C2cAdSaveRequest = z.input<typeof c2cAdSaveRequest>;
/** A merchant's own ad, with its payment details and total amount. */
export const c2cOwnAd = z.extend(c2cAd, {
  amount: decimalString,
  pay_methods: z.array(c2cPayMethod),
  note: z.string(),
});
export type C2cOwnAd = z.infer<typeof c2cOwnAd>;
export const c2cOwnAdsResponse = z.object({ ads: z.array(c2cOwnAd) });

/** set/get_otc_url: where C2C lives: the app's own pages, or an outside address the operator set. */
export const otcUrlResponse = z.object({ url: z.string(), internal: z.boolean() });

/** The user event recorded with every change of an order, for both its buyer and its merchant. */
export const C2C_ORDER_EVENT = 'c2c_order' as const;
export const C2C_TOPIC = 'c2c' as const;
/** The private `c2c` topic: the caller's open orders (either side), then every change of any of their orders. */
export const c2cTopicMessage = z.union([
  z.object({ kind: z.literal('snapshot'), orders: z.array(c2cOrder) }),
  z.object({ kind: z.literal('order'), order: c2cOrder }),
]);
export type C2cTopicMessage = z.infer<typeof c2cTopicMessage>;

export const c2cCalls = {
  'ctc/product/all': call('GET', false, none, c2cMarketsResponse),
  'ctc/product/list': call('GET', false, c2cAdListRequest, c2cAdListResponse),
  'ctc/product/info': call('GET', false, c2cIdRequest, c2cAd),
  'ctc/order/add': call('POST', true, c2cOrderAddRequest, c2cOrder),
  'ctc/order/list': call('GET', true, c2cOrderListRequest, c2cOrderListResponse),
  'ctc/order/info': call('GET', true, c2cIdRequest, c2cOrder),
  'ctc/order/cancel': call('PUT', true, c2cIdRequest, c2cOrder),
  'ctc/order/pay': call('PUT', true, c2cIdRequest, c2cOrder),
  // Additions (SPEC lists no calls for the merchant's side or the appeal; RULES.md needs them).
  'ctc/order/release': call('PUT', true, c2cIdRequest, c2cOrder),
  'ctc/order/appeal': call('PUT', true, c2cAppealRequest, c2cOrder),
  'ctc/merchant/me': call('GET', true, none, c2cMerchantResponse),
  'ctc/merchant/ads': call('GET', true, none, c2cOwnAdsResponse),
  'ctc/merchant/ad/save': call('POST', true, c2cAdSaveRequest, c2cOwnAd),
  'ctc/merchant/ad/close': call('PUT', true, c2cIdRequest, c2cOwnAd),
  'set/get_otc_url': call('POST', false, none, otcUrlResponse),
} as const;
