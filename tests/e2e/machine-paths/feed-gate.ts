import type { Page, Route, WebSocketRoute } from 'playwright-core';

/** A `quotes` topic message on the socket (server/domains/market/topics.ts emits `market` with the topic first). */
const QUOTES_FRAME = /^42\["market",\{"topic":"quotes"/;
const QUOTES_POLL = (url: URL) => url.pathname === '/api/currency/quotation_new';

/** One page's socket as the test relays it; `answered` is waiting for the page's next pong. */
interface Relayed {
  page: WebSocketRoute;
  answered?: () => void;
}

/**
 * The app's sockets of every open page, relayed through the test. A jump of the page's clock can outrun the socket's
 * own check that the server is alive (engine.io closes a socket whose last ping is older than ping interval + timeout
 * on the page's clock, 45 s): before a jump the test pings each page as its server would, so the check counts from
 * then. The pongs go on to the server, which takes an extra one in its stride.
 */
export class PageSockets {
  private readonly relayed = new Map<Page, Set<Relayed>>();

  add(page: Page, socket: WebSocketRoute): Relayed {
    let sockets = this.relayed.get(page);
    if (!sockets) {
      const set = new Set<Relayed>();
      this.relayed.set(page, set);
      page.once('close', () => this.relayed.delete(page));
      sockets = set;
    }
    const relayed: Relayed = { page: socket };
    sockets.add(relayed);
    return relayed;
  }

  /** Pings every page's socket and waits for the pongs (a socket that went away meanwhile counts as answered). */
  async ping(): Promise<void> {
    const all = [...this.relayed.values()].flatMap((set) => [...set]);
    await Promise.all(
      all.map(
        (relayed) =>
          new Promise<void>((resolve) => {
            // A socket replaced by a reconnect never answers; it is not the one the page uses any more.
            const gone = setTimeout(resolve, 2_000);
            relayed.answered = () => {
              clearTimeout(gone);
              resolve();
            };
            try {
              relayed.page.send('2');
            } catch {
              resolve();
            }
          }),
      ),
    );
  }
}

/**
 * What one page hears of the coin quotes, as a gate: open, every socket message and poll passes; closed, the
 * `quotes` topic's messages (updates and heartbeats) and the quote polls are held back, everything else (the user's
 * own topics, calls) passes. The page's price freshness (streams/freshness.ts) then sees no sign of life: its prices
 * go stale once its own clock has moved past the limit. Opening lets the held ones through in order.
 *
 * Only this page is affected: the server's feed and the other pages go on.
 */
export class FeedGate {
  private closed: boolean;
  private readonly held: (() => void)[] = [];

  private constructor(closed: boolean) {
    this.closed = closed;
  }

  /** Installs the gate before the page loads (a socket is routed from its start or not at all). */
  static async install(page: Page, options: { closed: boolean; sockets: PageSockets }): Promise<FeedGate> {
    const gate = new FeedGate(options.closed);
    await page.routeWebSocket(/\/socket\.io\//, (ws) => gate.relay(ws, options.sockets.add(page, ws)));
    await page.route(QUOTES_POLL, (route) => gate.poll(route));
    return gate;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  open(): void {
    this.closed = false;
    for (const release of this.held.splice(0)) release();
  }

  close(): void {
    this.closed = true;
  }

  private relay(page: WebSocketRoute, relayed: Relayed): void {
    const server = page.connectToServer();
    page.onMessage((message) => {
      if (message === '3') relayed.answered?.();
      server.send(message);
    });
    server.onMessage((message) => {
      const forward = () => {
        // The page's socket may have gone (a reload, a reconnect) while the message was held.
        try {
          page.send(message);
        } catch {}
      };
      if (this.closed && typeof message === 'string' && QUOTES_FRAME.test(message)) this.held.push(forward);
      else forward();
    });
  }

  private async poll(route: Route): Promise<void> {
    if (!this.closed) return route.continue();
    this.held.push(() => void route.continue().catch(() => {}));
  }
}
