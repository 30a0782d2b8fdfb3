import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { decimalString, symbolField } from './market';

/**
 * The price record (RULES.md "Common ground"): every published tick, chained per batch by hashes so that it cannot
 * be rewritten silently. Fills and settlements name the tick they used by instrument and sequence number.
 */

/** One recorded tick: what every fill, settlement and trigger stores and shows. */
export const recordedTick = z.object({
  symbol: z.string(),
  /** Per-instrument sequence number, stable across restarts. */
  seq: z.number().check(z.int()),
  /** Server time of the tick, ms since the epoch. */
  ts: z.number().check(z.int()),
  price: decimalString,
});
export type RecordedTick = z.infer<typeof recordedTick>;

/** A sha256 as 64 lowercase hex digits (digests and hashes of the chain, protocol/rules/price-record.ts). */
export const hexHash = z.string().check(z.regex(/^[0-9a-f]{64}$/));

/** Most batches one `market/chain/links` call returns: an hour of one-second batches. */
export const MAX_CHAIN_LINKS = 3_600;

/** A whole number sent as form text (batch ids, sequence numbers). */
const wholeField = z.pipe(
  z.string({ error: 'invalidInput' }).check(z.regex(/^\d{1,15}$/, { error: 'invalidInput' })),
  z.transform(Number),
);

/** market/chain/head: the newest batch; all null while the record is empty. */
export const chainHeadResponse = z.object({
  batch_id: z.nullable(z.number().check(z.int(), z.positive())),
  hash: z.nullable(hexHash),
  /** Server time of the newest tick in that batch. */
  to_ts: z.nullable(z.number().check(z.int())),
});
export type ChainHead = z.infer<typeof chainHeadResponse>;

export const chainBatch = z.object({
  id: z.number().check(z.int(), z.positive()),
  from_ts: z.number().check(z.int()),
  to_ts: z.number().check(z.int()),
  prev_hash: hexHash,
  digest: hexHash,
  hash: hexHash,
});
export type ChainBatch = z.infer<typeof chainBatch>;

export const chainPart = z.object({ symbol: z.string(), digest: hexHash });

/** market/chain/record: the batch that holds the tick `symbol`:`seq` (error `tickNotRecorded` until it is sealed). */
export const chainRecordRequest = z.object({ symbol: symbolField, seq: wholeField });
export const chainRecordResponse = z.object({
  batch: chainBatch,
  /** That symbol's ticks in the batch, by seq: the client recomputes their digest. */
  ticks: z.array(recordedTick),
  /** Every symbol's digest in the batch, by symbol: with the recomputed one they give the batch digest. */
  parts: z.array(chainPart),
});
export type ChainRecord = z.infer<typeof chainRecordResponse>;

/** market/chain/links: batches from_id+1 .. to_id (at most MAX_CHAIN_LINKS), to fold a batch's hash up to the head. */
export const chainLinksRequest = z.object({ from_id: wholeField, to_id: wholeField }).check(
  z.superRefine((v, ctx) => {
    if (v.to_id < v.from_id) ctx.addIssue({ code: 'custom', message: 'invalidInput', path: ['to_id'] });
    else if (v.to_id - v.from_id > MAX_CHAIN_LINKS) {
      ctx.addIssue({ code: 'custom', message: 'chainRangeTooLarge', path: ['to_id'] });
    }
  }),
);
export const chainLink = z.object({ id: z.number().check(z.int(), z.positive()), digest: hexHash, hash: hexHash });
export const chainLinksResponse = z.array(chainLink);
export type ChainLink = z.infer<typeof chainLink>;

/** Ticks market/chain/ticks returns without a range: the newest ones, a few minutes at one tick a second. */
export const RECENT_TICKS = 300;
/** Most ticks one market/chain/ticks range returns: a longer range comes thinned to every `step`-th tick. */
export const MAX_RANGE_TICKS = 1_200;

/**
 * market/chain/ticks: one symbol's recorded ticks, oldest first. Without a range, the newest RECENT_TICKS (a live
 * chart opens with them); with `from_seq` and `to_seq`, the ticks between them, both ends included (a settled
 * contract's entry to its exit). A range holding more than MAX_RANGE_TICKS is thinned to every `step`-th tick from
 * `from_seq` on, its last tick always kept: each tick returned is still one the record holds, exactly.
 */
export const chainTicksRequest = z
  .object({ symbol: symbolField, from_seq: z.optional(wholeField), to_seq: z.optional(wholeField) })
  .check(
    z.superRefine((v, ctx) => {
      if ((v.from_seq === undefined) !== (v.to_seq === undefined)) {
        ctx.addIssue({
          code: 'custom',
          message: 'invalidInput',
          path: [v.from_seq === undefined ? 'from_seq' : 'to_seq'],
        });
      } else if (v.from_seq !== undefined && v.to_seq !== undefined && v.to_seq < v.from_seq) {
        ctx.addIssue({ code: 'custom', message: 'invalidInput', path: ['to_seq'] });
      }
    }),
  );
export const chainTicksResponse = z.object({
  symbol: z.string(),
  ticks: z.array(recordedTick),
  /** 1, or the stride a long range was thinned to. */
  step: z.number().check(z.int(), z.positive()),
});
export type ChainTicks = z.infer<typeof chainTicksResponse>;

/** The price record's public calls: no session, anyone may check the record. */
export const priceRecordCalls = {
  'market/chain/head': call('GET', false, none, chainHeadResponse),
  'market/chain/record': call('GET', false, chainRecordRequest, chainRecordResponse),
  'market/chain/links': call('GET', false, chainLinksRequest, chainLinksResponse),
  'market/chain/ticks': call('GET', false, chainTicksRequest, chainTicksResponse),
} as const;
