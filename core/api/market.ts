import { type Candle, type InstrumentInfo, marketCalls, type Period, type Quote } from '../../protocol/market';
import { areaApi } from './client';

const { callApi } = areaApi(marketCalls);

/**
 * Market calls. Polls run in the background beside the socket, so they are quiet (no toast, no loading bar):
 * a failed poll is simply retried, and the stale marker tells the user when data stops arriving.
 */
const background = { quiet: true, loading: false } as const;

export function pollQuotes(): Promise<Quote[] | false> {
  return callApi('currency/quotation_new', {}, background);
}

export function pollStockQuotes(): Promise<Quote[] | false> {
  return callApi('usstock/quotation', {}, background);
}

export type InstrumentKind = InstrumentInfo['kind'];

/** Candle history: coins from currency/new_timeshar, US stocks from usstock/kline. */
export async function fetchCandles(kind: InstrumentKind, symbol: string, period: Period): Promise<Candle[] | false> {
  const path = kind === 'stock' ? 'usstock/kline' : 'currency/new_timeshar';
  const r = await callApi(path, { symbol, period, limit: '500' }, background);
  return r === false ? false : r.candles;
}

/** Every instrument (coins and stocks) with its scales (the app keeps them for the page's life). */
export function fetchInstruments(): Promise<InstrumentInfo[] | false> {
  return callApi('coin/list', { kind: 'all' }, { loading: false });
}

/** The user's favourite symbols (needs login). */
export async function fetchFavourites(): Promise<string[] | false> {
  const r = await callApi('currency/user_currency_list', {}, { loading: false });
  return r === false ? false : r.symbols;
}

export async function setFavourite(symbol: string, on: boolean): Promise<string[] | false> {
  const r = await callApi('currency/user_currency_list', { action: on ? 'add' : 'remove', symbol }, { loading: false });
  return r === false ? false : r.symbols;
}
