// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { ChainBatch, ChainHead, ChainLink, ChainRecord, RecordedTick } from '../../protocol/price-record';
import { chainHash, GENESIS_HASH, symbolDigest, ticksDigest } from '../../protocol/rules/price-record';
import type { SpotOrder } from '../../protocol/spot';
import { recheckFill } from './fill';
import type { RecordFetchers } from './record';

/**
 * The re-check against a small record built with the published hash rules: batches 1..headId chained from genesis,
 * the fill's tick sealed in batch FILL_BATCH beside an ETH tick. The posted fill is written out by hand (not derived
 * from spotFillOf), so the test also pins the rule's numbers.
 */

const PAIR = { priceScale: 2, qtyScale: 5 };
const QUOTE_SCALE = 6;
const FILL_BATCH = 2;

const fillTick: RecordedTick = { symbol: 'BTC', seq: 41, ts: 1_700_000_000_500, price: '65000.50' };
const batchTicks: RecordedTick[] = [
  { symbol: 'BTC', seq: 40, ts: 1_700_000_000_100, price: '65000.00' },
  fillTick,
  { symbol: 'ETH', seq: 7, ts: 1_700_000_000_300, price: '3000.25' },
];

/** A market buy of 100 USDT at 65000.50 with a 0.1% fee: 0.00153 BTC; value 99.450765, fee ⌈0.099450765⌉. */
const order: SpotOrder = {
  id: 9,
  symbol: 'BTC',
  side: 'buy',
  type: 'market',
  mode: 'amount',
  qty: null,
  amount: '100',
  price: null,
  fee_rate: '0.001',
  held: '0',
  state: 'completed',
  cancel_reason: null,
  fill: {
    tick: fillTick,
    qty: '0.00153',
    price: '65000.50',
    value: '99.450765',
    fee: '0.099451',
    total: '99.550216',
    at: 1_700_000_000_600,
  },
  request_id: 'r-9',
  created_at: 1_700_000_000_000,
  updated_at: 1_700_000_000_600,
};

/** A chain of `headId` batches: FILL_BATCH holds the ticks above, every other batch one BTC tick of its own. */
function chain(headId: number) {
  const batches: ChainBatch[] = [];
  let prev = GENESIS_HASH;
  for (let id = 1; id <= headId; id++) {
    const ticks =
      id === FILL_BATCH
        ? batchTicks
        : [{ symbol: 'BTC', seq: 1000 + id, ts: 1_700_000_000_000 + id * 1000, price: '1' }];
    const digest = ticksDigest(ticks);
    const hash = chainHash(prev, digest);
    batches.push({ id, from_ts: 0, to_ts: 0, prev_hash: prev, digest, hash });
    prev = hash;
  }
  return batches;
}

function trueRecord(batches: ChainBatch[]): ChainRecord {
  const btc = batchTicks.filter((t) => t.symbol === 'BTC');
  const eth = batchTicks.filter((t) => t.symbol === 'ETH');
  return {
    batch: batches[FILL_BATCH - 1]!,
    ticks: btc,
    parts: [
      { symbol: 'BTC', digest: symbolDigest(btc) },
      { symbol: 'ETH', digest: symbolDigest(eth) },
    ],
  };
}

/** Fetchers serving `batches` truthfully unless a test changes what they serve. */
function fetchers(
  batches: ChainBatch[],
  change: { record?: (r: ChainRecord) => ChainRecord | null; links?: (l: ChainLink[]) => ChainLink[] } = {},
) {
  const last = batches[batches.length - 1];
  const head: ChainHead = last
    ? { batch_id: last.id, hash: last.hash, to_ts: last.to_ts }
    : { batch_id: null, hash: null, to_ts: null };
  const f = {
    head: vi.fn(async () => head),
    record: vi.fn(async (symbol: string, seq: number) => {
      expect([symbol, seq]).toEqual(['BTC', fillTick.seq]);
      const r = structuredClone(trueRecord(batches));
      return change.record ? change.record(r) : r;
    }),
    links: vi.fn(async (fromId: number, toId: number) => {
      const links = batches.slice(fromId, toId).map(({ id, digest, hash }) => ({ id, digest, hash }));
      return change.links ? change.links(links) : links;
    }),
  } satisfies RecordFetchers;
  return f;
}

const withFill = (changes: Partial<NonNullable<SpotOrder['fill']>>): SpotOrder => ({
  ...order,
  fill: { ...order.fill!, ...changes },
});

