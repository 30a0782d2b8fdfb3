import { type Kysely, sql } from 'kysely';
import {
  type ChainBatch,
  type ChainHead,
  type ChainLink,
  type ChainTicks,
  MAX_CHAIN_LINKS,
  MAX_RANGE_TICKS,
  RECENT_TICKS,
} from '../../protocol/price-record';
import {
  type ChainTick,
  chainHash,
  type DigestPart,
  digestParts,
  GENESIS_HASH,
  symbolDigest,
  ticksDigest,
} from '../../protocol/rules/price-record';
import type { Database } from '../platform/db/schema';
import { instrumentBySymbol } from './instruments';
import type { NewPriceTick } from './tables';
import { withPriceRecord } from './tables';

/**
 * The price record's hash chain (RULES.md "Common ground", encoding in protocol/rules/price-record.ts): sealing a
 * flush into a batch, pinning the ticks that orders use, retention that keeps pinned batches whole, the reads behind
 * the public `market/chain/*` calls and the full check behind `npm run ops -- market verify`.
 */

/** Rows per insert statement: well under SQLite's bound-parameter limit (6 columns per row). */
const INSERT_ROWS = 500;

/** A tick left unsealed this long (its recorder flush was lost when a leader died) goes into the next batch. */
export const SEAL_ORPHANS_AFTER_MS = 5_000;

export interface SealedBatch {
  id: number;
  prev_hash: string;
  hash: string;
  tick_count: number;
}

/** One (symbol, seq) once: a flush never inserts the same key twice (PostgreSQL refuses that in one upsert). */
function distinctTicks(rows: readonly NewPriceTick[]): NewPriceTick[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.symbol}:${r.seq}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Writes `rows` and seals them into the next batch, inside the caller's write transaction (one writer at a time:
 * BEGIN IMMEDIATE on SQLite; on PostgreSQL two writers meet at the batch's primary key and one rolls back, so the
 * chain never forks or skips a number). The batch is numbered and linked from the last stored batch, read here,
 * so a new leader continues the chain of the one before it.
 *
 * A row already recorded and unsealed (inserted by pinTick) joins this batch; one already sealed keeps its batch
 * (the same tick published again after a restart must not change an earlier batch's digest). Pinned ticks left
 * unsealed for SEAL_ORPHANS_AFTER_MS join it too. The digest is computed from the rows as stored, so it always
 * matches what a later check reads. Returns null when there was nothing to seal.
 */
export async function sealBatch(
  trx: Kysely<Database>,
  rows: readonly NewPriceTick[],
  now: number,
  sealOrphansAfterMs = SEAL_ORPHANS_AFTER_MS,
): Promise<SealedBatch | null> {
  const last = await withPriceRecord(trx)
    .selectFrom('price_batches')
    .select(['id', 'hash'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const id = (last?.id ?? 0) + 1;
  const prevHash = last?.hash ?? GENESIS_HASH;
  const fresh = distinctTicks(rows);
  for (let k = 0; k < fresh.length; k += INSERT_ROWS) {
    await withPriceRecord(trx)
      .insertInto('price_ticks')
      .values(fresh.slice(k, k + INSERT_ROWS).map((r) => ({ ...r, batch_id: id })))
      .onConflict((oc) =>
        oc.columns(['symbol', 'seq']).doUpdateSet({ batch_id: id }).where('price_ticks.batch_id', 'is', null),
      )
      .execute();
  }
  // Only pinned orphans: rows from before the chain existed have no batch and no pin, and simply age out.
  await withPriceRecord(trx)
    .updateTable('price_ticks')
    .set({ batch_id: id })
    .where('batch_id', 'is', null)
    .where('ts', '<', now - sealOrphansAfterMs)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('price_pins as p')
          .select('p.owner')
          .whereRef('p.symbol', '=', 'price_ticks.symbol')
          .whereRef('p.seq', '=', 'price_ticks.seq'),
      ),
    )
    .execute();
  const ticks = await batchTicks(trx, id);
  if (!ticks.length) return null;
  const digest = ticksDigest(ticks);
  const hash = chainHash(prevHash, digest);
  let fromTs = Number.POSITIVE_INFINITY;
  let toTs = Number.NEGATIVE_INFINITY;
  for (const t of ticks) {
    fromTs = Math.min(fromTs, t.ts);
    toTs = Math.max(toTs, t.ts);
  }
  await withPriceRecord(trx)
    .insertInto('price_batches')
    .values({
      id,
      from_ts: fromTs,
      to_ts: toTs,
      tick_count: ticks.length,
      digest,
      prev_hash: prevHash,
      hash,
      created_at: now,
    })
    .execute();
  return { id, prev_hash: prevHash, hash, tick_count: ticks.length };
}

/** A batch's ticks, by symbol and seq. */
function batchTicks(db: Kysely<Database>, batchId: number): Promise<ChainTick[]> {
  return withPriceRecord(db)
    .selectFrom('price_ticks')
    .select(['symbol', 'seq', 'ts', 'price'])
    .where('batch_id', '=', batchId)
    .orderBy('symbol')
    .orderBy('seq')
    .execute();
}

/**
 * Deletes the ticks of batches that ended before `cutoff`, except batches holding a pinned tick: those stay whole
 * so their digest can still be recomputed. Unsealed rows past the cutoff (from before the chain) go unless pinned.
 * Batch rows are never deleted: the chain stays checkable from genesis.
 */
export async function pruneTicks(db: Kysely<Database>, cutoff: number): Promise<void> {
  // Batches below the oldest one still holding ticks are gone already: the range keeps the query small.
  const oldest = await withPriceRecord(db)
    .selectFrom('price_ticks')
    .select((eb) => eb.fn.min('batch_id').as('id'))
    .executeTakeFirst();
  const lo = oldest?.id;
  if (lo !== null && lo !== undefined) {
    await withPriceRecord(db)
      .deleteFrom('price_ticks')
      .where('batch_id', 'in', (eb) =>
        eb.selectFrom('price_batches').select('id').where('id', '>=', Number(lo)).where('to_ts', '<', cutoff),
      )
      .where('batch_id', 'not in', (eb) =>
        eb
          .selectFrom('price_pins as p')
          .innerJoin('price_ticks as t', (j) => j.onRef('t.symbol', '=', 'p.symbol').onRef('t.seq', '=', 'p.seq'))
          .select('t.batch_id')
          // NOT IN over a list holding a null is never true: leave the unsealed ones out.
          .where('t.batch_id', 'is not', null),
      )
      .execute();
  }
  await withPriceRecord(db)
    .deleteFrom('price_ticks')
    .where('batch_id', 'is', null)
    .where('ts', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('price_pins as p')
            .select('p.owner')
            .whereRef('p.symbol', '=', 'price_ticks.symbol')
            .whereRef('p.seq', '=', 'price_ticks.seq'),
        ),
      ),
    )
    .execute();
}

