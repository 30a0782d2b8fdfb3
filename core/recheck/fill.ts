import { type PairSteps, type SpotFillUnits, spotFillOf, toUnits } from '../../protocol/rules/spot';
import type { SpotOrder } from '../../protocol/spot';
import { checkChain, checkTick, type RecordFetchers } from './record';

/**
 * The client's re-check of a spot fill (DESIGN "Fair outcomes"): the fill's tick is in the price record as posted,
 * the record's hashes lead from its batch to a head the server published, and the published spot rule gives the
 * posted fill at that tick. Everything is recomputed here with the rule code in protocol/rules/, the same code the
 * server ran; the server only supplies data. Pure: the record comes through injected fetchers.
 */

/** Why a fill could not be re-checked; every reason but `not_sealed` means the record or the fill is not as posted. */
export type RecheckFailure =
  | 'not_sealed'
  | 'tick_missing'
  | 'tick_differs'
  | 'digest_differs'
  | 'chain_differs'
  | 'fill_differs';

export type RecheckResult =
  | {
      ok: true;
      /** The head the fill's batch was chained up to, and its hash as the server published it. */
      headId: number;
      headHash: string;
      /** The batch that sealed the fill's tick. */
      batchId: number;
    }
  | { ok: false; reason: RecheckFailure };

const failed = (reason: RecheckFailure): RecheckResult => ({ ok: false, reason });

/** (c) The published rule, at the tick's price and under the order's own terms, gives the posted fill. */
function checkFill(order: SpotOrder, pair: PairSteps, quoteScale: number): boolean {
  const fill = order.fill;
  if (!fill) return false;
  const qty = order.qty === null ? null : toUnits(order.qty, pair.qtyScale);
  const amount = order.amount === null ? null : toUnits(order.amount, quoteScale);
  const price = toUnits(fill.tick.price, pair.priceScale);
  if ((order.qty !== null && qty === null) || (order.amount !== null && amount === null) || price === null) {
    return false;
  }
  let expected: SpotFillUnits | null;
  try {
    // The fill rule reads only the fee rate and the quote's scale; the order keeps the fee rate it was placed
    // under, and the minimum value and price band decided acceptance, not the fill (the server passes the same).
    expected = spotFillOf({ side: order.side, mode: order.mode, qty, amount }, price, pair, {
      feeRate: order.fee_rate,
      minValue: '0',
      priceBand: '0',
      quoteScale,
    });
  } catch {
    return false;
  }
  if (!expected) return false;
  // Compared as units: the posted text may carry trailing zeros, the value is what counts.
  const is = (text: string, units: bigint, scale: number) => toUnits(text, scale) === units;
  return (
    is(fill.price, price, pair.priceScale) &&
    is(fill.qty, expected.qty, pair.qtyScale) &&
    is(fill.value, expected.value, quoteScale) &&
    is(fill.fee, expected.fee, quoteScale) &&
    is(fill.total, expected.total, quoteScale)
  );
}

/**
 * Re-checks a filled order against the price record and the spot rule. `pair` and `quoteScale` are the pair's steps
 * and USDT's decimals from coin/trade/config. Resolves to the head it reached, or to the first check that failed;
 * rejects only when a fetcher does (the record could not be reached, so nothing was decided).
 */
export async function recheckFill(
  order: SpotOrder,
  pair: PairSteps,
  quoteScale: number,
  fetchers: RecordFetchers,
): Promise<RecheckResult> {
  const fill = order.fill;
  // An order without a fill has no tick to look up.
  if (!fill) return failed('tick_missing');
  // The fill must name a tick of the order's own instrument: another instrument's record would prove nothing.
  if (fill.tick.symbol !== order.symbol) return failed('tick_differs');

  const record = await fetchers.record(fill.tick.symbol, fill.tick.seq);
  if (record === null) return failed('not_sealed');
  const recordFailure = checkTick(fill.tick, record);
  if (recordFailure) return failed(recordFailure);

  // Asked after the record, so the head is at least as new as the fill's batch.
  const reached = await checkChain(record, await fetchers.head(), fetchers);
  if (!reached) return failed('chain_differs');

  if (!checkFill(order, pair, quoteScale)) return failed('fill_differs');
  return { ok: true, ...reached, batchId: record.batch.id };
}
