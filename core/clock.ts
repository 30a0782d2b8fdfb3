import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';

/**
 * Server time on the client (DESIGN "Money, prices and time": the server is the clock). Countdowns (option expiry,
 * the C2C payment window) run on `serverNow()`, not on the device clock, which may be minutes off.
 *
 * The clock keeps the offset between a local clock and the server's, estimated from timed samples. Every sample
 * bounds the offset: a message stamped `ts` by the server and received locally at `r` was sent before it arrived, so
 * offset >= ts - r (a lower bound; the one-way delay only makes it smaller). A request sent at `s` whose answer was
 * stamped `ts` and received at `r` also gives offset <= ts - s (an upper bound); with both bounds the estimate is the
 * midpoint, which is the classic round-trip midpoint `ts - (s + r) / 2`. An HTTP `Date` header has whole seconds
 * only, so it bounds the offset within [D - r, D + 999 - s]: coarse, but enough to correct a device clock that is
 * minutes off before the socket says anything better.
 *
 * The estimate uses the samples of the last `windowMs` (the tightest lower bound and the tightest upper bound among
 * them), so a slow message does not spoil it and clock drift ages out. The local clock is monotonic where the
 * platform has one (performance.now), so a user changing the device time does not move server time.
 */

export interface ClockSample {
  /** offset >= lo */
  lo: number;
  /** offset <= hi (Infinity when unknown) */
  hi: number;
  /** Local time the sample was taken (for the window). */
  at: number;
}

export interface ServerClockOptions {
  /** The local clock in epoch milliseconds; defaults to a monotonic clock started at the page's wall time. */
  now?: () => number;
  /** Samples older than this are dropped (the newest is always kept). */
  windowMs?: number;
  /** At most this many samples are kept. */
  maxSamples?: number;
}

export interface ServerClock {
  /** The local clock the samples are timed with. */
  localNow(): number;
  /** The server's time now: the local clock plus the offset (the local clock alone before any sample). */
  serverNow(): number;
  /** Milliseconds to add to the local clock to get server time (0 before any sample). */
  offset(): number;
  /** Whether any sample has been taken. */
  synced(): boolean;
  /** The offset, now and whenever it changes by a millisecond or more. */
  readonly offset$: Observable<number>;
  subscribe(listener: (offset: number) => void): () => void;
  /** A message stamped `serverTs` by the server, received at `receivedAt` (default: now). */
  observePush(serverTs: number, receivedAt?: number): void;
  /** An answer stamped `serverTs` to a request sent at `sentAt` and received at `receivedAt` (default: now). */
  observeRoundTrip(serverTs: number, sentAt: number, receivedAt?: number): void;
  /** An HTTP `Date` header (whole seconds) on the answer to a request sent at `sentAt`; ignored when unreadable. */
  observeHttpDate(header: string | null | undefined, sentAt: number, receivedAt?: number): void;
  /** Forgets every sample (tests; a change of server). */
  reset(): void;
}

export const DEFAULT_WINDOW_MS = 60_000;
export const DEFAULT_MAX_SAMPLES = 128;

/** Epoch milliseconds that never jump: the page's start time plus a monotonic counter. */
export function monotonicNow(): () => number {
  const perf = globalThis.performance;
  if (perf && typeof perf.now === 'function' && typeof perf.timeOrigin === 'number') {
    return () => perf.timeOrigin + perf.now();
  }
  return () => Date.now();
}

/**
 * The offset the samples support: the midpoint of [max lo, min hi] when some sample had an upper bound and the
 * bounds agree, else the tightest lower bound; when the bounds contradict each other (a clock stepped, two server
 * processes disagree) the newest sample alone decides. Null without samples.
 */
export function estimateOffset(samples: readonly ClockSample[]): number | null {
  const newest = samples.at(-1);
  if (!newest) return null;
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  for (const s of samples) {
    lo = Math.max(lo, s.lo);
    hi = Math.min(hi, s.hi);
  }
  if (lo > hi) return Number.isFinite(newest.hi) ? (newest.lo + newest.hi) / 2 : newest.lo;
  if (!Number.isFinite(hi)) return lo;
  if (!Number.isFinite(lo)) return hi;
  return (lo + hi) / 2;
}

export function createServerClock(options: ServerClockOptions = {}): ServerClock {
  const now = options.now ?? monotonicNow();
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const maxSamples = options.maxSamples ?? DEFAULT_MAX_SAMPLES;
  let samples: ClockSample[] = [];
  let current = 0;
  const subject = new BehaviorSubject<number>(0);
  const offset$ = subject.pipe(distinctUntilChanged());

  const update = () => {
    const estimate = estimateOffset(samples);
    // Whole milliseconds (the midpoint of two bounds may end in a half): time, never money.
    current = estimate === null ? 0 : Math.floor(estimate);
    subject.next(current);
  };

  const add = (sample: ClockSample) => {
    if (!Number.isFinite(sample.lo) && !Number.isFinite(sample.hi)) return;
    if (sample.lo > sample.hi) return;
    samples.push(sample);
    const oldest = sample.at - windowMs;
    samples = samples.filter((s, i) => i === samples.length - 1 || s.at >= oldest);
    if (samples.length > maxSamples) samples = samples.slice(-maxSamples);
    update();
  };

  return {
    localNow: now,
    serverNow: () => now() + current,
    offset: () => current,
    synced: () => samples.length > 0,
    offset$,
    subscribe(listener) {
      const sub = offset$.subscribe(listener);
      return () => sub.unsubscribe();
    },
    observePush(serverTs, receivedAt = now()) {
      if (!Number.isFinite(serverTs)) return;
      add({ lo: serverTs - receivedAt, hi: Number.POSITIVE_INFINITY, at: receivedAt });
    },
    observeRoundTrip(serverTs, sentAt, receivedAt = now()) {
      if (!Number.isFinite(serverTs) || receivedAt < sentAt) return;
      add({ lo: serverTs - receivedAt, hi: serverTs - sentAt, at: receivedAt });
    },
    observeHttpDate(header, sentAt, receivedAt = now()) {
      if (!header || receivedAt < sentAt) return;
      const date = Date.parse(header);
      if (!Number.isFinite(date)) return;
      add({ lo: date - receivedAt, hi: date + 999 - sentAt, at: receivedAt });
    },
    reset() {
      samples = [];
      update();
    },
  };
}

/** The tab's server clock: the API client and the socket feed it. */
export const serverClock: ServerClock = createServerClock();

/** The server's time now (epoch milliseconds), for countdowns. */
export const serverNow = (): number => serverClock.serverNow();