describe('recheckFill', () => {
  it('passes a true record and reaches the head', async () => {
    const batches = chain(6);
    const f = fetchers(batches);
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, f)).toEqual({
      ok: true,
      headId: 6,
      headHash: batches[5]!.hash,
      batchId: FILL_BATCH,
    });
    expect(f.links).toHaveBeenCalledWith(FILL_BATCH, 6);
  });

  it('passes when the fill batch is the head (no links to fold)', async () => {
    const batches = chain(FILL_BATCH);
    const f = fetchers(batches);
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, f)).toMatchObject({ ok: true, headId: FILL_BATCH });
    expect(f.links).not.toHaveBeenCalled();
  });

  it('pages the links by 3,600 up to a far head', async () => {
    const batches = chain(FILL_BATCH + 3_600 * 2 + 3);
    const f = fetchers(batches);
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, f)).toMatchObject({ ok: true, headId: batches.length });
    expect(f.links.mock.calls).toEqual([
      [FILL_BATCH, FILL_BATCH + 3_600],
      [FILL_BATCH + 3_600, FILL_BATCH + 7_200],
      [FILL_BATCH + 7_200, FILL_BATCH + 7_203],
    ]);
  });

  it('re-checks a sell by quantity (value − fee received, rounded down)', async () => {
    // 0.00153 BTC at 65000.50: value 99.450765, fee ⌈0.099450765⌉ = 0.099451, received ⌊99.351314235⌋.
    const sell: SpotOrder = {
      ...order,
      side: 'sell',
      mode: 'quantity',
      qty: '0.00153',
      amount: null,
      fill: { ...order.fill!, value: '99.450765', fee: '0.099451', total: '99.351314' },
    };
    expect(await recheckFill(sell, PAIR, QUOTE_SCALE, fetchers(chain(4)))).toMatchObject({ ok: true });
  });

  it('waits while the tick is not sealed', async () => {
    const f = fetchers(chain(4), { record: () => null });
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, f)).toEqual({ ok: false, reason: 'not_sealed' });
    expect(f.head).not.toHaveBeenCalled();
  });

  it('fails when the batch does not hold the tick', async () => {
    const f = fetchers(chain(4), { record: (r) => ({ ...r, ticks: r.ticks.filter((t) => t.seq !== fillTick.seq) }) });
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, f)).toEqual({ ok: false, reason: 'tick_missing' });
  });

  it('fails when the recorded tick price differs from the fill’s', async () => {
    const moved = (r: ChainRecord) => ({
      ...r,
      ticks: r.ticks.map((t) => (t.seq === fillTick.seq ? { ...t, price: '64000.50' } : t)),
    });
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, fetchers(chain(4), { record: moved }))).toEqual({
      ok: false,
      reason: 'tick_differs',
    });
    // The same digits matter: '65000.5' is another record than '65000.50'.
    const reformatted = withFill({ tick: { ...fillTick, price: '65000.5' } });
    expect(await recheckFill(reformatted, PAIR, QUOTE_SCALE, fetchers(chain(4)))).toEqual({
      ok: false,
      reason: 'tick_differs',
    });
    const otherTime = withFill({ tick: { ...fillTick, ts: fillTick.ts + 1 } });
    expect(await recheckFill(otherTime, PAIR, QUOTE_SCALE, fetchers(chain(4)))).toEqual({
      ok: false,
      reason: 'tick_differs',
    });
  });

  it('fails when a changed tick (fill and record alike) no longer gives the sealed digest', async () => {
    const changed = { ...fillTick, price: '64000.50' };
    const record = (r: ChainRecord) => ({ ...r, ticks: r.ticks.map((t) => (t.seq === changed.seq ? changed : t)) });
    const order2 = withFill({ tick: changed, price: '64000.50' });
    expect(await recheckFill(order2, PAIR, QUOTE_SCALE, fetchers(chain(4), { record }))).toEqual({
      ok: false,
      reason: 'digest_differs',
    });
  });

  it('fails on a wrong part digest, a missing part, or a batch digest that does not follow', async () => {
    const cases: ((r: ChainRecord) => ChainRecord)[] = [
      (r) => ({ ...r, parts: r.parts.map((p) => (p.symbol === 'ETH' ? { ...p, digest: 'a'.repeat(64) } : p)) }),
      (r) => ({ ...r, parts: r.parts.map((p) => (p.symbol === 'BTC' ? { ...p, digest: 'b'.repeat(64) } : p)) }),
      (r) => ({ ...r, parts: r.parts.filter((p) => p.symbol !== 'BTC') }),
      (r) => ({ ...r, parts: [...r.parts, { symbol: 'ETH', digest: 'c'.repeat(64) }] }),
      (r) => ({ ...r, batch: { ...r.batch, digest: 'd'.repeat(64) } }),
    ];
    for (const record of cases) {
      expect(await recheckFill(order, PAIR, QUOTE_SCALE, fetchers(chain(4), { record }))).toEqual({
        ok: false,
        reason: 'digest_differs',
      });
    }
  });

  it('fails when the batch hash does not follow from its previous hash and digest', async () => {
    const record = (r: ChainRecord) => ({ ...r, batch: { ...r.batch, prev_hash: 'e'.repeat(64) } });
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, fetchers(chain(4), { record }))).toEqual({
      ok: false,
      reason: 'chain_differs',
    });
  });

  it('fails on a broken link: a changed digest, a changed hash, a gap, or a head the links do not reach', async () => {
    const batches = chain(6);
    const cases: ((l: ChainLink[]) => ChainLink[])[] = [
      (l) => l.map((x, k) => (k === 1 ? { ...x, digest: 'f'.repeat(64) } : x)),
      (l) => l.map((x, k) => (k === 1 ? { ...x, hash: 'f'.repeat(64) } : x)),
      (l) => l.filter((_, k) => k !== 1),
      (l) => l.map((x, k) => (k === 1 ? { ...x, id: 99 } : x)),
      // Every link consistent with its own digest, but one digest rewritten: the fold misses the published head.
      (l) => {
        let prev = batches[FILL_BATCH - 1]!.hash;
        return l.map((x, k) => {
          const digest = k === 1 ? ticksDigest([{ symbol: 'BTC', seq: 1, ts: 1, price: '2' }]) : x.digest;
          prev = chainHash(prev, digest);
          return { ...x, digest, hash: prev };
        });
      },
    ];
    for (const links of cases) {
      expect(await recheckFill(order, PAIR, QUOTE_SCALE, fetchers(batches, { links }))).toEqual({
        ok: false,
        reason: 'chain_differs',
      });
    }
  });

  it('fails when the head is empty or older than the fill’s batch', async () => {
    const f = fetchers(chain(4));
    f.head.mockResolvedValueOnce({ batch_id: null, hash: null, to_ts: null });
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, f)).toEqual({ ok: false, reason: 'chain_differs' });
    f.head.mockResolvedValueOnce({ batch_id: 1, hash: chain(1)[0]!.hash, to_ts: 0 });
    expect(await recheckFill(order, PAIR, QUOTE_SCALE, f)).toEqual({ ok: false, reason: 'chain_differs' });
  });

  it('fails when the rule gives another fill: a changed fee, quantity, total, price or fee rate', async () => {
    const cases: SpotOrder[] = [
      withFill({ fee: '0.099452' }),
      withFill({ fee: '0.099450' }),
      withFill({ qty: '0.00154' }),
      withFill({ total: '99.550217' }),
      withFill({ value: '99.450766' }),
      withFill({ price: '65000.00' }),
      { ...order, fee_rate: '0.002' },
    ];
    for (const o of cases) {
      expect(await recheckFill(o, PAIR, QUOTE_SCALE, fetchers(chain(4)))).toEqual({
        ok: false,
        reason: 'fill_differs',
      });
    }
  });

  it('accepts the posted amounts with trailing zeros (the value counts, not its spelling)', async () => {
    const padded = withFill({ qty: '0.00153000', fee: '0.09945100', price: '65000.5000' });
    expect(await recheckFill(padded, PAIR, QUOTE_SCALE, fetchers(chain(4)))).toMatchObject({ ok: true });
  });

  it('fails when the fill names another instrument’s tick', async () => {
    const f = fetchers(chain(4));
    expect(await recheckFill({ ...order, symbol: 'ETH' }, PAIR, QUOTE_SCALE, f)).toEqual({
      ok: false,
      reason: 'tick_differs',
    });
    expect(f.record).not.toHaveBeenCalled();
  });

  it('rejects (decides nothing) when the record cannot be reached', async () => {
    const f = fetchers(chain(4));
    f.head.mockRejectedValueOnce(new Error('offline'));
    await expect(recheckFill(order, PAIR, QUOTE_SCALE, f)).rejects.toThrow('offline');
  });
});
