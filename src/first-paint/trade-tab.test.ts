import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InstrumentInfo } from '../../protocol/market';
import { flatQuote } from '../test-support/quotes';
import { paintTab, priceTab, type TabWords, tabAt, tabMarkup } from './trade-tab';

const WORDS: TabWords = {
  menu: 'Menu',
  lever: { title: 'Contracts', rules: 'Rules', real: 'Real account', toSimulator: 'Practise', lastPrice: 'Last' },
  option: {
    title: 'Options',
    rules: 'Option rules',
    real: 'Real account',
    toSimulator: 'Practise',
    lastPrice: 'Last',
    caption: 'Recorded, then live',
  },
  spot: { title: 'Spot', choosePair: 'Choose pair', chartOf: 'Chart of {{symbol}}', chart: 'Chart' },
  icons: { menu: '<svg></svg>', document: '<svg></svg>', chevron: '<svg></svg>', pulse: '' },
};

const NOW = 1_800_000_000_000;
const btc = flatQuote('BTC', '63931.5', { ts: NOW - 1_000 });
const trx = flatQuote('TRX', '0.123456', { ts: NOW - 1_000 });
const instrument = (symbol: string, price_scale: number): InstrumentInfo => ({
  id: 1,
  symbol,
  name: symbol,
  kind: 'coin',
  quote: 'USDT',
  tick_size: '0.01',
  price_scale,
  qty_scale: 4,
});
const INSTRUMENTS = [instrument('BTC', 2), instrument('TRX', 5)];

