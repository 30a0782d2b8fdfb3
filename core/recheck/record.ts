import {
  type ChainHead,
  type ChainLink,
  type ChainRecord,
  MAX_CHAIN_LINKS,
  type RecordedTick,
} from '../../protocol/price-record';
import { batchDigest, chainHash, symbolDigest, verifyLinks } from '../../protocol/rules/price-record';

/**
 * What every product's re-check asks of the price record (DESIGN "Fair outcomes"): that a tick is in its batch as
 * posted, and that the batch's hash folds up to a head the server published. The product modules (fill.ts, options.ts,
 * lever.ts) add their own rule over the ticks these prove.
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

/** Why a recorded tick does not stand as posted. */
export type TickFailure = 'tick_missing' | 'tick_differs' | 'digest_differs' | 'chain_differs';

/** Runs a hash rule on server data; the rules throw on what they cannot encode, which means the data is not a record. */
export function holds(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

/** The tick is in its batch as posted, and the batch's digests and hash follow from its ticks (any product's tick). */
export function checkTick(tick: RecordedTick, record: ChainRecord): TickFailure | null {
  const recorded = record.ticks.find((t) => t.seq === tick.seq && t.symbol === tick.symbol);
  if (!recorded) return 'tick_missing';
  // The price's digits are part of the record ('1.50' and '1.5' hash differently), so the text must match exactly.
  if (recorded.ts !== tick.ts || recorded.price !== tick.price) return 'tick_differs';
  if (record.ticks.some((t) => t.symbol !== tick.symbol)) return 'digest_differs';
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
 * Folds the batch's hash up to the head, a page of links at a time. Each link's published hash must follow from
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
