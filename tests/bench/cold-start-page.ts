/**
 * The browser side of the cold-start benchmark (cold-start.bench.ts): a probe installed by an init script in every
 * page it loads, what the bench reads from it, and the baseline page. Page clock: performance.now(), whose origin is
 * the navigation's start, so every figure is "ms since the user asked for the page".
 */

/** What PROBE_SCRIPT keeps in the page (`window.__cold`). */
export interface ColdProbe {
  fcp: number | null;
  /** The latest largest-contentful-paint candidate (the LCP once the page has settled). */
  lcp: number | null;
  lcpElement: string;
  /** performance.now() when the latest LCP candidate was reported, for telling when the page has settled. */
  lcpReportedAt: number;
  /**
   * The first time a current price stood in the home market list: drawn with its row (the first paint's list from
   * the server's snapshot, or the app's first render from it) or written into its cell (a live update).
   */
  livePrice: number | null;
  /** The first time a price in the list moved from what it first showed: the live feed has reached the screen. */
  priceMoved: number | null;
}

/** One network request of the page (resource timing), for what happened before the LCP. */
export interface Fetched {
  name: string;
  start: number;
  end: number;
  /** Bytes over the wire (0: from the HTTP cache or the service worker). */
  transfer: number;
  /** Bytes of the body after decoding (what gzip would have shrunk). */
  decoded: number;
  worker: boolean;
}

export interface ColdReading extends ColdProbe {
  navigationTransfer: number;
  fetched: Fetched[];
}

/** Where a current price stands: the home list's cells, and the price header of the spot, option and lever tabs. */
const PRICE_CELLS = [
  '.quote-row [data-testid="last"]',
  '[data-testid="spot-last"]',
  '[data-testid="option-last"]',
  '[data-testid="lever-last"]',
].join(', ');

/**
 * Init script: first contentful paint and the LCP candidates (buffered observers, so entries from before the script
 * ran are not lost), the first price in the home list (or a trading tab's price header), and the first price there
 * that moved. A price appears either with its row (index.html's first paint draws the list from the snapshot the
 * server wrote into the page, and the app's first render draws it again from the same snapshot) or in an empty cell
 * the live FrameWriter fills (src/features/market/components/QuoteTable.tsx): both count, whichever comes first. A move is a cell whose text
 * differs from the first text seen for its instrument: the live feed on screen. Plain script text: tsx would wrap a
 * function's inner names in a helper the page does not have.
 */
export const PROBE_SCRIPT = `(() => {
  const probe = { fcp: null, lcp: null, lcpElement: '', lcpReportedAt: 0, livePrice: null, priceMoved: null };
  window.__cold = probe;
  const describe = (element, url) => {
    if (!element) return url ? 'image ' + url : '(element gone)';
    const name = element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).split(' ').join('.') : '');
    const text = (element.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return text ? name + ' "' + text + '"' : name;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') probe.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      probe.lcp = entry.startTime;
      probe.lcpElement = describe(entry.element, entry.url) + ' (' + Math.round(entry.size) + ' px²)';
      probe.lcpReportedAt = performance.now();
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const CELL = ${JSON.stringify(PRICE_CELLS)};
  const first = new Map();
  const seen = (cell) => {
    const text = (cell.textContent || '').trim();
    // A price has digits: a ticker waiting for one shows a dash.
    if (!/\\d/.test(text)) return;
    if (probe.livePrice === null) probe.livePrice = performance.now();
    const row = cell.closest('.quote-row');
    const symbol = row ? row.getAttribute('data-symbol') : cell.getAttribute('data-testid');
    if (!first.has(symbol)) first.set(symbol, text);
    else if (probe.priceMoved === null && first.get(symbol) !== text) probe.priceMoved = performance.now();
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const node = record.target;
      const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
      const cell = element && element.closest(CELL);
      if (cell) seen(cell);
      for (const added of record.addedNodes) {
        if (added.nodeType !== Node.ELEMENT_NODE) continue;
        if (added.matches(CELL)) seen(added);
        for (const inner of added.querySelectorAll(CELL)) seen(inner);
      }
    }
    if (probe.priceMoved !== null) observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
})();
`;

/**
 * Whether the page has settled: loaded, first contentful paint done, the home list's live price shown (when
 * `needsPrice`), and no new LCP candidate and no request ending for `quietMs`. An expression for waitForFunction.
 */
export function settledExpression(needsPrice: boolean, quietMs: number): string {
  return `(() => {
    const probe = window.__cold;
    if (!probe || document.readyState !== 'complete' || probe.fcp === null || probe.lcp === null) return false;
    if (${needsPrice} && probe.livePrice === null) return false;
    const lastFetch = performance.getEntriesByType('resource').reduce((at, r) => Math.max(at, r.responseEnd), 0);
    return performance.now() - Math.max(probe.lcpReportedAt, lastFetch) >= ${quietMs};
  })()`;
}

/** Reads the probe and the page's requests (an expression for evaluate). */
export const READ_EXPRESSION = `(() => {
  const navigation = performance.getEntriesByType('navigation')[0];
  return {
    ...window.__cold,
    navigationTransfer: navigation ? navigation.transferSize : 0,
    fetched: performance.getEntriesByType('resource').map((r) => ({
      name: r.name.replace(location.origin, ''),
      start: r.startTime,
      end: r.responseEnd,
      transfer: r.transferSize,
      decoded: r.decodedBodySize,
      worker: r.workerStart > 0,
    })),
  };
})()`;

/**
 * The baseline: a tiny static page on the same origin with a heading and a line of text (so it has a first and a
 * largest contentful paint), no script, no stylesheet: the floor a navigation costs on this network and CPU.
 */
export const BASELINE_FILE = 'bench-empty.html';
export const BASELINE_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>bench-empty</title></head>
<body style="background:#0b0f19;color:#e6e9f0;font-family:system-ui,sans-serif;margin:16px">
<h1>TradeWave</h1>
<p>An empty page: what any navigation costs on this network and CPU.</p>
</body>
</html>
`;
