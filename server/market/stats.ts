import type { Bar } from './candles';

export const DAY_MS = 86_400_000;

/** 24 h statistics in integer units (prices in ticks, volume in quantity units). */
export interface Stats24h {
  open: number;
  high: number;
  low: number;
  last: number;
  volume: number;
  /** Change of last against open in hundredths of a percent (basis points), rounded half away from zero. */
  changeBp: number;
}

/**
 * Statistics over the 1-minute bars that started in the last 24 h (`bars` oldest first). With no bar in the
 * window (a stock over a weekend) the window is the last bar alone, so open = last and the change is 0.
 */
export function stats24h(bars: readonly Bar[], now: number): Stats24h | undefined {
  const newest = bars[bars.length - 1];
  if (!newest) return undefined;
  const from = now - DAY_MS;
  let open: number | undefined;
  let high = 0;
  let low = Number.POSITIVE_INFINITY;
  let volume = 0;
  for (const bar of bars) {
    if (bar.t < from) continue;
    open ??= bar.o;
    if (bar.h > high) high = bar.h;
    if (bar.l < low) low = bar.l;
    volume += bar.v;
  }
  if (open === undefined) {
    return { open: newest.c, high: newest.c, low: newest.c, last: newest.c, volume: 0, changeBp: 0 };
  }
  return { open, high, low, last: newest.c, volume, changeBp: changeBasisPoints(open, newest.c) };
}

/** (last - open) / open in basis points, exact integer arithmetic, rounded half away from zero. */
export function changeBasisPoints(open: number, last: number): number {
  if (open === 0) return 0;
  const num = BigInt(last - open) * 10_000n;
  const den = BigInt(open);
  const q = num / den;
  const r = num % den;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= den) return Number(q + (num < 0n ? -1n : 1n));
  return Number(q);
}

/** Basis points as a percent string with two decimals: 125 → '1.25', -5 → '-0.05'. */
export function formatPercent(bp: number): string {
  const sign = bp < 0 ? '-' : '';
  const abs = Math.abs(bp);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
