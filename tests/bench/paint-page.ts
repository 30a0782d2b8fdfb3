/**
 * The browser side of the tick-to-paint benchmark (paint.bench.ts): a probe installed by an init script in every
 * page it measures, its readers, and the empty baseline page. The functions here are serialized by Playwright and run
 * in the page, so they may use nothing from their module scope.
 */

/** Counters PROBE_SCRIPT keeps in the page (`window.__paint`); the bench reads them before and after its window. */
export interface PaintProbe {
  /** requestAnimationFrame callbacks so far. */
  frames: number;
  /** performance.now() of the last frame, and the longest gap between two frames since `resetGap`. */
  lastFrameAt: number;
  maxFrameGap: number;
  /** Socket frames of the `quotes` topic received, and the quotes inside them. */
  messages: number;
  quotes: number;
  /** DOM mutations inside a `[data-testid="last"]` price, and frames in which at least one happened. */
  priceTexts: number;
  priceFrames: number;
  lastPriceFrame: number;
  longTasks: { start: number; duration: number }[];
  /** Animation frames over 50 ms (long-animation-frame), for telling what a long task was. */
  longFrames: LongFrame[];
}

export interface LongFrame {
  start: number;
  duration: number;
  /** Of which style and layout, ms (from styleAndLayoutStart to the end). */
  styleLayout: number;
  /** The frame's scripts, longest first: "invoker duration ms". */
  scripts: string[];
}

export interface ProbeReading {
  now: number;
  frames: number;
  maxFrameGap: number;
  messages: number;
  quotes: number;
  priceTexts: number;
  priceFrames: number;
  /** Long tasks that started at or after `since`. */
  longTasks: { start: number; duration: number }[];
  longFrames: LongFrame[];
}

/**
 * Init script: counts frames, long tasks, `quotes` messages and quotes (by wrapping WebSocket, so the app's own
 * socket.io client and the baseline's raw socket are counted the same way) and price text changes. Plain script
 * text rather than a function: tsx would wrap a function's inner names in a helper the page does not have.
 */
export const PROBE_SCRIPT = `(() => {
  const probe = {
    frames: 0,
    lastFrameAt: 0,
    maxFrameGap: 0,
    messages: 0,
    quotes: 0,
    priceTexts: 0,
    priceFrames: 0,
    lastPriceFrame: -1,
    longTasks: [],
    longFrames: [],
  };
  window.__paint = probe;

  const frame = (at) => {
    if (probe.lastFrameAt > 0) probe.maxFrameGap = Math.max(probe.maxFrameGap, at - probe.lastFrameAt);
    probe.lastFrameAt = at;
    probe.frames++;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration <= 50) continue;
      const end = entry.startTime + entry.duration;
      probe.longFrames.push({
        start: entry.startTime,
        duration: entry.duration,
        styleLayout: entry.styleAndLayoutStart > 0 ? end - entry.styleAndLayoutStart : 0,
        scripts: [...entry.scripts]
          .sort((a, b) => b.duration - a.duration)
          .map((script) => script.invoker + ' ' + Math.trunc(script.duration) + ' ms'),
      });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });

  // A socket.io event frame on the quotes topic: 42["market",{"topic":"quotes",…,"data":[{"symbol":…},…]}].
  const prefix = '42["market",{"topic":"quotes"';
  const key = '"symbol":';
  const Native = window.WebSocket;
  class CountingWebSocket extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (event) => {
        const text = event.data;
        if (typeof text !== 'string' || !text.startsWith(prefix)) return;
        probe.messages++;
        for (let i = text.indexOf(key); i !== -1; i = text.indexOf(key, i + key.length)) probe.quotes++;
      });
    }
  }
  window.WebSocket = CountingWebSocket;

  new MutationObserver((records) => {
    let changed = false;
    for (const record of records) {
      const node = record.target;
      const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
      if (element && element.closest('[data-testid="last"]')) {
        probe.priceTexts++;
        changed = true;
      }
    }
    if (changed && probe.lastPriceFrame !== probe.frames) {
      probe.lastPriceFrame = probe.frames;
      probe.priceFrames++;
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
`;

/** Reads the probe; long tasks only from `since` (page clock) on. Resets the longest frame gap. */
export function readProbe(since: number): ProbeReading {
  const probe = (window as unknown as { __paint: PaintProbe }).__paint;
  const reading = {
    now: performance.now(),
    frames: probe.frames,
    maxFrameGap: probe.maxFrameGap,
    messages: probe.messages,
    quotes: probe.quotes,
    priceTexts: probe.priceTexts,
    priceFrames: probe.priceFrames,
    longTasks: probe.longTasks.filter((t) => t.start >= since),
    longFrames: probe.longFrames.filter((f) => f.start >= since),
  };
  probe.maxFrameGap = 0;
  return reading;
}

