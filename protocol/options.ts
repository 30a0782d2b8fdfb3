import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { beforeIdField, listLimitField, optionalTextField, recordIdField, tradeRequestIdField } from './fields';
import { decimalString, symbolField } from './market';
import { recordedTick } from './price-record';
import {
  SIMULATOR_CURRENCY,
  SIMULATOR_FUNDS,
  type SimulatorBalance,
  simulatorBalanceResponse,
  TRADE_BOOKS,
} from './simulator';

export { SIMULATOR_CURRENCY, SIMULATOR_FUNDS, type SimulatorBalance, simulatorBalanceResponse };

import { ENTRY_TICK_WAIT_MS } from './spot';

/**
 * Options, "microtrade" in the calls (RULES.md "Options (microtrade)", SPEC 2 option pages, 3 "Option order", 4, 5
 * "Option", 7, 8). The user bets that the price of an instrument rises (up) or falls (down) over a period; the
 * stake is held at once, the entry tick starts the clock, and protocol/rules/options.ts settles the contract from
 * the price record. Every amount on the wire is an exact decimal string; messages are keys of the `errors` locale
 * namespace.
 */

export const OPTION_DIRECTIONS = ['up', 'down'] as const;
export type OptionDirection = (typeof OPTION_DIRECTIONS)[number];

/** The book a contract is bought on: real money, or the simulator's practice funds (they never cross). */
export const OPTION_ACCOUNTS = TRADE_BOOKS;
export type OptionAccount = (typeof OPTION_ACCOUNTS)[number];

/**
 * Contract states: `waiting` (accepted, stake held, waiting for its entry tick), `running` (entry tick taken,
 * counting down to expiry), then one final state: `won`, `lost`, `flat` (exit = entry, stake returned), `refunded`
 * (no tick after entry and by expiry, stake returned) or `cancelled` (no entry tick within OPTION_ENTRY_WAIT_MS,
 * stake released). The final states are the outcomes of rules/options.ts's optionResult, plus `cancelled`.
 */
export const OPTION_STATES = ['waiting', 'running', 'won', 'lost', 'flat', 'refunded', 'cancelled'] as const;
export type OptionState = (typeof OPTION_STATES)[number];
export const OPEN_OPTION_STATES = ['waiting', 'running'] as const satisfies readonly OptionState[];

/** RULES "No tick, no trade": the same wait as every product, so a contract is cancelled after it. */
export const OPTION_ENTRY_WAIT_MS = ENTRY_TICK_WAIT_MS;

/** A currency code as sent in a form ('usdt' is read as 'USDT'). */
const currencyField = z
  .string({ error: 'invalidInput' })
  .check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z0-9]{2,10}$/, { error: 'invalidInput' }));

/** microtrade/payable_currencies: the currencies a stake may be paid in (a setting). */
export const payableCurrenciesResponse = z.object({ currencies: z.array(z.string()) });
export type PayableCurrencies = z.infer<typeof payableCurrenciesResponse>;

/** One period on offer: its seconds, the payout ratio of a win (stake × (1 + ratio)) and the minimum stake. */
export const optionPeriod = z.object({
  seconds: z.number().check(z.int(), z.positive()),
  ratio: decimalString,
  min_stake: decimalString,
});
export type OptionPeriodTerms = z.infer<typeof optionPeriod>;

/** The terms for stakes in one payable currency. */
export const optionCurrencyTerms = z.object({
  currency: z.string(),
  /** Decimals of the currency in the ledger: a stake has at most this many, and a payout is rounded down to it. */
  scale: z.number().check(z.int(), z.gte(0)),
  periods: z.array(optionPeriod),
});
export type OptionCurrencyTerms = z.infer<typeof optionCurrencyTerms>;

/** microtrade/seconds: the terms in force for new contracts, for one payable currency or all of them. */
export const optionSecondsRequest = z.object({ currency: z.optional(currencyField) });
export const optionSecondsResponse = z.object({
  currencies: z.array(optionCurrencyTerms),
  /** The instruments options are offered on. */
  symbols: z.array(z.string()),
});
export type OptionSeconds = z.infer<typeof optionSecondsResponse>;

/**
 * microtrade/submit: buy a contract. SPEC 5 "Option" fixes the order of the checks, so a form shows the first
 * one that fails:
 * 1. a period picked (`optionPeriodRequired`, here) and offered (`optionPeriodUnavailable`, server);
 * 2. a stake given (`optionStakeRequired`, here), plain decimal text on the currency's step (`optionStakeInvalid`);
 * 3. the stake at least the minimum (`optionStakeBelowMin`, server, with data `optionStakeBelowMinData`);
 * 4. the balance of the chosen book covers it (`insufficientBalance`, server);
 * 5. a real-account contract needs a verified identity (`verificationRequired`, server; SPEC 8 "account not
 *    authenticated, go to authentication?"); the simulator does not (RULES "Options").
 * `currency` defaults to the first payable currency on the server. `request_id` makes a retry apply once.
 */
