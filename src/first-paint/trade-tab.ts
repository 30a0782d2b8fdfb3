import type { InstrumentInfo, Quote } from '../../protocol/market';
import { APP_STARTED_ATTRIBUTE, SNAPSHOT_READ_ATTRIBUTE } from '../../streams/document-arrival';
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
  lever: BookTabWords;
  option: BookTabWords;
  spot: { title: string; choosePair: string; chartOf: string; chart: string };
  /** Markup from the build (not text): menu 22, document 20, labelled chevron 16, pulse 18. */
  icons: { menu: string; document: string; chevron: string; pulse: string };
}

type Tab = 'lever' | 'option' | 'spot';

/** The tabs drawn early, by route: the real books' Lever and Option tabs and the Spot tab. */
const TABS: Readonly<Record<string, Tab>> = {
  '/pages/lever/index': 'lever',
  '/pages/option/detail': 'option',
  '/pages/trade/index': 'spot',
};

/** The routes whose tab is drawn early (the head script applies their styles before the first paint for them). */
export const TAB_ROUTES: readonly string[] = Object.keys(TABS);

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

/** The price cell's text and the change after it, as the tickers render them: a dash and no change without a quote. */
interface Priced {
  symbol: string;
  quote: Quote | undefined;
  info: InstrumentInfo | undefined;
}

const price = ({ quote, info }: Priced, lang: string): string =>
  quote && info ? html(formatPrice(quote.last, lang, info.price_scale)) : '–';

const changeOf = ({ quote, info }: Priced, lang: string): string => (quote && info ? change(quote, lang) : '');

/** Lever and Option on the real account: book bar, the chips' held row, and the ticker card. */
function bookTab(tab: 'lever' | 'option', priced: Priced, words: TabWords, lang: string): string {
  const w = words[tab];
  const symbol = html(priced.symbol);
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
    `/USDT</span><span class="${tab}-last" data-testid="${tab}-last">${price(priced, lang)}</span>` +
    `${changeOf(priced, lang)}</div>` +
    `<p class="${tab}-muted">${html(w.lastPrice)}</p>${chart}</section></main>`
  );
}

function spotTab(priced: Priced, words: TabWords, lang: string): string {
  const symbol = html(priced.symbol);
  return (
    navbar(words.spot.title, words, '') +
    '<main class="page-body spot-page"><section class="spot-ticker card" aria-live="off">' +
    `<button type="button" class="spot-pair-button"><span class="spot-pair-symbol">${symbol}/USDT</span>` +
    `${words.icons.chevron}</button><div class="spot-ticker-main"><span class="spot-last" data-testid="spot-last">` +
    `${price(priced, lang)}</span>${changeOf(priced, lang)}</div>` +
    `<a class="spot-chart-link" aria-label="${html(words.spot.chartOf.replace('{{symbol}}', () => priced.symbol))}" ` +
    `href="/pages/trade/kline?symbol=${html(encodeURIComponent(priced.symbol))}">${words.icons.pulse}` +
    `${html(words.spot.chart)}</a></section></main>`
  );
}

/**
 * The tab's page down to its price header: with the snapshot's price for the instrument when it has one (and its
 * facts), else a dash where the price will stand, as the app draws it before a price has come.
 */
export function tabMarkup(
  tab: Tab,
  symbol: string,
  quotes: readonly Quote[],
  instruments: readonly InstrumentInfo[],
  words: TabWords,
  lang: string,
): string {
  const priced: Priced = {
    symbol,
    quote: quotes.find((q) => q.symbol === symbol),
    info: instruments.find((i) => i.symbol === symbol),
  };
  const page = tab === 'spot' ? spotTab(priced, words, lang) : bookTab(tab, priced, words, lang);
  return `<div class="app-frame" data-first-paint=""><div class="page">${page}</div></div>`;
}

/**
 * The early header once its snapshot price is past the staleness limit and the app has not taken over: a dash where
 * the price stood and no change, as the app's first render has it from then on (it starts from no snapshot older
 * than the limit, and marks nothing stale before a price has come).
 */
