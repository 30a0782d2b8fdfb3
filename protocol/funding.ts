import { z } from 'zod/mini';
import {
  DEPOSIT_EVENT,
  FUNDING_STATES,
  type FundingEventData,
  type FundingState,
  fundingEventData,
  fundingState,
  WITHDRAWAL_EVENT,
} from './account-events';
import { call, none } from './call-spec';
import { CHAIN_COINS, CHAINS, type Chain, chainField, coinField, isChainOf } from './chain-coins';
import { fundPasswordField, recordIdField } from './fields';
import { decimalString } from './market';
import { uploadIdField } from './uploads';
import { amountField } from './wallet';

/**
 * Deposits and withdrawals (SPEC 3 "Deposit", "Withdraw"; 4 "Deposit/withdraw records"; 5 "Deposit", "Withdraw";
 * 9 "Withdrawals"). Every amount on the wire is an exact decimal string with all of its coin's decimals.
 * Messages are keys of the `errors` locale namespace.
 */

export {
  DEPOSIT_EVENT,
  FUNDING_STATES,
  type FundingEventData,
  type FundingState,
  fundingEventData,
  fundingState,
  WITHDRAWAL_EVENT,
};

/** SPEC 9: at most this many withdrawal requests in any 24 hours (rolling, not per calendar day). */
export const WITHDRAWALS_PER_DAY = 3;
export const WITHDRAWAL_WINDOW_MS = 24 * 3_600_000;
export const REMARK_MAX = 100;

/**
 * A client request id made once per form submission and sent again on a retry. Shorter than the ledger's 64
 * because the server prefixes it for the ledger (`wd:<id>`).
 */
export const FUNDING_REQUEST_ID_RE = /^[\x21-\x7e]{1,56}$/;
export const fundingRequestIdField = z
  .string({ error: 'requestIdInvalid' })
  .check(z.regex(FUNDING_REQUEST_ID_RE, { error: 'requestIdInvalid' }));

/** A transaction hash as the chain shows it: ERC20 `0x` + 64 hex digits; OMNI (Bitcoin) a 64-hex-digit txid. */
const HASH_RE: Readonly<Record<Chain, RegExp>> = {
  ERC20: /^0x[0-9a-fA-F]{64}$/,
  OMNI: /^[0-9a-fA-F]{64}$/,
};
export const isHashOnChain = (chain: Chain, hash: string): boolean => HASH_RE[chain].test(hash.trim());
/** One spelling per hash (hex is case-insensitive), so the same transaction typed twice is found. */
export const canonicalHash = (hash: string): string => hash.trim().toLowerCase();

/** SPEC 5 "Amount ... must be an integer": plain digits, no sign or decimals. */
export const isWholeAmount = (text: string): boolean => /^\d+$/.test(text.trim());

export const DEPOSIT_METHODS = ['crypto', 'bank'] as const;
export type DepositMethod = (typeof DEPOSIT_METHODS)[number];
/** Bank transfers are credited in this coin. */
export const BANK_DEPOSIT_COIN = 'USDT' as const;

const coinInfo = z.object({
  coin: z.enum(CHAIN_COINS),
  /** SPEC 3 base coin id. */
  id: z.number().check(z.int()),
  chains: z.array(z.enum(CHAINS)),
  /** Decimals of the coin in the ledger. */
  scale: z.number().check(z.int()),
});

/** wallet/deposit_currency: the coins one can deposit, their chains and minimum (a whole amount). */
export const depositCurrencyResponse = z.object({
  coins: z.array(z.extend(coinInfo, { min_deposit: decimalString })),
  /**
   * Bank transfers (credited in BANK_DEPOSIT_COIN): the platform's bank details to send the money to, null when
   * none are configured (then SPEC 8's "not configured; contact support").
   */
  bank: z.object({ coin: z.literal(BANK_DEPOSIT_COIN), min_deposit: decimalString, details: z.nullable(z.string()) }),
});
export type DepositCurrencies = z.infer<typeof depositCurrencyResponse>;

/** wallet/withdrawal_currency: the coins one can withdraw, their chains, minimum and fee. */
export const withdrawalCurrencyResponse = z.array(
  z.extend(coinInfo, { min_withdraw: decimalString, withdraw_fee: decimalString }),
);

