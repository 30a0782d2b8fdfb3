import type { MarketSnapshot } from '../../protocol/market-snapshot';
import type { MarketFeed } from './feed';
import { instrumentInfo } from './instruments';

/**
 * The market as the home page carries it and `market/snapshot` answers it (issue 27, prices at first paint): coin
 * quotes and every instrument's facts from this process's feed, as `currency/quotation_new` and `coin/list` would
 * answer them now.
 */
export function marketSnapshotOf(feed: MarketFeed, now: () => number): MarketSnapshot {
  return { served_at: now(), quotes: feed.quotes('coin'), instruments: feed.instruments().map(instrumentInfo) };
}
