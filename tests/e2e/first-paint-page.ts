import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type MarketSnapshot, marketSnapshot } from '../../protocol/market-snapshot';

/**
 * What the first-paint browser tests do to a page (first-paint.test.ts, first-paint-tabs.test.ts): cut the live
 * prices, hold the scripts back, read the snapshot the page carries, and hold two pictures of it to the same boxes.
 */

/** No live path at all: neither the socket nor the polled quotations and instrument list answer. */
export async function withoutLivePrices(page: Page): Promise<void> {
  for (const url of ['**/socket.io/**', '**/api/currency/quotation_new**', '**/api/coin/list**']) {
    await page.route(url, (route) => route.abort());
  }
  // A WebSocket passes no route: it is refused on its own.
  await page.routeWebSocket('**/socket.io/**', (ws) => ws.close());
}

/** Holds the requests matching `url` until the returned function is called. */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** The snapshot the served page carries, as the app reads it. */
export async function carriedSnapshot(page: Page): Promise<MarketSnapshot> {
  return marketSnapshot.parse(JSON.parse((await page.locator('#tw-market').textContent()) ?? ''));
}

export type Box = { x: number; y: number; width: number; height: number };

/** The box of each selector's first match (one that is missing fails the test, naming it). */
export async function boxesOf(page: Page, selectors: readonly string[]): Promise<Record<string, Box>> {
  const out: Record<string, Box> = {};
  for (const selector of selectors) {
    const box = await page.locator(selector).first().boundingBox();
    if (!box) throw new Error(`no box for ${selector}`);
    out[selector] = box;
  }
  return out;
}

/** Every box of `before` stands where it stood, at the same size, in `after` (within half a pixel). */
export function expectSameBoxes(before: Record<string, Box>, after: Record<string, Box>): void {
  for (const [selector, a] of Object.entries(before)) {
    const b = after[selector];
    for (const side of ['x', 'y', 'width', 'height'] as const) {
      expect(Math.abs(a[side] - (b?.[side] ?? Number.NaN)), `${selector} ${side}`).toBeLessThan(0.5);
    }
  }
}

/**
 * A picture of the first paint while the scripts are held back (E2E_SHOTS, for looking): harness.shot checks the
 * page's accessibility first, which waits for a load that cannot come until they are released.
 */
export async function earlyShot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`) });
}