function takeDownPrice(root: HTMLElement): void {
  const cell = root.querySelector('[data-first-paint] [data-testid$="-last"]');
  if (!cell) return;
  cell.textContent = '–';
  if (cell.nextElementSibling?.classList.contains('change')) cell.nextElementSibling.remove();
}

/**
 * A symbol parameter the app reads as the same text (its router parses search values as JSON where they read as
 * JSON: `null`, `true`, numbers and quoted strings would name something else there), upper-cased as the pages do.
 */
const PLAIN_SYMBOL = /^[A-Za-z][A-Za-z0-9]{0,11}$/;
const JSON_WORDS = ['null', 'true', 'false'];

/**
 * The opened tab and its instrument, if the route is a tab drawn early and names one plainly (Spot: BTC unless it
 * names one); undefined for anything the page would read otherwise.
 */
function openedTab(): { tab: Tab; symbol: string } | undefined {
  const tab = tabAt(location.pathname.replace(/\/+$/, ''));
  const params = new URLSearchParams(location.search);
  const asked = params.get('symbol');
  if (!tab || params.getAll('symbol').length > 1) return undefined;
  if (asked === null) return tab === 'spot' ? { tab, symbol: 'BTC' } : undefined;
  if (!PLAIN_SYMBOL.test(asked) || JSON_WORDS.includes(asked.toLowerCase())) return undefined;
  return { tab, symbol: asked.toUpperCase() };
}

/** The price the snapshot gives the opened tab's instrument, with how long until it turns stale, if current. */
function snapshotPrice(
  symbol: string,
  staleMs: number,
): { quotes: Quote[]; instruments: InstrumentInfo[]; left: number } | undefined {
  const element = document.getElementById(SNAPSHOT_ID);
  const current = element ? currentSnapshot(element, staleMs) : undefined;
  if (!current?.snapshot.quotes.some((q) => q.symbol === symbol)) return undefined;
  return { ...current.snapshot, left: staleMs - current.age };
}

/**
 * Draws the opened tab's page down to its price header into `root`, if the route is a tab drawn early and names its
 * instrument and the app has not started: with the price from the page's snapshot while that is younger than
 * `staleMs` (taken down again, should the app not have taken over by then), else with a dash where the price will
 * stand, as the app's own first render has it. Returns whether it drew.
 */
export function paintTab(root: HTMLElement, words: TabWords, lang: string, staleMs: number): boolean {
  const opened = openedTab();
  if (!opened || root.childElementCount > 0 || document.documentElement.hasAttribute(APP_STARTED_ATTRIBUTE)) {
    return false;
  }
  const priced = snapshotPrice(opened.symbol, staleMs);
  root.innerHTML = tabMarkup(opened.tab, opened.symbol, priced?.quotes ?? [], priced?.instruments ?? [], words, lang);
  if (priced) setTimeout(() => takeDownPrice(root), priced.left);
  return true;
}

/**
 * Puts the price of a snapshot fetched after the first paint (the service worker's copy of the page carries none)
 * into the early header that still shows a dash, if the app has not read the snapshot yet: the app then starts from
 * the same snapshot and draws the same price (once it has read it without this one, it draws a dash, and so does the
 * header). Returns whether it did.
 */
export function priceTab(root: HTMLElement, lang: string, staleMs: number): boolean {
  const opened = openedTab();
  const cell = root.querySelector('[data-first-paint] [data-testid$="-last"]');
  if (!opened || !cell || cell.textContent !== '–') return false;
  if (document.documentElement.hasAttribute(SNAPSHOT_READ_ATTRIBUTE)) return false;
  const priced = snapshotPrice(opened.symbol, staleMs);
  const quote = priced?.quotes.find((q) => q.symbol === opened.symbol);
  const info = priced?.instruments.find((i) => i.symbol === opened.symbol);
  if (!priced || !quote || !info) return false;
  cell.textContent = formatPrice(quote.last, lang, info.price_scale);
  cell.insertAdjacentHTML('afterend', change(quote, lang));
  setTimeout(() => takeDownPrice(root), priced.left);
  return true;
}
