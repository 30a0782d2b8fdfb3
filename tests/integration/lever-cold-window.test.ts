import { describe, expect, it, vi } from 'vitest';
import { withLever } from '../../server/domains/lever';
import { MarketFeed } from '../../server/market/feed';
import { HandMarket } from './hand-market';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, uniqueEmail } from './harness';

/**
 * An open judges the account's other cross positions at their marks (RULES "Cross margin": money that backs cross
 * positions stays). A lever engine that has just taken over (a new process, or a lease moved after a kill) has no
 * tick of a quiet symbol in its window yet; the process's market still knows that symbol's price. The open is judged
 * at that price, as a transfer is, instead of taking the position for unpriced and cancelling the open as
 * `insufficient_margin` (the failover review's finding).
 */
describe.each(DATABASES)('lever open on an engine whose window lacks a cross symbol (%s)', (kind) => {
  it('opens, judging the other cross position at the price the process knows', async () => {
    const database = await openTestDatabase(kind);
    const db = database.handle.db;
    const market = new HandMarket(['BTC', 'ETH']);
    const feedA = new MarketFeed(market);
    const a = await startTestApp(database.handle, { market: { feed: feedA, record: { flushMs: 50 } } });
    let feedB: MarketFeed | undefined;
    let b: TestApp | undefined;
    let aClosed = false;
    const trade = (app: TestApp, symbol: string, price: string) => {
      app.clock.advance(1_000);
      return market.trade(symbol, price, app.clock.now());
    };
    const submit = (app: TestApp, token: string, symbol: string, requestId: string) =>
      app.call(
        'lever/submit',
        {
          symbol,
          side: 'long',
          type: 'market',
          margin_mode: 'cross',
          lots: '1',
          leverage: '10',
          account: 'simulator',
          request_id: requestId,
        },
        { token },
      );
    const phaseOf = async (id: number) =>
      (
        await withLever(db)
          .selectFrom('lever_positions')
          .select(['phase', 'cancel_reason'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).phase;
    try {
      const session = await a.registerByEmail(uniqueEmail('cold-window'));
      trade(a, 'BTC', '60000.00');
      const first = await submit(a, session.token, 'BTC', 'cold-btc');
      expect(first.body.type, first.body.message).toBe('ok');
      const btcId = (first.body.data as { id: number }).id;
      trade(a, 'BTC', '60000.00');
      await vi.waitFor(async () => expect(await phaseOf(btcId)).toBe('holding'), { timeout: 20_000, interval: 20 });
      await a.close();
      aClosed = true;

      // B's market sees a BTC tick before B's lever engine exists: the process knows BTC's price, the engine's window
      // will hold no BTC tick until BTC trades again.
      feedB = new MarketFeed(market);
      market.trade('BTC', '60010.00', a.clock.now() + 500);
      expect(feedB.quote('BTC')?.last).toBe('60010.00');
      b = await startTestApp(database.handle, { market: { feed: feedB, record: { flushMs: 50 } } });
      // B's clock is at least A's, so its acceptances and ticks come after everything A did.
      const behind = a.clock.now() + 1_000 - b.clock.now();
      if (behind > 0) b.clock.advance(behind);

      trade(b, 'ETH', '3000.00');
      const second = await submit(b, session.token, 'ETH', 'cold-eth');
      expect(second.body.type, second.body.message).toBe('ok');
      const ethId = (second.body.data as { id: number }).id;
      trade(b, 'ETH', '3000.00');
      await vi.waitFor(async () => expect(await phaseOf(ethId)).not.toBe('waiting'), { timeout: 20_000, interval: 20 });
      const eth = await withLever(db)
        .selectFrom('lever_positions')
        .select(['phase', 'cancel_reason', 'entry_price'])
        .where('id', '=', ethId)
        .executeTakeFirstOrThrow();
      expect(eth).toMatchObject({ phase: 'holding', cancel_reason: null, entry_price: '3000.00' });
    } finally {
      await b?.close();
      feedB?.close();
      if (!aClosed) await a.close();
      feedA.close();
      await database.close();
    }
  });
});
