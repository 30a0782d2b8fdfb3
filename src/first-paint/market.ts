import type { InstrumentInfo, Quote } from '../../protocol/market';
import { ARRIVED_AT_ATTRIBUTE, SNAPSHOT_READ_ATTRIBUTE } from '../../streams/document-arrival';
import { changeClass, changeDirection } from '../features/market/live/change';
import { formatVolume } from '../features/market/live/volume';
import { formatChange, formatPrice } from '../lib/format';
import { escapeHtml as html } from './html';
import { currentSnapshot, SNAPSHOT_ID, type Snapshot } from './snapshot';

/**
 * The home market list drawn into the page before the app's scripts run (issue 27, prices at first paint): the same
 * elements, classes and texts that src/features/market/components/MarketBoard.tsx and QuoteTable.tsx render for a
 * guest on their first render from the same snapshot, so React's render lands on the same boxes (the browser test
 * holds them to it). Built by scripts/first-paint.ts into index.html's inline first-paint script, with the app's
 * own number formatting (lib/format, the market's volume and change rules): one rule for a figure, wherever it is
 * drawn. Text only from the locale tables and the snapshot, all of it escaped.
 */

/** The list's words in one language (from the locale tables at build time). */
export interface MarketWords {
  title: string;
  favourites: string;
  coins: string;
  stocks: string;
  search: string;
  pair: string;
  volume: string;
  last: string;
  change: string;
  vol: string;
  /** The search box's icon as <Icon name="search" size={18}> renders it (markup from the build, not text). */
  searchIcon: string;
}

const tab = (label: string, selected: boolean): string =>
  `<button type="button" role="tab" aria-selected="${selected}" tabindex="${selected ? 0 : -1}" ` +
  `class="segmented-item${selected ? ' is-active' : ''}">${html(label)}</button>`;

const sortButton = (label: string): string =>
  `<button type="button" class="sort-btn" aria-pressed="false">${html(label)}` +
  '<span class="sort-arrow" aria-hidden="true">↕</span></button>';

function row(quote: Quote, info: InstrumentInfo | undefined, words: MarketWords, lang: string): string {
  const symbol = html(quote.symbol);
  const dir = changeDirection(quote.change_pct);
  return (
    `<li class="quote-row" data-symbol="${symbol}">` +
    `<a class="quote-link" href="/pages/trade/kline?symbol=${html(encodeURIComponent(quote.symbol))}">` +
    `<span class="quote-name"><strong>${symbol}</strong><small>/${html(info?.quote ?? 'USDT')}</small>` +
    `<span class="quote-vol">${html(words.vol)} <span>${html(formatVolume(quote.volume, lang))}</span>` +
    `&nbsp;${symbol}</span></span>` +
    `<span class="quote-last" data-testid="last">${html(formatPrice(quote.last, lang, info?.price_scale ?? 2))}</span>` +
    `<span class="${changeClass(dir, true)}" data-dir="${dir}">${html(formatChange(quote.change_pct, lang))}</span>` +
    '</a></li>'
  );
}

/** The guest's market section with the snapshot's coin quotes, as MarketBoard first renders it. */
export function marketMarkup(snapshot: Snapshot, words: MarketWords, lang: string): string {
  const info = new Map(snapshot.instruments.map((i) => [i.symbol, i]));
  return (
    '<section class="market-board" aria-labelledby="markets-title"><div class="section-head">' +
    `<h2 class="section-title" id="markets-title">${html(words.title)}</h2></div>` +
    `<div class="segmented" role="tablist" aria-label="${html(words.title)}">` +
    `${tab(words.favourites, false)}${tab(words.coins, true)}${tab(words.stocks, false)}</div>` +
    `<label class="search-box">${words.searchIcon}<input placeholder="${html(words.search)}" ` +
    `aria-label="${html(words.search)}" autocomplete="off" enterkeyhint="search" type="search" value=""></label>` +
    `<div class="quotes"><div class="quotes-head">${[words.pair, words.volume, words.last, words.change]
      .map(sortButton)
      .join('')}</div><ul class="quotes-list">` +
    snapshot.quotes.map((q) => row(q, info.get(q.symbol), words, lang)).join('') +
    '</ul></div></section>'
  );
}

