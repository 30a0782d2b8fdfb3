import { z } from 'zod/mini';
import { call } from './call-spec';
import { decimalString, SYMBOL_RE, signedDecimalString } from './market';

/** What a ledger entry records (the `kind` of history rows): the ledger writes these, the client names them. */
export const ENTRY_KINDS = [
  'transfer',
  'deposit',
  'withdrawal',
  'fee',
  'penalty',
  'adjustment',
  'settlement',
  'trade',
  'simulator_grant',
  'simulator_reset',
  /** A finance order's daily interest (RULES "Finance"). */
  'interest',
  /** IEO coins credited at listing (RULES "IEO"). */
  'ieo',
  /** A referral rebate: part of an invitee's trading fee, from the fee account (RULES "Referral and partners"). */
  'rebate',
  'hold_place',
  'hold_post',
  'hold_void',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/**
 * Assets and transfers (SPEC 2 assets pages, SPEC 3 account types, SPEC 7 wallet calls). Balances come from the
 * server's double-entry ledger; every amount is an exact decimal string with all of its currency's decimals, and
 * every valuation says which price it used (DESIGN "Money, prices and time").
 */

/** SPEC 3: the four account types every user holds per currency (the ledger's user account types). */
export const ACCOUNT_TYPES = ['coin', 'option', 'contract', 'trust'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const isAccountType = (v: string): v is AccountType => (ACCOUNT_TYPES as readonly string[]).includes(v);

/** What valuations are quoted in; it is worth 1 by definition. */
export const VALUATION_CURRENCY = 'USDT' as const;

/** The same rule as the ledger: 1 to 64 printable ASCII characters, generated once per form submission. */
export const REQUEST_ID_RE = /^[\x21-\x7e]{1,64}$/;

export const accountTypeField = z.enum(ACCOUNT_TYPES, { error: 'accountTypeInvalid' });

/** A currency symbol as the user picked it; whether the ledger keeps it is the server's check (currencyUnsupported). */
export const currencyField = z
  .string({ error: 'currencyUnsupported' })
  .check(z.trim(), z.toUpperCase(), z.regex(SYMBOL_RE, { error: 'currencyUnsupported' }));

/** The typed amount as text; its exact checks need the currency's decimals (`amountProblem`, and the server). */
export const amountField = z
  .string({ error: 'amountRequired' })
  .check(z.trim(), z.minLength(1, { error: 'amountRequired' }), z.maxLength(64, { error: 'amountInvalid' }));

/**
 * A transfer's client id: at most 48 characters, because the server files it as `transfer:<id>` in the ledger (64),
 * apart from the ids the server gives its own postings (`deposit:7`, `finance-interest:12:3`), which a client
 * must never be able to claim first.
 */
export const requestIdField = z
  .string({ error: 'requestIdInvalid' })
  .check(z.regex(/^[\x21-\x7e]{1,48}$/, { error: 'requestIdInvalid' }));

export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;

const pageLimitField = z.optional(
  z.pipe(
    z.pipe(
      z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,4}$/, { error: 'invalidInput' })),
      z.transform(Number),
    ),
    z.number().check(z.int(), z.gte(1, { error: 'invalidInput' }), z.lte(MAX_PAGE, { error: 'invalidInput' })),
  ),
);

/** Cursor paging: the `next_before_id` of the previous page (stable while new rows arrive at the top). */
const beforeIdField = z.optional(
  z.pipe(
    z.string({ error: 'invalidInput' }).check(z.regex(/^[1-9]\d{0,15}$/, { error: 'invalidInput' })),
    z.transform(Number),
  ),
);

/**
 * Why a typed amount cannot be sent, with the ledger's rules (server/ledger/amounts.ts parseAmount): plain dot
 * decimals only, at most `scale` decimals (trailing zeros are fine), more than zero, at most 10^15 minor units.
 * Null when it is fine. Works on the digits as text; no float ever sees the value. The client mirrors the server
 * with it; the server's own parse stays the authority.
 */
export function amountProblem(
  text: string,
  scale: number,
): 'amountRequired' | 'amountInvalid' | 'amountNotPositive' | 'amountTooPrecise' | 'amountTooLarge' | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'amountRequired';
  if (/^-\d*\.?\d/.test(trimmed)) return 'amountNotPositive';
  const match = /^(\d*)(?:\.(\d*))?$/.exec(trimmed);
  const rawWhole = match?.[1] ?? '';
  const rawFraction = match?.[2] ?? '';
  if (!match || (rawWhole === '' && rawFraction === '')) return 'amountInvalid';
  const whole = rawWhole.replace(/^0+/, '');
  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > scale) return 'amountTooPrecise';
  if (whole.length + scale > 16) return 'amountTooLarge';
  const units = BigInt(`${whole}${fraction.padEnd(scale, '0')}` || '0');
  if (units === 0n) return 'amountNotPositive';
  if (units > 1_000_000_000_000_000n) return 'amountTooLarge';
  return null;
}

/** Where a price came from: USDT itself (1 by definition), the feed's last trade price, or none (valued 0). */
export const priceSource = z.enum(['fixed', 'last', 'none']);
export type PriceSource = z.infer<typeof priceSource>;