const checkCoinChain = (v: { coin: (typeof CHAIN_COINS)[number]; chain: Chain }, ctx: z.core.$RefinementCtx) => {
  if (!isChainOf(v.coin, v.chain)) ctx.addIssue({ code: 'custom', message: 'chainInvalid', path: ['chain'] });
};

/** wallet/deposit_address: the platform's address for a coin and chain (SPEC 8 message when none is set). */
export const depositAddressRequest = z
  .object({ coin: coinField, chain: chainField })
  .check(z.superRefine(checkCoinChain));
export const depositAddressResponse = z.object({
  coin: z.enum(CHAIN_COINS),
  chain: z.enum(CHAINS),
  address: z.string(),
  min_deposit: decimalString,
});
export type DepositAddress = z.infer<typeof depositAddressResponse>;

const hashField = z.string({ error: 'depositHashRequired' }).check(
  z.trim(),
  z.minLength(1, { error: 'depositHashRequired' }),
  z.maxLength(100, {
    error: 'depositHashInvalid',
  }),
);

/**
 * wallet/check_address: SPEC 7 names it without detail; here it checks a deposit's transaction hash for a chain
 * without submitting (the charge form's live hint): well formed, and not already used by a deposit.
 */
export const checkHashRequest = z
  .object({ coin: coinField, chain: chainField, hash: hashField })
  .check(z.superRefine(checkCoinChain));
export const checkHashResponse = z.object({ valid: z.boolean(), used: z.boolean() });

/** An optional form field: absent or blank means not given. */
const optional = <T extends z.ZodMiniType<unknown, string>>(schema: T) =>
  z.pipe(
    z.pipe(
      z.optional(z.string()),
      z.transform((v) => (v === undefined || v.trim() === '' ? undefined : v)),
    ),
    z.optional(schema),
  );

/**
 * wallet/charge_req: a deposit to be reviewed. Crypto: coin, chain, the transaction hash, a whole amount at or above
 * the coin's minimum, a proof image. Bank (`method=bank`, an addition to SPEC 7's call): one of the user's bank cards
 * the money was sent from, a whole USDT amount, a proof image. `request_id` makes a retry apply once.
 */
export const chargeRequest = z
  .object({
    method: z._default(z.optional(z.enum(DEPOSIT_METHODS, { error: 'depositMethodInvalid' })), 'crypto'),
    coin: optional(coinField),
    chain: optional(chainField),
    hash: optional(hashField),
    bank_card_id: optional(recordIdField),
    amount: amountField,
    proof: uploadIdField('depositProofRequired'),
    request_id: fundingRequestIdField,
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.method === 'bank') {
        if (v.bank_card_id === undefined) {
          ctx.addIssue({ code: 'custom', message: 'depositBankCardRequired', path: ['bank_card_id'] });
        }
        return;
      }
      if (!v.coin) ctx.addIssue({ code: 'custom', message: 'coinInvalid', path: ['coin'] });
      else if (!v.chain || !isChainOf(v.coin, v.chain)) {
        ctx.addIssue({ code: 'custom', message: 'chainInvalid', path: ['chain'] });
      } else if (!v.hash) ctx.addIssue({ code: 'custom', message: 'depositHashRequired', path: ['hash'] });
      else if (!isHashOnChain(v.chain, v.hash)) {
        ctx.addIssue({ code: 'custom', message: 'depositHashInvalid', path: ['hash'] });
      }
    }),
  );
export type ChargeRequest = z.input<typeof chargeRequest>;

/** One deposit as its owner sees it (charge_mention/log2). */
export const depositRecord = z.object({
  id: z.number().check(z.int()),
  method: z.enum(DEPOSIT_METHODS),
  coin: z.string(),
  chain: z.nullable(z.enum(CHAINS)),
  /** The platform address the deposit was sent to (crypto). */
  address: z.nullable(z.string()),
  hash: z.nullable(z.string()),
  /** Last four digits of the bank card (bank). */
  card_last4: z.nullable(z.string()),
  amount: decimalString,
  state: fundingState,
  reason: z.nullable(z.string()),
  created_at: z.number().check(z.int()),
  reviewed_at: z.nullable(z.number().check(z.int())),
});
export type DepositRecord = z.infer<typeof depositRecord>;
export const chargeResponse = z.extend(depositRecord, { replayed: z.boolean() });