/** protocol/market-snapshot.ts's `market/snapshot` call, under the API's prefix. */
export const SNAPSHOT_CALL = '/api/market/snapshot';

/**
 * The header the service worker adds to a snapshot it asked for with the navigation (public/snapshot-ahead.js): when
 * that answer arrived on this device, earlier than the page's request that it answers.
 */
export const SNAPSHOT_ARRIVED_HEADER = 'x-tw-arrived-at';

/**
 * When a snapshot answer arrived on this device: as the service worker's header says, if it asked ahead, else when
 * the page received it. A header later than that or unreadable is ignored (the age is never counted from later).
 */
export function answerArrivedAt(response: Response, received: number): number {
  const ahead = Number(response.headers.get(SNAPSHOT_ARRIVED_HEADER));
  return Number.isSafeInteger(ahead) && ahead > 0 && ahead <= received ? ahead : received;
}

/** The answer to the snapshot call and when it arrived (this device's time). */
export interface SnapshotAnswer {
  response: Response;
  arrivedAt: number;
}

/** The head's early request for the snapshot (scripts/first-paint.ts), when it made one. */
declare global {
  interface Window {
    __twSnapshot?: Promise<SnapshotAnswer>;
  }
}

/**
 * For a page that came without a snapshot (the service worker's cached copy, on any route: a repeat visit), takes the
 * answer to the head's early request for one (or asks now), in parallel with the cached scripts, and puts it where
 * the server would have written it, with the time its answer arrived (its age counts from there; the service worker's
 * answer, asked with the navigation, says when it arrived): home's list is then drawn from it, and the app starts
 * from it as from an embedded one if it arrives first. Resolves when it is in place (or when there is none to be had).
 */
export async function fetchSnapshot(): Promise<void> {
  if (document.getElementById(SNAPSHOT_ID)?.textContent) return;
  const answer = await (window.__twSnapshot ??
    fetch(SNAPSHOT_CALL, { credentials: 'same-origin' }).then((r) => ({ response: r, arrivedAt: Date.now() })));
  const { response } = answer;
  const arrivedAt = answerArrivedAt(response, answer.arrivedAt);
  if (!response.ok) return;
  const envelope = (await response.json()) as { type?: unknown; data?: unknown };
  if (envelope.type !== 'ok' || document.getElementById(SNAPSHOT_ID)?.textContent) return;
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = SNAPSHOT_ID;
  element.setAttribute(ARRIVED_AT_ATTRIBUTE, String(arrivedAt));
  element.textContent = JSON.stringify(envelope.data);
  document.body.appendChild(element);
}

/**
 * Draws the market section after the hero in `root` (the first paint's home) from the page's snapshot, if it is
 * there and younger than `staleMs` when the page arrived; and should the app not have taken over by the time it
 * turns stale, marks the list stale, as the app would: a snapshot is never shown as current once it is not. Called
 * right after the hero's first frame (scripts/first-paint.ts), and again when a fetched snapshot arrives: building
 * the number formats costs a slow phone about a quarter of a second, which the hero's paint does not wait for.
 */
export function paintMarket(root: HTMLElement, words: MarketWords, lang: string, staleMs: number): void {
  const element = document.getElementById(SNAPSHOT_ID);
  // Only into the first paint's own page, and once: once the app has rendered, the list is the app's.
  const hero = root.querySelector('[data-first-paint] .hero');
  if (!element || !hero || root.querySelector('[data-first-paint] .market-board')) return;
  // A snapshot that came after the app looked for one: the app's first render will not show it, so neither does this
  // (prices, then the app's loading list, would be a jump).
  if (element.hasAttribute(ARRIVED_AT_ATTRIBUTE) && document.documentElement.hasAttribute(SNAPSHOT_READ_ATTRIBUTE)) {
    return;
  }
  const current = currentSnapshot(element, staleMs);
  if (!current) return;
  const { snapshot, age } = current;
  hero.insertAdjacentHTML('afterend', marketMarkup(snapshot, words, lang));
  setTimeout(() => {
    const quotes = root.querySelector('[data-first-paint] .quotes');
    quotes?.classList.add('is-stale');
  }, staleMs - age);
}
