import type { ChainBatch, ChainHead, ChainRecord, RecordedTick } from '../../protocol/price-record';
import { chainHash, GENESIS_HASH, symbolDigest, ticksDigest } from '../../protocol/rules/price-record';
import type { RecordFetchers } from './record';

/**
 * A small price record for the re-check tests, built with the published hash rules: one BTC tick per batch
 * (seq = 100 + batch id, a second apart), the price of batch `id` from `prices` (default 100.00), plus extra ticks.
 */
export const T0 = 1_700_000_000_000;
export const tickOf = (id: number, price: string): RecordedTick => ({
  symbol: 'BTC',
  seq: 100 + id,
  ts: T0 + id * 1000,
  price,
});

export function record(prices: Record<number, string>, headId: number, extra: Record<number, RecordedTick[]> = {}) {
  const batches: ChainBatch[] = [];
  const ticks = new Map<number, RecordedTick[]>();
  let prev = GENESIS_HASH;
  for (let id = 1; id <= headId; id++) {
    const own = [tickOf(id, prices[id] ?? '100.00'), ...(extra[id] ?? [])];
    ticks.set(id, own);
    const digest = ticksDigest(own);
    const hash = chainHash(prev, digest);
    batches.push({ id, from_ts: T0 + id * 1000, to_ts: T0 + id * 1000, prev_hash: prev, digest, hash });
    prev = hash;
  }
  const last = batches.at(-1) as ChainBatch;
  const head: ChainHead = { batch_id: last.id, hash: last.hash, to_ts: last.to_ts };
  const fetchers: RecordFetchers & { missing: Set<number> } = {
    missing: new Set(),
    head: async () => head,
    record: async (_symbol, seq) => {
      for (const [id, own] of ticks) {
        if (own.some((t) => t.seq === seq) && !fetchers.missing.has(seq)) {
          const r: ChainRecord = {
            batch: batches[id - 1] as ChainBatch,
            ticks: own,
            parts: [{ symbol: 'BTC', digest: symbolDigest(own) }],
          };
          return r;
        }
      }
      return null;
    },
    links: async (from, to) => batches.slice(from, to).map(({ id, digest, hash }) => ({ id, digest, hash })),
  };
  return fetchers;
}
