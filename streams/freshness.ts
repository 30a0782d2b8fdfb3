import { BehaviorSubject, combineLatest, distinctUntilChanged, map, merge, type Observable, timer } from 'rxjs';

/** How long a price may go without a sign of life before it is shown stale and trading on it stops. */
export const STALE_AFTER_MS = 5_000;
/** How often staleness is re-checked while nothing arrives. */
const CHECK_MS = 500;

/**
 * The age of one stream: the time since its last sign of life (a socket message, or a poll that brought newer
 * prices). The server sends an empty update every 2 s while its feed runs, so silence means the data is stale,
 * not that the market is quiet.
 */
export class Freshness {
  private readonly liveAt = new BehaviorSubject<number | undefined>(undefined);

  constructor(
    readonly limitMs: number = STALE_AFTER_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Marks the stream alive now, or at `at` (a price that was already this old when it arrived, such as a snapshot). */
  touch(at: number = this.now()): void {
    // Never back in time: an old snapshot arriving after live data does not make the stream look older.
    const last = this.liveAt.value;
    if (last === undefined || at > last) this.liveAt.next(at);
  }

  /** Milliseconds since the last sign of life; Infinity before the first. */
  age(): number {
    const at = this.liveAt.value;
    return at === undefined ? Number.POSITIVE_INFINITY : Math.max(0, this.now() - at);
  }

  isStale(): boolean {
    return this.age() > this.limitMs;
  }

  /** True while stale; re-checked on every touch and twice a second. Repeats suppressed. */
  readonly stale$: Observable<boolean> = merge(this.liveAt, timer(0, CHECK_MS)).pipe(
    map(() => this.isStale()),
    distinctUntilChanged(),
  );
}

export interface TradingGate {
  allowed: boolean;
  /** Why trading is off: the prices it would use are stale. */
  reason: 'stale' | null;
}

/**
 * For trading screens: buy, sell, open and close stay disabled while any price they depend on is stale, so no
 * order is placed against a number the trader cannot trust.
 */
export function tradingGate(...streams: readonly Pick<Freshness, 'stale$'>[]): Observable<TradingGate> {
  return combineLatest(streams.map((s) => s.stale$)).pipe(
    map((stale) => stale.some(Boolean)),
    distinctUntilChanged(),
    map((anyStale) => ({ allowed: !anyStale, reason: anyStale ? 'stale' : null })),
  );
}
