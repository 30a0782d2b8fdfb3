import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../migrations';
import { type DatabaseHandle, openSqlite } from '../../platform/db/connect';
import { openPostgresSchema } from '../../testing';
import { MarketFeed } from '../feed';
import { allInstruments, INSTRUMENTS, instrumentBySymbol, listings } from '../instruments';
import { MarketSimulator } from '../simulator';
import { withPriceRecord } from '../tables';
import { LISTED_ID_BASE, listCoin, loadListedCoins } from './coins';
import { listingParameters } from './parameters';
import { InstrumentListings } from './registry';
import { ListingWatcher } from './watcher';

const T0 = Date.UTC(2024, 5, 4, 12, 0, 0);
const STATIC = new Set(INSTRUMENTS.map((i) => i.symbol));

describe('listing parameters', () => {
  const plan = (startPrice: string, extra: { priceScale?: number; qtyScale?: number } = {}) =>
    listingParameters({ symbol: 'ABC', name: ' ABC Token ', startPrice, listedAt: T0, ...extra });

  it('fill in scales and trade size from the start price, as the static coins are set up', () => {
    expect(plan('0.08')).toMatchObject({
      name: 'ABC Token',
      priceScale: 6,
      qtyScale: 0,
      startPrice: '0.080000',
      tradeSize: '10000',
      sigmaPerMinute: '0.002',
    });
    expect(plan('64250')).toMatchObject({ priceScale: 2, qtyScale: 5, startPrice: '64250.00', tradeSize: '0.01' });
    expect(plan('3.5')).toMatchObject({ priceScale: 4, qtyScale: 1, startPrice: '3.5000', tradeSize: '100' });
    expect(plan('0.00000123')).toMatchObject({ priceScale: 8, qtyScale: 0, startPrice: '0.00000123' });
    // More decimals than the default keep their precision; trailing zeros are not decimals.
    expect(plan('12.345678')).toMatchObject({ priceScale: 6, startPrice: '12.345678' });
    expect(plan('12.5000000000')).toMatchObject({ priceScale: 3, startPrice: '12.500' });
    expect(plan('1.5', { priceScale: 2, qtyScale: 8 })).toMatchObject({
      priceScale: 2,
      qtyScale: 8,
      startPrice: '1.50',
    });
  });

  it('refuse what cannot be a coin on this market', () => {
    const bad = (coin: Partial<Parameters<typeof listingParameters>[0]>) => () =>
      listingParameters({ symbol: 'ABC', name: 'ABC', startPrice: '1', listedAt: T0, ...coin });
    expect(bad({ symbol: 'BTC' })).toThrow(/static instrument/);
    expect(bad({ symbol: 'abc' })).toThrow(/symbol/);
    expect(bad({ symbol: 'TOOLONGSYMBOL1' })).toThrow(/symbol/);
    expect(bad({ name: '  ' })).toThrow(/name/);
    expect(bad({ startPrice: '0.000' })).toThrow(/above zero/);
    expect(bad({ startPrice: '-1' })).toThrow(/plain decimal/);
    expect(bad({ startPrice: '1e3' })).toThrow(/plain decimal/);
    expect(bad({ startPrice: '0.000000001' })).toThrow(/more than 8 decimals/);
    expect(bad({ startPrice: '1.234', priceScale: 2 })).toThrow(/more than 2 decimals/);
    expect(bad({ priceScale: 9 })).toThrow(/price scale/);
    expect(bad({ qtyScale: -1 })).toThrow(/quantity scale/);
    expect(bad({ listedAt: 1.5 })).toThrow(/listing time/);
    expect(bad({ startPrice: '123456789012345678' })).toThrow(/exact integer/);
  });
});

const targets: [string, () => Promise<{ handle: DatabaseHandle; close(): Promise<void> }>][] = [
  [
    'sqlite',
    async () => {
      const handle = openSqlite(':memory:');
      return { handle, close: () => handle.db.destroy() };
    },
  ],
];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) targets.push(['postgres', () => openPostgresSchema(pgUrl)]);

