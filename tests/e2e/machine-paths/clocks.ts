import type { BrowserContext } from 'playwright-core';
import type { MarketMode } from '../../../server/clock-hook/hook';
import { STALE_AFTER_MS } from '../../../streams/freshness';
import type { ClockMoved, HookedServer } from '../harness';
import type { PageSockets } from './feed-gate';

/** Page-clock jumps allowed between pings (engine.io: 45 s after a ping, pings every 25 s of real time). */
const JUMP_BUDGET_MS = 15_000;

/**
 * The server's clock (its job clock hook) and the browser's (Playwright's clock, installed on the context before any
 * page loads) moved together: a jump on one is the same jump on the other, so the page's offset estimate
 * (core/clock.ts) never sees the server's time leap against its own, and countdowns, timers and freshness move as
 * they would have over that time.
 */
export class Clocks {
  /** How far the page's clock is ahead of the server's: a page made its prices stale on its own clock. */
  private pageAhead = 0;
  /** How far the page's clock has jumped since the test last pinged its sockets. */
  private jumpedSincePing = 0;

  constructor(
    private readonly server: HookedServer,
    private readonly context: BrowserContext,
    /** The pages' sockets, pinged before the page's clock jumps. */
    readonly sockets: PageSockets,
  ) {}

  /**
   * The page's clock jumps. Its sockets count 45 s from their last ping on this clock, and the server pings every
   * 25 s of real time: as long as the jumps since a ping stay under 20 s, no socket gives up. A longer run of jumps is
   * preceded by a ping of the test's own, and a long jump followed by one, so the page does not wait for the next.
   */
  private async jumpPages(ms: number): Promise<void> {
    if (ms <= 0) return;
    if (this.jumpedSincePing + ms > JUMP_BUDGET_MS) await this.ping();
    await this.context.clock.fastForward(ms);
    this.jumpedSincePing += ms;
    if (this.jumpedSincePing > JUMP_BUDGET_MS) await this.ping();
  }

  private async ping(): Promise<void> {
    await this.sockets.ping();
    this.jumpedSincePing = 0;
  }

  /**
   * Both clocks jump by `ms`, the market ticking through the jump or held still. The page's first: its prices age past
   * the limit on a long jump, and the server's next heartbeat (right after its jump) makes them fresh again.
   */
  async advance(ms: number, market: MarketMode, options: { record?: boolean } = {}): Promise<ClockMoved> {
    await this.jumpPages(ms);
    return this.server.advanceClock(ms, { market, ...options });
  }

  /** Jumps both clocks to `ts` of the server's time (a little past it: nothing is due exactly at a tick's time). */
  async advanceTo(ts: number, market: MarketMode, options: { record?: boolean } = {}): Promise<ClockMoved> {
    const now = await this.server.serverNow();
    return this.advance(Math.max(0, ts - now), market, options);
  }

  /** One step of the held market (or several, see stepMarket): the server's clock moves, the page's by as much. */
  async step(
    options: { record?: boolean; count?: number; until?: { symbol: string; price: string } } = {},
  ): Promise<ClockMoved> {
    const moved = await this.server.stepMarket(options);
    await this.jumpPages(moved.advancedBy);
    return moved;
  }

  /** Holds the market where it is (no ticks until a step or a ticking jump). */
  hold(): Promise<ClockMoved> {
    return this.server.advanceClock(0, { market: 'held' });
  }

  /**
   * The page's clock alone moves past the freshness limit, so the prices a closed feed gate holds back count as
   * stale now (the page's own judgement). The server's clock is not moved, so nothing waiting there expires; it
   * catches up in `resync`.
   */
  async agePagePrices(): Promise<void> {
    const ms = STALE_AFTER_MS + 1_000;
    await this.jumpPages(ms);
    this.pageAhead += ms;
  }

  /**
   * Between paths (no page open, so no socket to outrun): the server's clock catches up with the page's, held market,
   * and both move `ms` more.
   */
  async resync(ms = 0): Promise<void> {
    const behind = this.pageAhead;
    this.pageAhead = 0;
    await this.jumpPages(ms);
    await this.server.advanceClock(behind + ms, { market: 'held' });
  }
}
