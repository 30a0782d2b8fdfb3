import type { InstrumentInfo, Quote } from '../../protocol/market';
import { changeClass, changeDirection } from '../features/market/live/change';
import { formatChange, formatPrice } from '../lib/format';
import { escapeHtml as html } from './html';
import { currentSnapshot, SNAPSHOT_ID } from './snapshot';

/**
 * A trading tab's price header drawn into the page before the app's scripts run, when that tab is the first page a
 * member opens (issue 27, prices at first paint): on a slow network the tab's own code takes several round trips
 * after the shell, and its price came seconds after home's. The same elements, classes and texts that the tab's React
 * page renders on its first render from the same snapshot (LeverTrade.tsx with LeverTicker, OptionTrade.tsx with
 * OptionTicker, spot's trade/index.tsx), down to the price header, so React's render lands on the same boxes (the
 * browser test holds them to it); the chips' row is held by one invisible chip (SymbolChipsPending) until the tab's
 * terms name them. Built by scripts/first-paint.ts into index.html's inline first-paint script, with the app's own
 * number formatting. Text only from the locale tables and the snapshot, all of it escaped.
 */

/** A book tab's words (the Lever and Option tabs on the real account), in one language. */
export interface BookTabWords {
  title: string;
  /** The navigation bar's rules link's label. */
  rules: string;
  real: string;
  toSimulator: string;
  lastPrice: string;
  /** Under the option tab's chart. */
  caption?: string;
}

/** The tabs' words in one language (from the locale tables at build time), and the icons as <Icon> renders them. */
export interface TabWords {
  menu: string;
  stale: string;
  staleHint: string;
  lever: BookTabWords;
  option: BookTabWords;
  spot: { title: string; choosePair: string; chartOf: string; chart: string };
  /** Markup from the build (not text): menu 22, document 20, labelled chevron 16, pulse 18, clock 14 and 18. */
  icons: { menu: string; document: string; chevron: string; pulse: string; clock14: string; clock18: string };
}

type Tab = 'lever' | 'option' | 'spot';

/** The tabs drawn early, by route: the real books' Lever and Option tabs and the Spot tab. */
const TABS: Readonly<Record<string, Tab>> = {
  '/pages/lever/index': 'lever',
  '/pages/option/detail': 'option',
  '/pages/trade/index': 'spot',
};

/** The route's tab, if it is one drawn early. */
export const tabAt = (path: string): Tab | undefined => (Object.hasOwn(TABS, path) ? TABS[path] : undefined);

function navbar(title: string, words: TabWords, right: string): string {
  return (
    '<header class="navbar"><div class="navbar-side"><button type="button" class="icon-btn" ' +
    `aria-label="${html(words.menu)}" aria-haspopup="dialog">${words.icons.menu}</button></div>` +
    `<h1 class="navbar-title">${html(title)}</h1><div class="navbar-side navbar-right">${right}</div></header>`
  );
}

const change = (quote: Quote, lang: string): string =>
  `<span class="${changeClass(changeDirection(quote.change_pct))}">${html(formatChange(quote.change_pct, lang))}</span>`;

/** Lever and Option on the real account: book bar, the chips' held row, and the ticker card. */
function bookTab(tab: 'lever' | 'option', quote: Quote, info: InstrumentInfo, words: TabWords, lang: string): string {
  const w = words[tab];
  const symbol = html(quote.symbol);
  const chart =
    tab === 'option'
      ? '<div class="trade-chart" aria-busy="true"><span class="spinner trade-chart-spinner" aria-hidden="true">' +
        `</span></div><p class="option-muted">${html(w.caption ?? '')}</p>`
      : '';
  return (
    navbar(
      w.title,
      words,
      `<a class="${tab}-nav-link" aria-label="${html(w.rules)}" href="/pages/${tab}/rule">${words.icons.document}</a>`,
    ) +
    `<main class="page-body ${tab}-page"><div class="${tab}-book is-real"><span class="${tab}-book-name">` +
    `${html(w.real)}</span><a class="${tab}-link" href="/pages/${tab}/simulator">${html(w.toSimulator)}</a></div>` +
    '<div class="chip-row" aria-hidden="true"><span class="chip chip-pending">BTC/USDT</span></div>' +
    `<section class="${tab}-ticker card"><div class="${tab}-ticker-main"><span class="${tab}-symbol-name">${symbol}` +
    `/USDT</span><span class="${tab}-last" data-testid="${tab}-last">` +
    `${html(formatPrice(quote.last, lang, info.price_scale))}</span>${change(quote, lang)}</div>` +
    `<p class="${tab}-muted">${html(w.lastPrice)}</p>${chart}</section></main>`
  );
}