describe.each(targets)('listCoin on %s', (kind, open) => {
  let database: { handle: DatabaseHandle; close(): Promise<void> };
  beforeAll(async () => {
    database = await open();
    await migrateToLatest(database.handle);
  });
  afterAll(() => database?.close());
  // This process's registry outlives each database: one symbol set per database.
  const sym = (name: string) => `${name}${kind === 'sqlite' ? 'S' : 'P'}`;

  it('writes the row, registers the instrument in this process at once, and is idempotent by symbol', async () => {
    const { db } = database.handle;
    const listedAt = T0 + 1_234;
    const instrument = await listCoin(db, { symbol: sym('ONE'), name: 'One', startPrice: '0.5', listedAt });
    expect(instrument).toMatchObject({
      symbol: sym('ONE'),
      kind: 'coin',
      quote: 'USDT',
      priceScale: 5,
      qtyScale: 0,
      startPrice: '0.50000',
      sigmaPerMinute: 0.002,
      tradeSize: 1000,
      hours: 'always',
    });
    expect(instrument.id).toBeGreaterThanOrEqual(LISTED_ID_BASE);
    expect(instrumentBySymbol(sym('ONE'))).toEqual(instrument);
    expect(listings.get(sym('ONE'))?.listedAt).toBe(listedAt);
    expect(allInstruments().at(-1)).toEqual(instrument);
    const row = await withPriceRecord(db)
      .selectFrom('listed_coins')
      .selectAll()
      .where('symbol', '=', sym('ONE'))
      .executeTakeFirst();
    expect(row).toMatchObject({ id: instrument.id, start_price: '0.50000', listed_at: listedAt, trade_size: '1000' });

    // Again (another price, another time): the coin as listed.
    const again = await listCoin(db, { symbol: sym('ONE'), name: 'Other', startPrice: '9', listedAt: T0 + 5 });
    expect(again).toEqual(instrument);
    const two = await listCoin(db, { symbol: sym('TWO'), name: 'Two', startPrice: '12.5', listedAt });
    expect(two.id).toBe(instrument.id + 1);
    await expect(listCoin(db, { symbol: 'BTC', name: 'x', startPrice: '1', listedAt })).rejects.toThrow(/static/);
    const rows = await withPriceRecord(db).selectFrom('listed_coins').select('symbol').execute();
    expect(rows.map((r) => r.symbol).sort()).toEqual([sym('ONE'), sym('TWO')]);
  });

  it('a second process loads the table into its own registry; its watcher puts them on its feed', async () => {
    const { db } = database.handle;
    const other = new InstrumentListings((s) => STATIC.has(s));
    let now = T0 + 10_000;
    const sim = new MarketSimulator({
      seed: 'coins',
      now: () => now,
      liveStart: T0,
      backfillDays: 0,
      alwaysOpen: true,
      instruments: INSTRUMENTS.filter((i) => i.symbol === 'BTC'),
    });
    const feed = new MarketFeed(sim, () => now);
    sim.advanceTo(now);
    const watcher = new ListingWatcher(db, feed, { registry: other, everyMs: 50 });
    expect(watcher.job()).toMatchObject({ name: 'market-listings', scope: 'process', everyMs: 50 });
    expect(feed.instrument(sym('ONE'))).toBeUndefined();
    await watcher.poll();
    expect(other.all().map((l) => l.instrument.symbol)).toEqual([sym('ONE'), sym('TWO')]);
    // Listed at T0 + 1234: caught up to now, with its listing trade first.
    expect(feed.candles(sym('ONE'), '1min', 10)[0]?.o).toBe('0.50000');
    expect(feed.quote(sym('ONE'))?.ts).toBe(now);
    await listCoin(db, { symbol: sym('THREE'), name: 'Three', startPrice: '2', listedAt: now });
    // This registry is another process's: it learns of the new coin by the next poll, not at once.
    expect(feed.instrument(sym('THREE'))).toBeUndefined();
    expect(await loadListedCoins(db, other)).toHaveLength(1);
    expect(feed.quote(sym('THREE'))).toMatchObject({ last: '2.0000', seq: 1 });
    now += 1_000;
    sim.advanceTo(now);
    expect(feed.quote(sym('THREE'))?.seq).toBe(2);
    watcher.close();
  });
});
