import { z } from 'zod/mini';
import { call, none } from './call-spec';
import { instrumentsResponse, quotesResponse } from './market';
/**
 * The market as the server writes it into the home page it serves (issue 27, prices at first paint): the coin quotes
 * and every instrument's facts at `served_at` (server time, ms), in an inline JSON script of this id. The app seeds its
 * quote board and instrument list from it, so its first render shows current prices without waiting for a socket.
 */
export const marketSnapshot = z.object({
  served_at: z.number().check(z.int(), z.nonnegative()),
  quotes: quotesResponse,
  instruments: instrumentsResponse,
});
export type MarketSnapshot = z.infer<typeof marketSnapshot>;
export const MARKET_SNAPSHOT_ID = 'tw-market';
/** Where the build leaves room for the snapshot in index.html (the server fills it; a cached copy keeps it empty). */
export const MARKET_SNAPSHOT_MARK = '<!--tw:market-->';

/**
 * The same snapshot as a call, for a page that came without one: the service worker's cached copy of the home page
 * asks for it at once (src/first-paint/market.ts), so a repeat visit shows prices without waiting for the app.
 */
export const marketSnapshotCalls = {
  'market/snapshot': call('GET', false, none, marketSnapshot),
} as const;
