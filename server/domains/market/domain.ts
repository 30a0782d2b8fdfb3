import {
  ListingWatcher,
  migration0002,
  migration0009,
  migration0014,
  PriceRecorder,
  type PriceRecordTables,
} from '../../market';
import type { Job } from '../../platform/jobs/runner';
import { defineDomain } from '../contract';
import { marketDomainCalls, marketHandlers } from './calls';
import { marketOps } from './ops';
import type { MarketTables } from './tables';
import { marketRealtime } from './topics';

/**
 * The market's calls and socket topics, the price record and the coins listed at run time. The market itself
 * (server/market) is platform-level; its tables' migrations are registered here, beside its one face to users.
 */
export const marketDomain = defineDomain({
  name: 'market',
  calls: marketDomainCalls,
  migrations: [migration0002, migration0009, migration0014],
  // Favourites are the domain's; the price record and listed coins are the market module's, migrated here.
  tables: (db) => db.withTables<MarketTables & PriceRecordTables>(),
  ops: marketOps,
  start: async (ctx) => {
    const handlers = marketHandlers({ feed: ctx.feed, database: ctx.database, now: ctx.now });
    const { feed } = ctx;
    if (!feed) return { handlers };
    const market = ctx.settings.market;
    const jobs: Job[] = [];
    const closers: Array<() => void | Promise<void>> = [];
    const record = market?.record ?? true;
    if (record) {
      const recorder = new PriceRecorder(ctx.database, feed, {
        now: ctx.now,
        onError: (err) => ctx.log.error({ err }, 'price_ticks flush failed'),
        ...(typeof record === 'object' ? record : {}),
      });
      jobs.push(recorder.job());
      closers.push(() => recorder.close());
    }
    // Coins listed at run time (IEO listings), by this process or another: the feed serves each from its listing on
    // (after the recorder, which records the ticks of their first moments too).
    const listingWatcher = new ListingWatcher(ctx.db, feed);
    await listingWatcher.poll();
    jobs.push(listingWatcher.job());
    closers.push(() => listingWatcher.close());
    return {
      handlers,
      jobs,
      realtime: [marketRealtime(feed, { now: ctx.now, flushMs: market?.flushMs })],
      close: async () => {
        for (const close of closers) await close();
      },
    };
  },
});