/** How many quotes the probe has counted (readiness: the page receives prices). */
export function quotesSeen(): number {
  return (window as unknown as { __paint?: PaintProbe }).__paint?.quotes ?? 0;
}

/**
 * The baseline: an empty page on the same origin that receives the same `quotes` messages over a raw socket.io
 * websocket (engine.io v4 text protocol), decodes them and renders nothing.
 */
export const EMPTY_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>bench-empty</title></head>
<body>
<script>
  const socket = new WebSocket(location.origin.replace(/^http/, 'ws') + '/socket.io/?EIO=4&transport=websocket');
  let received = 0;
  socket.onmessage = (event) => {
    const text = event.data;
    if (text === '2') return socket.send('3');
    if (text.startsWith('0')) return socket.send('40');
    if (text.startsWith('40')) return socket.send('42["subscribe","quotes"]');
    if (!text.startsWith('42')) return;
    const [name, message] = JSON.parse(text.slice(2));
    if (name === 'market' && message.topic === 'quotes') received += message.data.length;
    window.__received = received;
  };
</script>
</body>
</html>
`;

/**
 * The floor: a static copy of the home page as the product rendered it (its HTML and stylesheets, no scripts), whose
 * only script receives the same `quotes` messages over a raw websocket and writes the same cells (last price, change
 * badge with its class, volume) once per animation frame, as text-node changes, with Intl formatting like the app's.
 * No framework, no validation, no streams: what the browser itself spends to show these updates on this page, which
 * no client code can go below.
 */
export function floorPage(productHtml: string): string {
  const html = productHtml
    .replace(/<script\b[\s\S]*?<\/script>/g, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/g, '')
    .replace(/<link\b[^>]*rel="manifest"[^>]*>/g, '');
  return `<!doctype html>${html.replace('</body>', `${FLOOR_SCRIPT}</body>`)}`;
}

const FLOOR_SCRIPT = `<script>
  const nf = (options) => new Intl.NumberFormat('en-US', { roundingMode: 'trunc', ...options });
  const volume = nf({ notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 2 });
  const change = nf({ style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
  const text = (element) => {
    if (!element.firstChild) element.append('');
    return element.firstChild;
  };
  const cells = new Map();
  for (const row of document.querySelectorAll('.quote-row')) {
    const last = row.querySelector('.quote-last');
    const places = (last.textContent.split('.')[1] ?? '').length;
    cells.set(row.dataset.symbol, {
      last: text(last),
      price: nf({ minimumFractionDigits: places, maximumFractionDigits: places }),
      badge: row.querySelector('.quote-link > .change'),
      change: text(row.querySelector('.quote-link > .change')),
      volume: text(row.querySelector('.quote-vol > span') ?? row.querySelector('.quote-vol')),
    });
  }
  const set = (node, value) => {
    if (node.nodeValue !== value) node.nodeValue = value;
  };
  const latest = new Map();
  let frame = 0;
  const flush = () => {
    frame = 0;
    for (const [symbol, quote] of latest) {
      const cell = cells.get(symbol);
      if (!cell) continue;
      set(cell.last, cell.price.format(quote.last));
      set(cell.change, change.format(quote.change_pct + 'e-2'));
      const pct = Number(quote.change_pct);
      const dir = pct > 0 ? 'up' : pct < 0 ? 'down' : 'flat';
      const name = 'change change-' + dir + ' change-filled';
      if (cell.badge.className !== name) cell.badge.className = name;
      set(cell.volume, volume.format(quote.volume));
    }
    latest.clear();
  };
  const socket = new WebSocket(location.origin.replace(/^http/, 'ws') + '/socket.io/?EIO=4&transport=websocket');
  socket.onmessage = (event) => {
    const text = event.data;
    if (text === '2') return socket.send('3');
    if (text.startsWith('0')) return socket.send('40');
    if (text.startsWith('40')) return socket.send('42["subscribe","quotes"]');
    if (!text.startsWith('42')) return;
    const [name, message] = JSON.parse(text.slice(2));
    if (name !== 'market' || message.topic !== 'quotes') return;
    for (const quote of message.data) latest.set(quote.symbol, quote);
    frame ||= requestAnimationFrame(flush);
  };
</script>`;