export const submitOptionRequest = z.pipe(
  z
    .object({
      symbol: symbolField,
      direction: z.enum(OPTION_DIRECTIONS, { error: 'invalidInput' }),
      seconds: optionalTextField(7),
      stake: optionalTextField(40),
      currency: z.optional(currencyField),
      account: z.enum(OPTION_ACCOUNTS, { error: 'invalidInput' }),
      request_id: tradeRequestIdField,
    })
    .check(
      z.superRefine((v, ctx) => {
        if (!v.seconds) ctx.addIssue({ code: 'custom', message: 'optionPeriodRequired', path: ['seconds'] });
        else if (!/^[1-9]\d{0,6}$/.test(v.seconds)) {
          ctx.addIssue({ code: 'custom', message: 'optionPeriodUnavailable', path: ['seconds'] });
        }
        if (!v.stake) ctx.addIssue({ code: 'custom', message: 'optionStakeRequired', path: ['stake'] });
        else if (!decimalString.safeParse(v.stake).success) {
          ctx.addIssue({ code: 'custom', message: 'optionStakeInvalid', path: ['stake'] });
        }
      }),
    ),
  z.transform((v) => ({ ...v, seconds: Number(v.seconds), stake: v.stake ?? '' })),
);
export type SubmitOptionRequest = z.input<typeof submitOptionRequest>;

/** `data` of the `optionStakeBelowMin` error: the minimum in force, so that the form can show it. */
export const optionStakeBelowMinData = z.object({ min: decimalString, currency: z.string() });
export type OptionStakeBelowMinData = z.infer<typeof optionStakeBelowMinData>;

/** One contract as its owner sees it, with the terms it was bought under and the ticks that decided it. */
export const optionContract = z.object({
  id: z.number().check(z.int()),
  symbol: z.string(),
  direction: z.enum(OPTION_DIRECTIONS),
  /** Period in seconds and its payout ratio, fixed at submission. */
  seconds: z.number().check(z.int(), z.positive()),
  ratio: decimalString,
  currency: z.string(),
  stake: decimalString,
  account: z.enum(OPTION_ACCOUNTS),
  state: z.enum(OPTION_STATES),
  /** The entry tick (first recorded tick after acceptance); null while waiting and when cancelled. */
  entry: z.nullable(recordedTick),
  /** E = entry tick time + period, server ms (the countdown's end); null until the entry tick. */
  expiry_ts: z.nullable(z.number().check(z.int())),
  /** The last tick after entry and at or before E; null until settled, and when refunded or cancelled. */
  exit: z.nullable(recordedTick),
  /** What the settlement paid back (won: stake × (1 + ratio) rounded down; flat, refunded, cancelled: the stake;
   * lost: '0'); null while open. */
  payout: z.nullable(decimalString),
  request_id: z.string(),
  created_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
  settled_at: z.nullable(z.number().check(z.int())),
});
export type OptionContract = z.infer<typeof optionContract>;

/** microtrade/lists: open contracts (waiting, running) or settled ones, of one book, newest first. */
export const OPTION_LISTS = ['open', 'settled'] as const;
export type OptionList = (typeof OPTION_LISTS)[number];
export const listOptionsRequest = z.object({
  list: z.enum(OPTION_LISTS, { error: 'invalidInput' }),
  account: z._default(z.optional(z.enum(OPTION_ACCOUNTS, { error: 'invalidInput' })), 'real'),
  limit: listLimitField,
  before_id: beforeIdField,
});
export type ListOptionsRequest = z.input<typeof listOptionsRequest>;
export const listOptionsResponse = z.object({
  contracts: z.array(optionContract),
  /** Cursor of the next page (older contracts), null at the end. */
  next_before_id: z.nullable(z.number().check(z.int())),
});
export type OptionContractPage = z.infer<typeof listOptionsResponse>;

/** microtrade/info (an addition, for option/info): one contract of the caller (`orderNotFound` otherwise). */
export const optionInfoRequest = z.object({ id: recordIdField });

/** The private `options` topic: a snapshot of the open contracts (both books), then each changed contract. */
export const OPTIONS_TOPIC = 'options' as const;
/** The user event kind recorded with every change of a contract (it feeds the topic). */
export const OPTION_CONTRACT_EVENT = 'option_contract' as const;
export const optionsTopicMessage = z.union([
  z.object({ kind: z.literal('snapshot'), contracts: z.array(optionContract) }),
  z.object({ kind: z.literal('contract'), contract: optionContract }),
]);
export type OptionsTopicMessage = z.infer<typeof optionsTopicMessage>;

export const optionCalls = {
  'microtrade/payable_currencies': call('GET', false, none, payableCurrenciesResponse),
  'microtrade/seconds': call('GET', false, optionSecondsRequest, optionSecondsResponse),
  'microtrade/submit': call('POST', true, submitOptionRequest, optionContract),
  'microtrade/lists': call('GET', true, listOptionsRequest, listOptionsResponse),
  'microtrade/info': call('GET', true, optionInfoRequest, optionContract),
  'microtrade/simulator': call('GET', true, none, simulatorBalanceResponse),
  'microtrade/simulator/reset': call('POST', true, none, simulatorBalanceResponse),
} as const;