/** The page as the server sends it: the snapshot in its element, an empty root, at `path`. */
function servePage(path: string, servedAt = NOW): HTMLElement {
  document.body.innerHTML = '<div id="root"></div>';
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = 'tw-market';
  // When the snapshot's answer arrived here: now (the page came with it).
  element.setAttribute('data-arrived-at', String(NOW));
  element.textContent = JSON.stringify({ served_at: servedAt, quotes: [btc, trx], instruments: INSTRUMENTS });
  document.body.appendChild(element);
  window.history.replaceState(null, '', path);
  const root = document.getElementById('root');
  if (!root) throw new Error('no root');
  return root;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe("a trading tab's first-paint header", () => {
  it('is drawn only on the real books and the Spot tab', () => {
    expect(tabAt('/pages/lever/index')).toBe('lever');
    expect(tabAt('/pages/option/detail')).toBe('option');
    expect(tabAt('/pages/trade/index')).toBe('spot');
    expect(tabAt('/pages/lever/simulator')).toBeUndefined();
    expect(tabAt('/pages/index/index')).toBeUndefined();
  });

  it("shows the instrument's price at its own decimals (within SPEC 9's four), in the language's figures", () => {
    const markup = tabMarkup('option', 'TRX', [btc, trx], INSTRUMENTS, WORDS, 'de');
    expect(markup).toContain('data-testid="option-last">0,1234<');
    expect(markup).toContain('data-first-paint=""');
    // No price for it: a dash where the price will stand, and no change, as the ticker has it before a quote.
    const none = tabMarkup('lever', 'ETH', [btc, trx], INSTRUMENTS, WORDS, 'en');
    expect(none).toContain('data-testid="lever-last">–<');
    expect(none).not.toContain('class="change');
  });

  it('escapes every text it writes', () => {
    const words = { ...WORDS, spot: { ...WORDS.spot, title: '<b>Spot</b>' } };
    const markup = tabMarkup('spot', 'BTC', [btc], INSTRUMENTS, words, 'en');
    expect(markup).toContain('&lt;b&gt;Spot&lt;/b&gt;');
    expect(markup).not.toContain('<b>');
  });

  it('draws the named instrument, and the Spot tab BTC when none is named', () => {
    const lever = servePage('/pages/lever/index?symbol=trx');
    expect(paintTab(lever, WORDS, 'en', 5_000)).toBe(true);
    expect(lever.querySelector('[data-testid="lever-last"]')?.textContent).toBe('0.1234');
    const spot = servePage('/pages/trade/index');
    expect(paintTab(spot, WORDS, 'en', 5_000)).toBe(true);
    expect(spot.querySelector('[data-testid="spot-last"]')?.textContent).toBe('63,931.50');
    expect(spot.querySelector('.spot-chart-link')?.getAttribute('aria-label')).toBe('Chart of BTC');
  });

  it('draws nothing for a book tab naming no instrument, another route, or a root already drawn', () => {
    expect(paintTab(servePage('/pages/lever/index'), WORDS, 'en', 5_000)).toBe(false);
    expect(paintTab(servePage('/pages/assets/index?symbol=BTC'), WORDS, 'en', 5_000)).toBe(false);
    const drawn = servePage('/pages/option/detail?symbol=BTC');
    drawn.innerHTML = '<div>the app</div>';
    expect(paintTab(drawn, WORDS, 'en', 5_000)).toBe(false);
    expect(drawn.textContent).toBe('the app');
  });

  it('never shows a snapshot older than the staleness limit, and takes a shown price down when it turns so', () => {
    // Served 4.5 s after its newest price (1 s old at the quote): 5.5 s old, past the 5 s limit. The header stands,
    // with a dash for its price, as the app draws it without a current one.
    const old = servePage('/pages/lever/index?symbol=BTC', NOW + 4_500);
    expect(paintTab(old, WORDS, 'en', 5_000)).toBe(true);
    expect(old.querySelector('[data-testid="lever-last"]')?.textContent).toBe('–');

    const root = servePage('/pages/lever/index?symbol=BTC');
    expect(paintTab(root, WORDS, 'en', 5_000)).toBe(true);
    vi.advanceTimersByTime(3_999);
    expect(root.querySelector('[data-testid="lever-last"]')?.textContent).toBe('63,931.50');
    expect(root.querySelector('.lever-ticker-main .change')).not.toBeNull();
    vi.advanceTimersByTime(1);
    // As the app's first render would have it now: no price, no change, nothing marked stale before a price came.
    expect(root.querySelector('[data-testid="lever-last"]')?.textContent).toBe('–');
    expect(root.querySelector('.lever-ticker-main .change')).toBeNull();
  });

  it('draws nothing for a symbol the app would read otherwise, nor once the app has started', () => {
    for (const path of [
      '?symbol=null',
      '?symbol=123',
      '?symbol=%22eth%22',
      '?symbol=%3Cimg%3E',
      '?symbol=BTC&symbol=ETH',
    ]) {
      expect(paintTab(servePage(`/pages/trade/index${path}`), WORDS, 'en', 5_000), path).toBe(false);
    }
    expect(paintTab(servePage('/pages/trade/index?symbol=eth'), WORDS, 'en', 5_000)).toBe(true);
    document.documentElement.setAttribute('data-tw-started', '');
    try {
      expect(paintTab(servePage('/pages/trade/index?symbol=BTC'), WORDS, 'en', 5_000)).toBe(false);
    } finally {
      document.documentElement.removeAttribute('data-tw-started');
    }
  });

  it("puts a fetched snapshot's price into the early header, unless the app has read the snapshot already", () => {
    // The service worker's copy of the page: no snapshot in it, so a dash; then the head's request is answered.
    const root = servePage('/pages/option/detail?symbol=BTC');
    const fetched = document.getElementById('tw-market');
    fetched?.remove();
    expect(paintTab(root, WORDS, 'en', 5_000)).toBe(true);
    expect(root.querySelector('[data-testid="option-last"]')?.textContent).toBe('–');
    expect(priceTab(root, 'en', 5_000)).toBe(false);
    if (fetched) document.body.appendChild(fetched);
    expect(priceTab(root, 'en', 5_000)).toBe(true);
    expect(root.querySelector('[data-testid="option-last"]')?.textContent).toBe('63,931.50');
    expect(root.querySelector('.option-ticker-main .change')?.textContent).toBe('0.00%');
    // Once: the header now shows a price.
    expect(priceTab(root, 'en', 5_000)).toBe(false);

    const late = servePage('/pages/option/detail?symbol=BTC');
    const answer = document.getElementById('tw-market');
    answer?.remove();
    paintTab(late, WORDS, 'en', 5_000);
    if (answer) document.body.appendChild(answer);
    document.documentElement.setAttribute('data-tw-snapshot-read', '');
    try {
      expect(priceTab(late, 'en', 5_000)).toBe(false);
      expect(late.querySelector('[data-testid="option-last"]')?.textContent).toBe('–');
    } finally {
      document.documentElement.removeAttribute('data-tw-snapshot-read');
    }
  });
});
