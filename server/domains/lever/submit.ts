import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import { LEVER_POSITION_EVENT, type submitLeverRequest } from '../../../protocol/lever';
import { initialMargin, isolatedLiquidationPrice, stopProblem, tradeFee } from '../../../protocol/rules/lever';
import { roundUnits, toUnits } from '../../../protocol/rules/spot';
import type { Ledger } from '../../ledger';
import type { MarketFeed } from '../../market';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { sha256 } from '../../platform/security/digest';
import { answeredBefore, submitTrade } from '../../trading';
import { verificationState } from '../identity';
import { type LeverPositionRow, toWire } from './positions';
import { withLever } from './tables';
import { LEVER_QUOTE, leveragesFor, readLeverSettings, termsFor } from './terms';

export type SubmitLeverInput = z.output<typeof submitLeverRequest>;

export interface LeverServices {
  database: DatabaseHandle;
  ledger: Ledger;
  feed: MarketFeed | undefined;
  now: () => number;
  /** Told of every row this process changed, so the engine (when it leads here) acts on it at once. */
  onChanged?: (row: LeverPositionRow) => void;
}

/** The ledger's request ids of a position's money movements (unique per user: each applies once). */
export const leverLedgerIds = {
  reserve: (requestId: string) => `lever:${requestId}`,
  release: (id: number) => `lever-release:${id}`,
  fee: (id: number) => `lever-fee:${id}`,
  margin: (id: number, version: number) => `lever-margin:${id}:${version}`,
  swap: (id: number, version: number) => `lever-margin-swap:${id}:${version}`,
  add: (requestId: string) => `lever-add:${requestId}`,
  releaseMargin: (id: number) => `lever-release-margin:${id}`,
  close: (id: number) => `lever-close:${id}`,
};

/**
 * A market order reserves its margin and fee at the last price plus this fraction: the entry tick may be higher (a
 * long) than the last price; at the entry the reserve is released and the exact margin held (RULES "Lever").
 */
const MARKET_RESERVE_BAND = { units: 102n, scale: 2 };

/**
 * lever/submit: the checks of protocol/lever.ts in order, then the trade lifecycle every product shares
 * (trading/submit.ts): the reserve (margin and open fee at the expected entry) held in the contract account of the
 * chosen book and the order recorded as waiting for its entry tick, in one transaction. A retry with the same request
 * id returns the order it placed.
 */
export async function submitLever(s: LeverServices, userId: number, input: SubmitLeverInput) {
  const { db } = s.database;
  // A retry is answered before anything that may have changed since is judged again (trading/submit.ts).
  const digest = sha256(
    JSON.stringify([
      input.symbol,
      input.side,
      input.type,
      input.margin_mode,
      input.lots,
      input.leverage,
      input.price ?? null,
      input.take_profit ?? null,
      input.stop_loss ?? null,
      input.account,
    ]),
  );
  const byRequest = (from: Kysely<Database>) =>
    withLever(from)
      .selectFrom('lever_positions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('request_id', '=', input.request_id)
      .executeTakeFirst();
  const earlier = await answeredBefore(s, { find: byRequest, digest });
  if (earlier) return toWire(earlier);
  const settings = await readLeverSettings(db);
  const terms = termsFor(settings, input.symbol);
  if (!terms) throw new BusinessError('leverSymbolUnsupported', { field: 'symbol' });
  const limit = input.type === 'limit' && input.price ? toUnits(input.price, terms.priceScale) : null;
  if (input.type === 'limit' && (limit === null || limit <= 0n)) {
    throw new BusinessError('leverPriceInvalid', { field: 'price' });
  }
  const stop = (text: string | undefined, field: string) => {
    if (!text) return null;
    const units = toUnits(text, terms.priceScale);
    if (units === null || units <= 0n) throw new BusinessError('leverStopPriceInvalid', { field });
    return units;
  };
  const takeProfit = stop(input.take_profit, 'take_profit');
  const stopLoss = stop(input.stop_loss, 'stop_loss');
  if (!leveragesFor(settings, input.symbol).includes(input.leverage)) {
    throw new BusinessError('leverLeverageUnavailable', { field: 'leverage' });
  }
  const practice = input.account === 'simulator';
  const book = practice ? 'simulator' : 'real';

  /** The reserve (margin and open fee at the worst expected entry), after the checks that need the current price. */
  const reserveOf = () => {
    // Without a current price there is no expected entry to check against, and no tick would come.
    const quote = s.feed?.quote(input.symbol);
    const last = quote ? toUnits(quote.last, terms.priceScale) : null;
    if (!s.feed || last === null) throw new BusinessError('spotNoPrice', { field: 'symbol' });

    const lots = BigInt(input.lots);
    const reference = limit ?? last;
    const margin = initialMargin(lots, reference, input.leverage, terms);
    if (input.margin_mode === 'isolated' || takeProfit !== null || stopLoss !== null) {
      const lp =
        input.margin_mode === 'isolated'
          ? isolatedLiquidationPrice({ side: input.side, lots, entry: reference, margin, terms })
          : null;
      const problem = stopProblem(input.side, reference, lp, takeProfit, stopLoss);
      if (problem)
        throw new BusinessError(problem, { field: problem === 'leverTakeProfitSide' ? 'take_profit' : 'stop_loss' });
    }
    // The worst expected entry: a market long may open above the last price; the reserve covers that band.
    const worst =
      limit ??
      roundUnits(
        last * MARKET_RESERVE_BAND.units,
        terms.priceScale + MARKET_RESERVE_BAND.scale,
        terms.priceScale,
        'up',
      );
    const reserve = initialMargin(lots, worst, input.leverage, terms) + tradeFee(lots, worst, terms);
    if (reserve > BigInt(Number.MAX_SAFE_INTEGER)) throw new BusinessError('amountTooLarge', { field: 'lots' });
    return reserve;
  };

  return submitTrade(s, {
    userId,
    requestId: input.request_id,
    digest,
    holdRequestId: leverLedgerIds.reserve(input.request_id),
    find: byRequest,
    hold: () => ({
      book,
      type: 'contract',
      currency: LEVER_QUOTE,
      amount: reserveOf(),
      ref: `lever ${input.side} ${input.lots} ${input.symbol}`,
      field: 'lots',
      admit: async () => {
        if (!practice && (await verificationState(db, userId, 'basic')) !== 'verified') {
          throw new BusinessError('verificationRequired');
        }
      },
    }),
    handOver: (trx, { holdId, at, plan }) =>
      withLever(trx)
        .insertInto('lever_positions')
        .values({
          user_id: userId,
          book,
          symbol: input.symbol,
          side: input.side,
          margin_mode: input.margin_mode,
          order_type: input.type,
          lots: input.lots,
          contract_size: terms.contractSize,
          leverage: input.leverage,
          mmr: terms.mmr,
          fee_rate: terms.feeRate,
          price_scale: terms.priceScale,
          limit_price: input.type === 'limit' ? (input.price ?? null) : null,
          tp_price: takeProfit === null ? null : (input.take_profit ?? null),
          sl_price: stopLoss === null ? null : (input.stop_loss ?? null),
          phase: 'waiting',
          version: 1,
          reserve: Number(plan.amount),
          reserve_hold_id: holdId,
          added_margin: 0,
          request_id: input.request_id,
          request_digest: digest,
          terms_since: at,
          accepted_at: at,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    event: LEVER_POSITION_EVENT,
    toWire,
    accepted: s.onChanged,
  });
}
