import { describe, expect, it } from 'vitest';
import { candle, quote, trade } from '../../protocol/market';
import { MarketFeed } from './feed';
import { MarketSimulator } from './simulator';

const T0 = Date.UTC(2024, 5, 4, 12, 0, 0);

describe('market feed', () => {
  it('has 7 days of history from the first start, on every timeframe, within bounded memory', () => {
    let now = T0;
    // How fast the week is built is the market benchmarks' business, not an assertion here (a busy machine is slow).
    const feed = new MarketFeed(new MarketSimulator({ seed: 'feed', now: () => now }), () => now);
    const oneMin = feed.candles('BTC', '1min', 5_000);
    expect(oneMin.length).toBe(2_880); // capped at two days
    expect(feed.candles('BTC', '5min', 5_000).length).toBe(2_016); // 7 days
    expect(feed.candles('BTC', '1day', 100).length).toBeGreaterThanOrEqual(7);
    for (const period of ['30min', '60min', '1week', '1mon', 'timeshare'] as const) {
      expect(feed.candles('ETH', period, 10).length).toBeGreaterThan(0);
    }
    for (const c of oneMin.slice(-50)) candle.parse(c);
    expect(feed.candles('AAPL', '1min', 10).length).toBe(10); // stocks traded in last week's sessions
    const q = quote.parse(feed.quote('BTC'));
    expect(q.ts).toBeLessThan(T0);
    now += 5_000;
    (feed.source as MarketSimulator).advanceTo(now);
    expect(feed.quote('BTC')?.ts).toBe(now);
    const trades = feed.trades('BTC', 10);
    expect(trades).toHaveLength(10);
    for (const t of trades) trade.parse(t);
    expect(trades[0]?.ts).toBe(now); // newest first
    expect(feed.quote('NOPE')).toBeUndefined();
  });
});
