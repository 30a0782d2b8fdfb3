import { fetchChainHead, fetchChainLinks, fetchChainRecord } from '../api/price-record';
import type { RecordFetchers } from './record';

/** The price record could not be reached (no answer, or an answer that is not the contract's): nothing was decided. */
export class RecordUnreachable extends Error {
  override name = 'RecordUnreachable';
  constructor(readonly call: string) {
    super(`price record unreachable: ${call}`);
  }
}

function answered<T>(call: string, r: T | false): T {
  if (r === false) throw new RecordUnreachable(call);
  return r;
}

/** recheckFill's fetchers over the server's market/chain/* calls (core/api/price-record.ts). */
export const apiRecordFetchers: RecordFetchers = {
  head: async () => answered('market/chain/head', await fetchChainHead()),
  record: async (symbol, seq) => {
    const r = answered('market/chain/record', await fetchChainRecord(symbol, seq));
    return r === 'not_sealed' ? null : r;
  },
  links: async (fromId, toId) => answered('market/chain/links', await fetchChainLinks(fromId, toId)),
};