export interface PinnedTick {
  symbol: string;
  seq: number;
  ts: number;
  price: string;
}

/**
 * Marks a tick as used by `owner` (e.g. 'spot:123'), inside the caller's transaction (the one that stores the
 * fill or settlement). Also records the tick itself when the recorder has not flushed it yet, so a referenced tick
 * is in the record whatever happens to the recorder's buffer; the recorder seals it into a batch. Throws when the
 * record already holds this (symbol, seq) with another time or price: the order would name a tick that is not the
 * recorded one.
 */
export async function pinTick(trx: Kysely<Database>, tick: PinnedTick, owner: string): Promise<void> {
  await pinTicks(trx, tick, [owner]);
}

/**
 * `pinTick` for many owners of the same tick (the fills of one tick, settled together): the tick is recorded and
 * checked once, the pins inserted in bulk.
 */
export async function pinTicks(trx: Kysely<Database>, tick: PinnedTick, owners: readonly string[]): Promise<void> {
  if (owners.length === 0) return;
  const instrument = instrumentBySymbol(tick.symbol);
  if (!instrument) throw new Error(`pinTick: unknown instrument ${tick.symbol}`);
  // Refuse here what the chain's encoding cannot carry: once stored, such a row would fail every later seal.
  symbolDigest([tick]);
  await withPriceRecord(trx)
    .insertInto('price_ticks')
    .values({
      instrument_id: instrument.id,
      symbol: tick.symbol,
      seq: tick.seq,
      ts: tick.ts,
      price: tick.price,
      batch_id: null,
    })
    .onConflict((oc) => oc.columns(['symbol', 'seq']).doNothing())
    .execute();
  const stored = await withPriceRecord(trx)
    .selectFrom('price_ticks')
    .select(['ts', 'price'])
    .where('symbol', '=', tick.symbol)
    .where('seq', '=', tick.seq)
    .executeTakeFirstOrThrow();
  if (stored.ts !== tick.ts || stored.price !== tick.price) {
    throw new Error(`pinTick: ${tick.symbol}:${tick.seq} is recorded as ${stored.price} at ${stored.ts}`);
  }
  const unique = [...new Set(owners)];
  for (let k = 0; k < unique.length; k += INSERT_ROWS) {
    await withPriceRecord(trx)
      .insertInto('price_pins')
      .values(unique.slice(k, k + INSERT_ROWS).map((owner) => ({ symbol: tick.symbol, seq: tick.seq, owner })))
      .onConflict((oc) => oc.columns(['symbol', 'seq', 'owner']).doNothing())
      .execute();
  }
}

