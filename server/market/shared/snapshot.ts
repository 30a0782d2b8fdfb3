import { z } from 'zod/mini';
import type { FeedState } from '../feed';
import type { SimulatorState } from '../simulator';

/** What makes every process's simulator the same: its seed and its live start (see MarketSimulator). */
export interface MarketOrigin {
  seed: string;
  liveStart: number;
  /** Per symbol, the sequence number the market's ticks continue above (the price record's last when it started). */
  seqBase?: Record<string, number>;
}

/**
 * The leader's state of the shared market at one moment, kept in Redis so that a process joining a running market
 * starts there instead of replaying every simulated step since the origin (about 1.7 s of start-up per day of
 * uptime with every instrument). It is consistent by construction: the leader takes it between two event-loop
 * turns, when its feed has applied every tick its simulator produced.
 *
 * - `simulator`: the walk's state (RNG words, log price and volatility, sequence numbers, next step), so the
 *   joining process's stand-by simulator, and a new leader after a failover, continue the same walk and the
 *   same sequence numbers: a (symbol, seq) of the price record never gets another price.
 * - `feed`: what the feed serves (last tick, recent trades, bounded bars of every timeframe).
 * - `seqs`: the last sequence number the leader applied per symbol (live exchange coins included).
 */
export interface MarketSnapshot {
  version: 1;
  origin: MarketOrigin;
  takenAt: number;
  seqs: Record<string, number>;
  simulator: SimulatorState;
  feed: FeedState;
}

const int = z.number().check(z.int(), z.refine(Number.isSafeInteger));
const TickSchema = z.object({
  symbol: z.string().check(z.minLength(1)),
  instrumentId: int,
  ts: int,
  price: int,
  qty: int,
  side: z.enum(['buy', 'sell']),
  seq: int,
});
// Bars are long flat arrays (a few thousand bars of six integers per timeframe): one loop, not a schema per number.
const IntArray = z.pipe(
  z
    .array(z.unknown())
    .check(
      z.refine((a) => a.length % 6 === 0 && a.every((n) => Number.isSafeInteger(n)), 'bars: six integers per bar'),
    ),
  z.transform((a) => a as number[]),
);
const Timeframes = z.enum(['1min', '5min', '30min', '60min', '1day', '1week', '1mon']);

const SnapshotSchema = z.object({
  version: z.literal(1),
  origin: z.object({ seed: z.string(), liveStart: int }),
  takenAt: int,
  seqs: z.record(z.string(), int),
  simulator: z.object({
    stepMs: int,
    nextStep: int,
    walks: z.array(
      z.object({
        symbol: z.string(),
        seq: int,
        walk: z.object({
          rng: z.tuple([int, int, int, int]),
          // Floats of the model (not money): they must come back as the same doubles, which JSON guarantees.
          logPrice: z.number(),
          logVol: z.number(),
          // A listed coin's walk before its listing trade (see Walk.open).
          opened: z.optional(z.literal(false)),
        }),
      }),
    ),
  }),
  feed: z.object({
    instruments: z.array(
      z.object({
        symbol: z.string(),
        last: z.optional(TickSchema),
        trades: z.array(TickSchema),
        bars: z.partialRecord(Timeframes, IntArray),
      }),
    ),
  }),
});

export function encodeSnapshot(snapshot: MarketSnapshot): string {
  return JSON.stringify(snapshot);
}

/** The snapshot in `json` when it is one of `origin`'s market, else undefined (the caller replays instead). */
export function decodeSnapshot(json: string, origin: MarketOrigin): MarketSnapshot | undefined {
  try {
    const parsed = SnapshotSchema.safeParse(JSON.parse(json));
    if (!parsed.success) return undefined;
    const snapshot = parsed.data as MarketSnapshot;
    if (snapshot.origin.seed !== origin.seed || snapshot.origin.liveStart !== origin.liveStart) return undefined;
    return snapshot;
  } catch {
    return undefined;
  }
}