/** One currency in one account type. `total` = `available` + `frozen` (frozen: held for pending requests). */
export const balanceRow = z.object({
  currency: z.string(),
  /** Decimals of the currency in the ledger (8 for coins, 6 for USDT and USDC). */
  scale: z.number().check(z.int(), z.gte(0)),
  available: decimalString,
  frozen: decimalString,
  total: decimalString,
  /** Price of one unit in USDT, and the server time of that price; null without a quote. */
  price: z.nullable(decimalString),
  price_ts: z.nullable(z.number().check(z.int())),
  price_source: priceSource,
  /** total × price, exact, in USDT; '0' when unpriced. */
  valuation: decimalString,
  /**
   * What may be transferred out of this account now: `available`, except that in the contract account the money
   * backing its cross positions stays (RULES "Cross margin"), judged at the current marks.
   */
  transferable: decimalString,
});
export type BalanceRow = z.infer<typeof balanceRow>;

export const accountSummary = z.object({
  type: z.enum(ACCOUNT_TYPES),
  valuation: decimalString,
  /** Some currency with a balance has no price (its valuation counts as 0). */
  unpriced: z.boolean(),
  rows: z.array(balanceRow),
});
export type AccountSummary = z.infer<typeof accountSummary>;

/** Which prices a valuation used: always the last trade price, quoted in USDT; `priced_at` the newest quote's time. */
export const priceBasis = z.object({
  kind: z.literal('last'),
  quote: z.literal(VALUATION_CURRENCY),
  priced_at: z.nullable(z.number().check(z.int())),
});

/** wallet/list: every account type (or the one asked for) with all ledger currencies, valued in USDT. */
export const walletListRequest = z.object({ type: z.optional(accountTypeField) });
export const walletListResponse = z.object({
  basis: priceBasis,
  valuation: decimalString,
  unpriced: z.boolean(),
  accounts: z.array(accountSummary),
});
export type WalletList = z.infer<typeof walletListResponse>;

/** One signed change of one of the user's accounts (a ledger posting). */
export const ledgerLine = z.object({
  id: z.number().check(z.int()),
  entry_id: z.number().check(z.int()),
  /** What the entry records: transfer, deposit, withdrawal, fee, penalty, settlement, ... */
  kind: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  currency: z.string(),
  amount: signedDecimalString,
  created_at: z.number().check(z.int()),
});
export type LedgerLine = z.infer<typeof ledgerLine>;

/** wallet/detail: one currency across the account types, its price, and its latest changes. */
export const walletDetailRequest = z.object({ currency: currencyField, type: z.optional(accountTypeField) });
export const walletDetailResponse = z.object({
  currency: z.string(),
  scale: z.number().check(z.int(), z.gte(0)),
  basis: priceBasis,
  price: z.nullable(decimalString),
  price_source: priceSource,
  total: decimalString,
  valuation: decimalString,
  accounts: z.array(
    z.object({
      type: z.enum(ACCOUNT_TYPES),
      available: decimalString,
      frozen: decimalString,
      total: decimalString,
      valuation: decimalString,
    }),
  ),
  history: z.array(ledgerLine),
});
export type WalletDetail = z.infer<typeof walletDetailResponse>;

/** wallet/legal_log: the user's ledger history, newest first. */
export const legalLogRequest = z.object({
  limit: pageLimitField,
  before_id: beforeIdField,
  type: z.optional(accountTypeField),
  currency: z.optional(currencyField),
});
export const legalLogResponse = z.object({
  items: z.array(ledgerLine),
  /** Pass as `before_id` for the next page; null when this page was the last. */
  next_before_id: z.nullable(z.number().check(z.int())),
});

/**
 * wallet/change: moves `amount` of `currency` between two of the user's account types. `request_id` is made once per
 * submission and sent again on a retry, so a repeated request applies once.
 */
export const transferRequest = z
  .object({
    currency: currencyField,
    from: accountTypeField,
    to: accountTypeField,
    amount: amountField,
    request_id: requestIdField,
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.from === v.to) ctx.addIssue({ code: 'custom', message: 'transferSameAccount', path: ['to'] });
    }),
  );
export type TransferRequest = z.input<typeof transferRequest>;

const typeBalance = z.object({
  type: z.enum(ACCOUNT_TYPES),
  available: decimalString,
  frozen: decimalString,
  total: decimalString,
});

export const transferResponse = z.object({
  entry_id: z.number().check(z.int()),
  created_at: z.number().check(z.int()),
  /** True when this request id had been applied before: nothing moved this time. */
  replayed: z.boolean(),
  currency: z.string(),
  amount: decimalString,
  from: typeBalance,
  to: typeBalance,
});
export type TransferReceipt = z.infer<typeof transferResponse>;

/** One transfer between account types (assets/transfer/record). */
export const transferRecord = z.object({
  id: z.number().check(z.int()),
  currency: z.string(),
  amount: decimalString,
  from: z.enum(ACCOUNT_TYPES),
  to: z.enum(ACCOUNT_TYPES),
  created_at: z.number().check(z.int()),
});
export type TransferRecord = z.infer<typeof transferRecord>;

/** wallet/hzhistory: the user's transfers, newest first. */
export const transferHistoryRequest = z.object({ limit: pageLimitField, before_id: beforeIdField });
export const transferHistoryResponse = z.object({
  items: z.array(transferRecord),
  next_before_id: z.nullable(z.number().check(z.int())),
});

/** The asset and transfer calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const walletCalls = {
  'wallet/list': call('POST', true, walletListRequest, walletListResponse),
  'wallet/detail': call('POST', true, walletDetailRequest, walletDetailResponse),
  'wallet/legal_log': call('POST', true, legalLogRequest, legalLogResponse),
  'wallet/change': call('POST', true, transferRequest, transferResponse),
  'wallet/hzhistory': call('GET', true, transferHistoryRequest, transferHistoryResponse),
} as const;