/** The newest batch (nulls while the record is empty). */
export async function chainHead(db: Kysely<Database>): Promise<ChainHead> {
  const row = await withPriceRecord(db)
    .selectFrom('price_batches')
    .select(['id', 'hash', 'to_ts'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { batch_id: row.id, hash: row.hash, to_ts: row.to_ts } : { batch_id: null, hash: null, to_ts: null };
}

export interface TickRecord {
  batch: ChainBatch;
  ticks: ChainTick[];
  parts: DigestPart[];
}

/** The batch sealing `symbol`:`seq` with that symbol's ticks and every symbol's digest; null when not sealed (yet). */
export async function tickRecord(db: Kysely<Database>, symbol: string, seq: number): Promise<TickRecord | null> {
  const tick = await withPriceRecord(db)
    .selectFrom('price_ticks')
    .select('batch_id')
    .where('symbol', '=', symbol)
    .where('seq', '=', seq)
    .executeTakeFirst();
  if (tick?.batch_id === null || tick?.batch_id === undefined) return null;
  const batch = await withPriceRecord(db)
    .selectFrom('price_batches')
    .select(['id', 'from_ts', 'to_ts', 'prev_hash', 'digest', 'hash'])
    .where('id', '=', tick.batch_id)
    .executeTakeFirst();
  if (!batch) return null;
  const all = await batchTicks(db, batch.id);
  return { batch, ticks: all.filter((t) => t.symbol === symbol), parts: digestParts(all) };
}

/** Batches from_id+1 .. to_id (at most MAX_CHAIN_LINKS), in order. */
export function chainLinks(db: Kysely<Database>, fromId: number, toId: number): Promise<ChainLink[]> {
  return withPriceRecord(db)
    .selectFrom('price_batches')
    .select(['id', 'digest', 'hash'])
    .where('id', '>', fromId)
    .where('id', '<=', Math.min(toId, fromId + MAX_CHAIN_LINKS))
    .orderBy('id')
    .execute();
}

/**
 * One symbol's recorded ticks, oldest first (protocol/price-record.ts `market/chain/ticks`): the newest RECENT_TICKS,
 * or those of seq `range.from` .. `range.to`, thinned to every `step`-th from `range.from` (its last always kept) when
 * the range is longer than MAX_RANGE_TICKS. Ticks recorded and not sealed yet are included: they are in the record
 * (a pinned entry tick is written before its batch), and the chain's calls re-check them once sealed. One indexed
 * range read on (symbol, seq).
 */
export async function recordedTicks(
  db: Kysely<Database>,
  symbol: string,
  range?: { from: number; to: number },
): Promise<ChainTicks> {
  const base = withPriceRecord(db)
    .selectFrom('price_ticks')
    .select(['symbol', 'seq', 'ts', 'price'])
    .where('symbol', '=', symbol);
  if (!range) {
    const newest = await base.orderBy('seq', 'desc').limit(RECENT_TICKS).execute();
    return { symbol, ticks: newest.reverse(), step: 1 };
  }
  const step = Math.max(1, Math.ceil((range.to - range.from + 1) / MAX_RANGE_TICKS));
  let query = base.where('seq', '>=', range.from).where('seq', '<=', range.to);
  if (step > 1) {
    query = query.where((eb) =>
      eb.or([eb(sql<number>`(${eb.ref('seq')} - ${range.from}) % ${step}`, '=', 0), eb('seq', '=', range.to)]),
    );
  }
  // The bound holds even when the record numbers a symbol's ticks with gaps (a step of one range is at most this many).
  const ticks = await query
    .orderBy('seq')
    .limit(MAX_RANGE_TICKS + 1)
    .execute();
  return { symbol, ticks, step };
}

/**
 * The last recorded seq of each symbol: a live source that numbers its ticks per process starts above these,
 * so (symbol, seq) stays unique across restarts. One indexed lookup per symbol.
 */
export async function lastRecordedSeqs(db: Kysely<Database>, symbols: readonly string[]): Promise<Map<string, number>> {
  const seqs = new Map<string, number>();
  for (const symbol of symbols) {
    const row = await withPriceRecord(db)
      .selectFrom('price_ticks')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('symbol', '=', symbol)
      .executeTakeFirst();
    if (row?.seq !== null && row?.seq !== undefined) seqs.set(symbol, Number(row.seq));
  }
  return seqs;
}

export interface ChainCheck {
  /** Batch rows read. */
  batches: number;
  /** Batches whose digest was recomputed from their ticks. */
  checked: number;
  /** Batches whose ticks retention removed (the link is still checked). */
  pruned: number;
  /** The first thing that does not match, in batch order; null when the record is intact. */
  difference: string | null;
}

/**
 * Recomputes the whole chain: every link from genesis (contiguous ids, prev_hash = the previous hash, hash =
 * chainHash(prev_hash, digest)), and the digest of every batch whose ticks are all present. A batch with some but
 * not all of its ticks is a difference (retention removes a batch's ticks all at once), and so is a pinned tick
 * that is missing. Reads in pages, so the check runs in bounded memory over any length of record.
 */
export async function verifyPriceChain(db: Kysely<Database>, pageSize = 1_000): Promise<ChainCheck> {
  const result: ChainCheck = { batches: 0, checked: 0, pruned: 0, difference: null };
  let prev = { id: 0, hash: GENESIS_HASH };
  for (;;) {
    const page = await withPriceRecord(db)
      .selectFrom('price_batches')
      .selectAll()
      .where('id', '>', prev.id)
      .orderBy('id')
      .limit(pageSize)
      .execute();
    if (!page.length) break;
    const first = page[0]?.id ?? 0;
    const lastId = page[page.length - 1]?.id ?? 0;
    const rows = await withPriceRecord(db)
      .selectFrom('price_ticks')
      .select(['batch_id', 'symbol', 'seq', 'ts', 'price'])
      .where('batch_id', '>=', first)
      .where('batch_id', '<=', lastId)
      .execute();
    const byBatch = new Map<number, ChainTick[]>();
    for (const r of rows) {
      const id = Number(r.batch_id);
      const list = byBatch.get(id);
      const t = { symbol: r.symbol, seq: r.seq, ts: r.ts, price: r.price };
      if (list) list.push(t);
      else byBatch.set(id, [t]);
    }
    for (const b of page) {
      result.batches++;
      if (b.id !== prev.id + 1) return { ...result, difference: `batch ${prev.id + 1} is missing (next is ${b.id})` };
      if (b.prev_hash !== prev.hash)
        return { ...result, difference: `batch ${b.id}: prev_hash is not batch ${prev.id}'s hash` };
      if (chainHash(b.prev_hash, b.digest) !== b.hash)
        return { ...result, difference: `batch ${b.id}: hash does not match its digest` };
      const ticks = byBatch.get(b.id) ?? [];
      if (!ticks.length) result.pruned++;
      else if (ticks.length !== b.tick_count) {
        return { ...result, difference: `batch ${b.id}: holds ${ticks.length} of its ${b.tick_count} ticks` };
      } else {
        let digest: string;
        try {
          digest = ticksDigest(ticks);
        } catch (err) {
          return { ...result, difference: `batch ${b.id}: ${err instanceof Error ? err.message : String(err)}` };
        }
        if (digest !== b.digest) return { ...result, difference: `batch ${b.id}: its ticks do not match its digest` };
        result.checked++;
      }
      prev = { id: b.id, hash: b.hash };
    }
  }
  const lost = await withPriceRecord(db)
    .selectFrom('price_pins as p')
    .leftJoin('price_ticks as t', (j) => j.onRef('t.symbol', '=', 'p.symbol').onRef('t.seq', '=', 'p.seq'))
    .select(['p.symbol', 'p.seq', 'p.owner'])
    .where('t.id', 'is', null)
    .orderBy('p.symbol')
    .orderBy('p.seq')
    .limit(1)
    .executeTakeFirst();
  if (lost) return { ...result, difference: `tick ${lost.symbol}:${lost.seq} pinned by ${lost.owner} is missing` };
  return result;
}
