import { useState, useSyncExternalStore } from 'react';
import { serverNow } from '../../core/clock';

/**
 * One ticking server clock per redraw period, shared by every countdown that asks for that period: a list of running
 * contracts redraws from one timer, not one per row, and all its countdowns step together.
 */
interface Ticker {
  subscribe: (redraw: () => void) => () => void;
  read: () => number;
}

const tickers = new Map<number, Ticker>();

function tickerOf(everyMs: number): Ticker {
  const known = tickers.get(everyMs);
  if (known) return known;
  const redraws = new Set<() => void>();
  let now = serverNow();
  let timer: ReturnType<typeof setInterval> | undefined;
  const ticker: Ticker = {
    subscribe(redraw) {
      redraws.add(redraw);
      if (timer === undefined) {
        now = serverNow();
        timer = setInterval(() => {
          now = serverNow();
          for (const r of redraws) r();
        }, everyMs);
      }
      return () => {
        redraws.delete(redraw);
        if (redraws.size === 0 && timer !== undefined) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    read() {
      // Not ticking (no countdown on screen yet): catch up once a period has passed, so a countdown that starts now
      // does not begin from an old reading; repeated reads in one render still agree.
      if (timer === undefined && serverNow() - now >= everyMs) now = serverNow();
      return now;
    },
  };
  tickers.set(everyMs, ticker);
  return ticker;
}

const still = () => () => undefined;

/**
 * Server time now (core/clock.ts), redrawn every `everyMs` while `active`: countdowns and the "is it due?" of lists
 * read it, never the device clock, so a device that is minutes off still shows the server's times. While not active
 * it keeps the time it was first drawn with.
 */
export function useServerNow(active = true, everyMs = 1_000): number {
  const [drawn] = useState(serverNow);
  const ticker = tickerOf(everyMs);
  return useSyncExternalStore(active ? ticker.subscribe : still, active ? ticker.read : () => drawn);
}
