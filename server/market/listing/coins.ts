import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { type Instrument, listings } from '../instruments';
import type { ListedCoinsTable } from '../tables';
import { withPriceRecord } from '../tables';
import { listingParameters, type NewListedCoin } from './parameters';
import type { InstrumentListings, ListedInstrument } from './registry';

/** Listed coins' instrument ids start here, far above the static ones (1-110), so the two never meet. */
export const LISTED_ID_BASE = 1000;

export type { NewListedCoin };

type ListedCoinRow = Selectable<ListedCoinsTable>;

/**
 * Lists a coin: writes its `listed_coins` row (the truth every process reads) and registers it in this process at
 * once: instrumentBySymbol knows it, and a running feed of this process serves it (server/market/listing/watcher.ts),
 * its simulator starting at `startPrice` at `listedAt`. Other processes learn of it from the table within a few
 * seconds. The market knows no ledger: the caller makes the coin a ledger currency in the same transaction (the IEO's
 * listing step: Ledger.addCurrency within it).
 *
 * Idempotent by symbol: a symbol listed already returns its instrument as listed (whatever this call says). A static
 * symbol, or an invalid one, throws. Works inside a caller's transaction too; a listing rolled back after this
 * returned stays registered in this process, and listing it again writes the same row.
 */
export async function listCoin(db: Kysely<Database>, coin: NewListedCoin): Promise<Instrument> {
  const existing = await rowOf(db, coin.symbol);
  if (existing) return registerRow(existing, listings);
  const params = listingParameters(coin);
  // Registered here but not in the table: a listing whose transaction rolled back (or, in a test, another database
  // this process used before). The same row again: the walk this process already runs. String() of a double reads
  // back as that same double.
  const known = listings.get(params.symbol)?.instrument;
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = known?.id ?? (await nextId(db));
    await withPriceRecord(db)
      .insertInto('listed_coins')
      .values({
        id,
        symbol: params.symbol,
        name: known?.name ?? params.name,
        price_scale: known?.priceScale ?? params.priceScale,
        qty_scale: known?.qtyScale ?? params.qtyScale,
        start_price: known?.startPrice ?? params.startPrice,
        sigma_per_minute: known ? String(known.sigmaPerMinute) : params.sigmaPerMinute,
        trade_size: known ? String(known.tradeSize) : params.tradeSize,
        listed_at: listings.get(params.symbol)?.listedAt ?? params.listedAt,
        created_at: Date.now(),
      })
      // Another process listing at the same moment takes the symbol or the id first: no error (which would abort a
      // PostgreSQL transaction), read what is there instead.
      .onConflict((oc) => oc.doNothing())
      .execute();
    const row = await rowOf(db, params.symbol);
    if (row) return registerRow(row, listings);
  }
  throw new Error(`listing ${params.symbol}: no free instrument id`);
}

/**
 * Registers every row of `listed_coins` that `registry` does not know yet (its listeners, the feeds and the ledger,
 * hear of each); returns the coins new to it. A server process calls it before its feed is built and then polls it.
 */
export async function loadListedCoins(
  db: Kysely<Database>,
  registry: InstrumentListings = listings,
): Promise<ListedInstrument[]> {
  const rows = await withPriceRecord(db).selectFrom('listed_coins').selectAll().orderBy('id').execute();
  const added: ListedInstrument[] = [];
  for (const row of rows) {
    if (registry.get(row.symbol)) continue;
    registerRow(row, registry);
    const listed = registry.get(row.symbol);
    if (listed) added.push(listed);
  }
  return added;
}

/** A row as the instrument every process builds from it: the same numbers, so the same walk. */
export function instrumentOfRow(row: ListedCoinRow): Instrument {
  return {
    id: row.id,
    symbol: row.symbol,
    name: row.name,
    kind: 'coin',
    quote: 'USDT',
    priceScale: row.price_scale,
    qtyScale: row.qty_scale,
    startPrice: row.start_price,
    // Model parameters of the walk, not money: the float each process reads from the same text is the same.
    sigmaPerMinute: Number(row.sigma_per_minute),
    tradeSize: Number(row.trade_size),
    hours: 'always',
  };
}

function registerRow(row: ListedCoinRow, registry: InstrumentListings): Instrument {
  const instrument = instrumentOfRow(row);
  registry.register(instrument, Number(row.listed_at));
  return registry.get(row.symbol)?.instrument ?? instrument;
}

function rowOf(db: Kysely<Database>, symbol: string): Promise<ListedCoinRow | undefined> {
  return withPriceRecord(db).selectFrom('listed_coins').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

/**
 * Above the table's ids and every id this process has registered: they are the same ids in a server process, but a
 * process that has seen another database (a test running SQLite and then PostgreSQL) must not give one id twice.
 */
async function nextId(db: Kysely<Database>): Promise<number> {
  const row = await withPriceRecord(db)
    .selectFrom('listed_coins')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  const stored = row?.id === null || row?.id === undefined ? 0 : Number(row.id);
  const registered = listings.all().map((l) => l.instrument.id);
  return Math.max(LISTED_ID_BASE - 1, stored, ...registered) + 1;
}
