import {
  type ChainHead,
  type ChainLink,
  type ChainRecord,
  type ChainTicks,
  priceRecordCalls,
} from '../../protocol/price-record';
import { areaApi } from './client';

const { callApi, callApiResult } = areaApi(priceRecordCalls);

/**
 * The price record's public calls (market/chain/*): the head hash, the batch that sealed a tick, and the links
 * between two batches, so the client can re-check a fill (core/recheck/fill.ts). They run in the background of a
 * fill's detail, whose mark says how the check went, so they are quiet: no toast, no loading bar.
 */
const background = { quiet: true, loading: false } as const;

/** The newest sealed batch and its hash (all null while the record is empty). */
export function fetchChainHead(): Promise<ChainHead | false> {
  return callApi('market/chain/head', {}, background);
}

/**
 * The batch that holds the tick `symbol`:`seq` with that symbol's ticks and every symbol's digest; 'not_sealed' while
 * the recorder has not sealed it yet (about a second after the tick), false when no answer came.
 */
export async function fetchChainRecord(symbol: string, seq: number): Promise<ChainRecord | 'not_sealed' | false> {
  const r = await callApiResult('market/chain/record', { symbol, seq: String(seq) }, background);
  if (r.ok) return r.data;
  // The server's one refusal of a well-formed seq is `tickNotRecorded`, pointed at that field (its message is in
  // the user's language, so the field is what tells it from a network failure, which has none).
  return r.field === 'seq' ? 'not_sealed' : false;
}

/** Batches from_id+1 .. to_id, each with its digest and hash (at most MAX_CHAIN_LINKS per call). */
export function fetchChainLinks(fromId: number, toId: number): Promise<ChainLink[] | false> {
  return callApi('market/chain/links', { from_id: String(fromId), to_id: String(toId) }, background);
}

/**
 * One symbol's recorded ticks, oldest first: the newest few hundred, or those of `range` (from and to seq, both
 * included; a long range comes thinned, its `step` says to what). The charts draw them, quietly like every read here.
 */
export function fetchRecordedTicks(symbol: string, range?: { from: number; to: number }): Promise<ChainTicks | false> {
  return callApi(
    'market/chain/ticks',
    range ? { symbol, from_seq: String(range.from), to_seq: String(range.to) } : { symbol },
    background,
  );
}
