import type { priceRecordCalls } from '../../../protocol/price-record';
import { chainHead, chainLinks, recordedTicks, tickRecord } from '../../market';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import type { CallHandlers } from '../../platform/http/calls';

/**
 * The price record's public calls (no session: anyone may check the record, RULES.md "Common ground"): the head
 * hash, the batch that seals a tick, and the links between two batches, so a client folds a fill's batch up to the
 * head with protocol/rules/price-record.ts; and one symbol's recorded ticks, which the option charts draw.
 */
export function priceChainHandlers(database: DatabaseHandle): CallHandlers<typeof priceRecordCalls> {
  const { db } = database;
  return {
    'market/chain/head': async () => chainHead(db),
    'market/chain/record': async (input) => {
      const record = await tickRecord(db, input.symbol, input.seq);
      // Unknown, or recorded but not sealed yet (within a second or so of the tick): the client asks again.
      if (!record) throw new BusinessError('tickNotRecorded', { field: 'seq' });
      return record;
    },
    'market/chain/links': async (input) => chainLinks(db, input.from_id, input.to_id),
    // A symbol the record never held has no ticks: an empty list, like a range before its first tick.
    'market/chain/ticks': async (input) =>
      recordedTicks(
        db,
        input.symbol,
        input.from_seq !== undefined && input.to_seq !== undefined
          ? { from: input.from_seq, to: input.to_seq }
          : undefined,
      ),
  };
}
