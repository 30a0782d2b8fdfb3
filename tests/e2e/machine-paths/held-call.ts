import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';

/** The envelope every call answers (SPEC 7). */
export interface Envelope<T = unknown> {
  type: string | number;
  message: string;
  data: T;
}

/**
 * One call of the page held on its way to the server: the machine sits in its busy state (submitting, cancelling,
 * closeRequested, …) for as long as the test needs to see it there. `release` sends it on and hands the page the
 * server's real answer, which it also returns.
 */
export class HeldCall {
  private route: Route | undefined;
  private settled = false;
  private readonly matches: (url: URL) => boolean;

  private constructor(
    private readonly page: Page,
    readonly path: string,
  ) {
    this.matches = (url) => url.pathname === `/api/${path}`;
  }

  /** Holds the next call of `path` (e.g. `lever/submit`) that the page makes. */
  static async on(page: Page, path: string): Promise<HeldCall> {
    const held = new HeldCall(page, path);
    await page.route(held.matches, held.handle);
    return held;
  }

  private readonly handle = (route: Route): void => {
    // Only the first call is held; another one (a retry) goes on.
    if (this.route) {
      void route.continue();
      return;
    }
    this.route = route;
  };

  /** Waits until the page has made the call (it is now held). */
  async arrived(): Promise<void> {
    await expect
      .poll(() => this.route !== undefined, { timeout: 15_000, message: `${this.path} was called` })
      .toBe(true);
  }

  /** Sends the held call to the server, gives its answer to the page and returns it. */
  async release<T>(): Promise<Envelope<T>> {
    await this.arrived();
    const route = this.route as Route;
    this.settled = true;
    await this.page.unroute(this.matches, this.handle);
    const response = await route.fetch();
    const body = (await response.json()) as Envelope<T>;
    await route.fulfill({ response });
    return body;
  }

  /**
   * At a path's end, before its page closes: a call still held is failed in the page, so it never reaches the server.
   * Left to the page's closing, a held request may still be sent on after the next path has looked at the account
   * (a reverse landing on the position the next path's clean-up is closing).
   */
  async drop(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.page.unroute(this.matches, this.handle);
    await this.route?.abort();
  }
}