/** wallet/get_info: what the withdraw form needs for a coin; the prerequisites of SPEC 6. */
export const withdrawInfoRequest = z.object({ coin: coinField });
export const withdrawInfoResponse = z.object({
  coin: z.enum(CHAIN_COINS),
  chains: z.array(z.enum(CHAINS)),
  scale: z.number().check(z.int()),
  min_withdraw: decimalString,
  withdraw_fee: decimalString,
  /** The coin account's available balance. */
  available: decimalString,
  /** Requests left in the rolling 24 hours. */
  requests_left: z.number().check(z.int()),
  requests_per_day: z.number().check(z.int()),
  has_address: z.boolean(),
  has_fund_password: z.boolean(),
  verified: z.boolean(),
});
export type WithdrawInfo = z.infer<typeof withdrawInfoResponse>;

/**
 * wallet/out: coin, chain, one of the user's saved addresses, the amount (at or above the minimum), the fund
 * password, an optional remark. Amount plus fee is frozen until an operator decides.
 */
export const withdrawRequest = z
  .object({
    coin: coinField,
    chain: chainField,
    address_id: z.pipe(
      z.pipe(
        z.optional(z.string()),
        z.transform((v) => (v === undefined || v.trim() === '' ? undefined : v)),
      ),
      z.optional(recordIdField),
    ),
    amount: amountField,
    fund_password: fundPasswordField,
    remark: z.pipe(
      z.optional(z.string().check(z.trim(), z.maxLength(REMARK_MAX, { error: 'tooLong' }))),
      z.transform((v) => (v ? v : null)),
    ),
    request_id: fundingRequestIdField,
  })
  .check(z.superRefine(checkCoinChain));
export type WithdrawRequest = z.input<typeof withdrawRequest>;

/** One withdrawal as its owner sees it (charge_mention/log3, wallet/out). */
export const withdrawalRecord = z.object({
  id: z.number().check(z.int()),
  coin: z.string(),
  chain: z.enum(CHAINS),
  address: z.string(),
  amount: decimalString,
  fee: decimalString,
  /** amount + fee: what is frozen while pending and taken when passed. */
  total: decimalString,
  remark: z.nullable(z.string()),
  state: fundingState,
  reason: z.nullable(z.string()),
  created_at: z.number().check(z.int()),
  reviewed_at: z.nullable(z.number().check(z.int())),
});
export type WithdrawalRecord = z.infer<typeof withdrawalRecord>;
export const withdrawResponse = z.extend(withdrawalRecord, { replayed: z.boolean() });

const pageLimit = z.optional(
  z.pipe(
    z.pipe(
      z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,3}$/, { error: 'invalidInput' })),
      z.transform(Number),
    ),
    z.number().check(z.int(), z.gte(1, { error: 'invalidInput' }), z.lte(100, { error: 'invalidInput' })),
  ),
);

/** charge_mention/log2 and log3: the user's own records, newest first; `id` for one record; `state` to filter. */
export const fundingLogRequest = z.object({
  limit: pageLimit,
  before_id: z.optional(recordIdField),
  id: z.optional(recordIdField),
  state: z.optional(fundingState),
});
export const depositLogResponse = z.object({
  items: z.array(depositRecord),
  next_before_id: z.nullable(z.number().check(z.int())),
});
export const withdrawalLogResponse = z.object({
  items: z.array(withdrawalRecord),
  next_before_id: z.nullable(z.number().check(z.int())),
});

/** The deposit and withdrawal calls (its domain names them in its contract; server/domains/compose.ts joins every table). */
export const fundingCalls = {
  'wallet/deposit_currency': call('POST', true, none, depositCurrencyResponse),
  'wallet/deposit_address': call('POST', true, depositAddressRequest, depositAddressResponse),
  'wallet/check_address': call('POST', true, checkHashRequest, checkHashResponse),
  'wallet/charge_req': call('POST', true, chargeRequest, chargeResponse),
  'wallet/withdrawal_currency': call('POST', true, none, withdrawalCurrencyResponse),
  'wallet/get_info': call('POST', true, withdrawInfoRequest, withdrawInfoResponse),
  'wallet/out': call('POST', true, withdrawRequest, withdrawResponse),
  'charge_mention/log2': call('GET', true, fundingLogRequest, depositLogResponse),
  'charge_mention/log3': call('GET', true, fundingLogRequest, withdrawalLogResponse),
} as const;
