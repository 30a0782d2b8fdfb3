import { type ChainHead, type ChainLink, type ChainRecord, MAX_CHAIN_LINKS } from '../../protocol/price-record';
import { batchDigest, chainHash, symbolDigest, verifyLinks } from '../../protocol/rules/price-record';
import { type PairSteps, type SpotFillUnits, spotFillOf, toUnits } from '../../protocol/rules/spot';
import type { SpotOrder } from '../../protocol/spot';

/**
 * The client's re-check of a spot fill (DESIGN "Fair outcomes"): the fill's tick is in the price record as posted,
 * the record's hashes lead from its batch to a head the server published, and the published spot rule gives the
 * posted fill at that tick. Everything is recomputed here with the rule code in protocol/rules/, the same code the
 * server ran; the server only supplies data. Pure: the record comes through injected fetchers.
 */

/** Where the record comes from. Each throws when the record cannot be reached (nothing is known then). */
export interface RecordFetchers {
  /** The newest sealed batch. */
  head(): Promise<ChainHead>;
  /** The batch that holds `symbol`:`seq`; null while the recorder has not sealed it yet. */
  record(symbol: string, seq: number): Promise<ChainRecord | null>;
  /** Batches fromId+1 .. toId (at most MAX_CHAIN_LINKS). */
  links(fromId: number, toId: number): Promise<ChainLink[]>;
}

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

/** Runs a hash rule on server data; the rules throw on what they cannot encode, which means the data is not a record. */
export function holds(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

/** (a) The tick is in its batch as posted, and the batch's digests and hash follow from its ticks. */
function checkRecord(fill: NonNullable<SpotOrder['fill']>, record: ChainRecord): RecheckFailure | null {
  const { tick } = fill;
  const recorded = record.ticks.find((t) => t.seq === tick.seq);
  if (!recorded) return 'tick_missing';
  // The price's digits are part of the record ('1.50' and '1.5' hash differently), so the text must match exactly.
  const same = recorded.symbol === tick.symbol && recorded.ts === tick.ts && recorded.price === tick.price;
  if (!same) return 'tick_differs';
  const part = record.parts.find((p) => p.symbol === tick.symbol);
  const digests = holds(
    () =>
      part !== undefined &&
      symbolDigest(record.ticks) === part.digest &&
      batchDigest(record.parts) === record.batch.digest,
  );
  if (!digests) return 'digest_differs';
  if (!holds(() => chainHash(record.batch.prev_hash, record.batch.digest) === record.batch.hash)) {
    return 'chain_differs';
  }
  return null;
}

/**
 * (b) Folds the batch's hash up to the head, a page of links at a time. Each link's published hash must follow from
 * the one before it, and the fold of the digests must reach the head's hash: a record rewritten after the head was
 * published cannot do both.
 */
export async function checkChain(
  record: ChainRecord,
  head: ChainHead,
  fetchers: RecordFetchers,
): Promise<{ headId: number; headHash: string } | null> {
  const { batch } = record;
  if (head.batch_id === null || head.hash === null || head.batch_id < batch.id) return null;
  let id = batch.id;
  let hash = batch.hash;
  while (id < head.batch_id) {
    const to = Math.min(id + MAX_CHAIN_LINKS, head.batch_id);
    const links = await fetchers.links(id, to);
    if (links.length !== to - id) return null;
    let previous = hash;
    for (const [k, link] of links.entries()) {
      if (link.id !== id + 1 + k) return null;
      if (!holds(() => chainHash(previous, link.digest) === link.hash)) return null;
      previous = link.hash;
    }
    // The published fold over this page's digests must land on the last link's (already checked) hash.
    const pageStart = hash;
    const digests = links.map((l) => l.digest);
    if (!holds(() => verifyLinks(pageStart, digests) === previous)) return null;
    hash = previous;
    id = to;
  }
  return hash === head.hash ? { headId: head.batch_id, headHash: head.hash } : null;
}

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
  const recordFailure = checkRecord(fill, record);
  if (recordFailure) return failed(recordFailure);

  // Asked after the record, so the head is at least as new as the fill's batch.
  const reached = await checkChain(record, await fetchers.head(), fetchers);
  if (!reached) return failed('chain_differs');

  if (!checkFill(order, pair, quoteScale)) return failed('fill_differs');
  return { ok: true, ...reached, batchId: record.batch.id };
}