function spotTab(quote: Quote, info: InstrumentInfo, words: TabWords, lang: string): string {
  const symbol = html(quote.symbol);
  return (
    navbar(words.spot.title, words, '') +
    '<main class="page-body spot-page"><section class="spot-ticker card" aria-live="off">' +
    `<button type="button" class="spot-pair-button"><span class="spot-pair-symbol">${symbol}/USDT</span>` +
    `${words.icons.chevron}</button><div class="spot-ticker-main"><span class="spot-last" data-testid="spot-last">` +
    `${html(formatPrice(quote.last, lang, info.price_scale))}</span>${change(quote, lang)}</div>` +
    `<a class="spot-chart-link" aria-label="${html(words.spot.chartOf.replace('{{symbol}}', quote.symbol))}" ` +
    `href="/pages/trade/kline?symbol=${html(encodeURIComponent(quote.symbol))}">${words.icons.pulse}` +
    `${html(words.spot.chart)}</a></section></main>`
  );
}

/** The tab's page down to its price header, or undefined when the snapshot has no price for the instrument. */
export function tabMarkup(
  tab: Tab,
  symbol: string,
  quotes: readonly Quote[],
  instruments: readonly InstrumentInfo[],
  words: TabWords,
  lang: string,
): string | undefined {
  const quote = quotes.find((q) => q.symbol === symbol);
  const info = instruments.find((i) => i.symbol === symbol);
  if (!quote || !info) return undefined;
  const page = tab === 'spot' ? spotTab(quote, info, words, lang) : bookTab(tab, quote, info, words, lang);
  return `<div class="app-frame" data-first-paint=""><div class="page">${page}</div></div>`;
}

/** The stale mark and note as StaleMark and StaleNote render them. */
function markStale(root: HTMLElement, words: TabWords): void {
  const main = root.querySelector('[data-first-paint] [class$="-ticker-main"]');
  const ticker = root.querySelector('[data-first-paint] .card');
  if (!main || !ticker) return;
  main.insertAdjacentHTML(
    'beforeend',
    `<span class="stale-mark" role="status" title="${html(words.staleHint)}">${words.icons.clock14}` +
      `${html(words.stale)}</span>`,
  );
  ticker.insertAdjacentHTML(
    'afterend',
    `<div class="note note-warn" role="status">${words.icons.clock18}<p>${html(words.staleHint)}</p></div>`,
  );
}

/**
 * Draws the opened tab's price header into `root` from the snapshot the server wrote into the page, if the route is a
 * tab drawn early, the instrument is named (the Spot tab's is BTC unless named) and the snapshot is younger than
 * `staleMs`; should the app not have taken over by the time it turns stale, marks it stale as the app would. Only
 * from a snapshot that came with the page: the service worker's copy fetches one, and by its answer the app (from
 * that copy, quickly) may have started; it then draws the header itself from it. Returns whether it drew.
 */
export function paintTab(root: HTMLElement, words: TabWords, lang: string, staleMs: number): boolean {
  const tab = tabAt(location.pathname.replace(/\/+$/, ''));
  const element = document.getElementById(SNAPSHOT_ID);
  if (!tab || !element || root.childElementCount > 0) return false;
  const asked = new URLSearchParams(location.search).get('symbol')?.toUpperCase();
  const symbol = asked ?? (tab === 'spot' ? 'BTC' : undefined);
  const current = symbol === undefined ? undefined : currentSnapshot(element, staleMs);
  if (!symbol || !current) return false;
  const markup = tabMarkup(tab, symbol, current.snapshot.quotes, current.snapshot.instruments, words, lang);
  if (!markup) return false;
  root.innerHTML = markup;
  setTimeout(() => markStale(root, words), staleMs - current.age);
  return true;
}
