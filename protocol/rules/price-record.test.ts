// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  batchDigest,
  type ChainTick,
  chainHash,
  digestParts,
  GENESIS_HASH,
  symbolDigest,
  ticksDigest,
  verifyLinks,
} from './price-record';

const TICKS: ChainTick[] = [
  { symbol: 'BTC', seq: 1, ts: 1717502400000, price: '64123.45' },
  { symbol: 'BTC', seq: 2, ts: 1717502401000, price: '64123.50' },
  { symbol: 'ETH', seq: 7, ts: 1717502400500, price: '3801.2' },
];

// Computed once and checked independently with `printf '<lines>' | sha256sum`: the encoding is published, so these
// values never change.
const BTC_DIGEST = '537a3d292e17ac48c52659bce7d82852f064ae2bcb8dfae53f60f290ba980735';
const ETH_DIGEST = '146599a6647b4248ef6db06cd92299c1b0fccd79b05a05b7b179782bda5665ea';
const BATCH_DIGEST = 'b50c0661d6a10621526577619f83dbd401f182b965e72c947c68767d8a695a43';
const BATCH_1_HASH = 'c0e190b85c5ce99f4f288060b96f505e0eee03b2406426ecac7175a649ee5236';

describe('price record hash chain', () => {
  it('hashes a fixed vector to the published values', () => {
    expect(GENESIS_HASH).toBe('0'.repeat(64));
    expect(symbolDigest(TICKS.slice(0, 2))).toBe(BTC_DIGEST);
    expect(symbolDigest(TICKS.slice(2))).toBe(ETH_DIGEST);
    expect(digestParts(TICKS)).toEqual([
      { symbol: 'BTC', digest: BTC_DIGEST },
      { symbol: 'ETH', digest: ETH_DIGEST },
    ]);
    expect(
      batchDigest([
        { symbol: 'BTC', digest: BTC_DIGEST },
        { symbol: 'ETH', digest: ETH_DIGEST },
      ]),
    ).toBe(BATCH_DIGEST);
    expect(chainHash(GENESIS_HASH, BATCH_DIGEST)).toBe(BATCH_1_HASH);
  });

  it('does not depend on the order ticks and parts come in', () => {
    expect(symbolDigest([...TICKS.slice(0, 2)].reverse())).toBe(BTC_DIGEST);
    expect(ticksDigest([...TICKS].reverse())).toBe(BATCH_DIGEST);
    expect(batchDigest([...digestParts(TICKS)].reverse())).toBe(BATCH_DIGEST);
  });

  it('changes with any change to a tick: price (even its spelling), seq, ts or symbol', () => {
    const hashWith = (change: Partial<ChainTick>) =>
      chainHash(GENESIS_HASH, ticksDigest([{ ...TICKS[0], ...change } as ChainTick, ...TICKS.slice(1)]));
    const changed = [
      hashWith({ price: '64123.46' }),
      hashWith({ price: '64123.450' }),
      hashWith({ seq: 3 }),
      hashWith({ ts: 1717502400001 }),
      hashWith({ symbol: 'SOL' }),
    ];
    for (const h of changed) expect(h).not.toBe(BATCH_1_HASH);
    expect(new Set(changed).size).toBe(changed.length);
    // A dropped tick changes it too.
    expect(ticksDigest(TICKS.slice(1))).not.toBe(BATCH_DIGEST);
  });

  it('folds links from any batch hash to the head', () => {
    const d2 = ticksDigest([{ symbol: 'BTC', seq: 3, ts: 1717502402000, price: '64124.00' }]);
    const d3 = ticksDigest([{ symbol: 'ETH', seq: 8, ts: 1717502403000, price: '3801.3' }]);
    const h2 = chainHash(BATCH_1_HASH, d2);
    const h3 = chainHash(h2, d3);
    expect(verifyLinks(GENESIS_HASH, [BATCH_DIGEST, d2, d3])).toBe(h3);
    expect(verifyLinks(BATCH_1_HASH, [d2, d3])).toBe(h3);
    expect(verifyLinks(h3, [])).toBe(h3);
    expect(verifyLinks(BATCH_1_HASH, [d3, d2])).not.toBe(h3);
  });

  it('refuses what the encoding cannot carry unambiguously', () => {
    expect(() => symbolDigest([{ symbol: 'BTC', seq: 1, ts: 1, price: '1|2' }])).toThrow();
    expect(() => symbolDigest([{ symbol: 'BTC', seq: 1.5, ts: 1, price: '1' }])).toThrow();
    expect(() => symbolDigest([{ symbol: 'BT\nC', seq: 1, ts: 1, price: '1' }])).toThrow();
    expect(() => symbolDigest([TICKS[0] as ChainTick, TICKS[0] as ChainTick])).toThrow(/twice/);
    expect(() => symbolDigest(TICKS)).toThrow(/more than one symbol/);
    expect(() =>
      batchDigest([
        { symbol: 'BTC', digest: BTC_DIGEST },
        { symbol: 'BTC', digest: ETH_DIGEST },
      ]),
    ).toThrow();
    expect(() => chainHash('abc', BATCH_DIGEST)).toThrow();
  });
});
