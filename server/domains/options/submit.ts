import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import { OPTION_CONTRACT_EVENT, SIMULATOR_CURRENCY, type submitOptionRequest } from '../../../protocol/options';
import { optionPeriodOf, stakeAtLeastMin, stakeUnits } from '../../../protocol/rules/options';
import { currencyScale, type Ledger } from '../../ledger';
import type { MarketFeed } from '../../market';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { sha256 } from '../../platform/security/digest';
import { answeredBefore, submitTrade } from '../../trading';
import { verificationState } from '../identity';
import { type OptionContractRow, toWire } from './contracts';
import { withOptions } from './tables';
import { readOptionSettings } from './terms';

export type SubmitOptionInput = z.output<typeof submitOptionRequest>;

export interface OptionServices {
  database: DatabaseHandle;
  ledger: Ledger;
  feed: MarketFeed | undefined;
  now: () => number;
  /** Told of every contract this process accepted, so the engine (when it leads here) watches it at once. */
  onAccepted?: (row: OptionContractRow) => void;
}

/** The ledger's request ids of a contract's money movements (unique per user: each applies once). */
export const optionLedgerIds = {
  stake: (requestId: string) => `option:${requestId}`,
  settle: (contractId: number) => `option-settle:${contractId}`,
  payout: (contractId: number) => `option-payout:${contractId}`,
};

/**
 * microtrade/submit: checks in SPEC 5's order (period, stake given and at least the minimum, balance, a verified
 * identity for the real account), then the trade lifecycle every product shares (trading/submit.ts) holds the stake
 * in the option account of the chosen book and records the contract as waiting for its entry tick, in one
 * transaction. A retry with the same request id returns the contract it bought.
 */
export async function submitOption(s: OptionServices, userId: number, input: SubmitOptionInput) {
  const { db } = s.database;
  // The digest of the arguments as sent (the currency too, before its default): a retry is answered before anything
  // that may have changed since is judged again (trading/submit.ts answeredBefore).
  const digest = sha256(
    JSON.stringify([input.symbol, input.direction, input.seconds, input.stake, input.currency ?? null, input.account]),
  );
  const byRequest = (from: Kysely<Database>) =>
    withOptions(from)
      .selectFrom('option_contracts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('request_id', '=', input.request_id)
      .executeTakeFirst();
  const earlier = await answeredBefore(s, { find: byRequest, digest });
  if (earlier) return toWire(earlier);
  const settings = await readOptionSettings(db);
  const period = optionPeriodOf(settings, input.seconds);
  if (!period) throw new BusinessError('optionPeriodUnavailable', { field: 'seconds' });
  if (!settings.symbols.includes(input.symbol)) throw new BusinessError('optionSymbolUnsupported', { field: 'symbol' });
  const currency = input.currency ?? settings.payableCurrencies[0] ?? SIMULATOR_CURRENCY;
  const practice = input.account === 'simulator';
  if (!settings.payableCurrencies.includes(currency) || (practice && currency !== SIMULATOR_CURRENCY)) {
    throw new BusinessError('optionCurrencyUnsupported', { field: 'currency' });
  }
  const scale = currencyScale(currency);
  const stake = stakeUnits(input.stake, scale);
  if (stake === null) throw new BusinessError('optionStakeInvalid', { field: 'stake' });
  if (!stakeAtLeastMin(stake, settings.minStake, scale)) {
    throw new BusinessError('optionStakeBelowMin', { field: 'stake', data: { min: settings.minStake, currency } });
  }
  if (stake > BigInt(Number.MAX_SAFE_INTEGER)) throw new BusinessError('amountTooLarge', { field: 'stake' });
  const book = practice ? 'simulator' : 'real';

  return submitTrade(s, {
    userId,
    requestId: input.request_id,
    digest,
    holdRequestId: optionLedgerIds.stake(input.request_id),
    find: byRequest,
    hold: () => ({
      book,
      type: 'option',
      currency,
      amount: stake,
      ref: `option ${input.direction} ${input.symbol} ${period.seconds}s`,
      field: 'stake',
      admit: async () => {
        if (!practice && (await verificationState(db, userId, 'basic')) !== 'verified') {
          throw new BusinessError('verificationRequired');
        }
        // Without a market feed no entry tick will come: the contract could only wait and be cancelled.
        if (!s.feed) throw new BusinessError('spotNoPrice', { field: 'symbol' });
      },
    }),
    handOver: (trx, { holdId, at }) =>
      withOptions(trx)
        .insertInto('option_contracts')
        .values({
          user_id: userId,
          book,
          symbol: input.symbol,
          direction: input.direction,
          seconds: period.seconds,
          ratio: period.ratio,
          currency,
          stake: Number(stake),
          hold_id: holdId,
          state: 'waiting',
          request_id: input.request_id,
          request_digest: digest,
          accepted_at: at,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    event: OPTION_CONTRACT_EVENT,
    toWire,
    accepted: s.onAccepted,
  });
}
