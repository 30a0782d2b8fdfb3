import { Decimal } from '../../../../core/money';
import type { InstrumentInfo, Quote } from '../../../../protocol/market';
import type { QuoteRow, Sort } from './QuoteTable';

/** Instruments matching a search: symbol or name contains it, ignoring case and spaces. */
export function matches(quote: Quote, info: InstrumentInfo | undefined, search: string): boolean {
  const needle = search.replace(/\s+/g, '').toLowerCase();
  if (!needle) return true;
  return quote.symbol.toLowerCase().includes(needle) || Boolean(info?.name.toLowerCase().includes(needle));
}

const value = (row: QuoteRow, key: Sort['key']): Decimal | string => {
  switch (key) {
    case 'symbol':
      return row.quote.symbol;
    case 'last':
      return new Decimal(row.quote.last);
    case 'change':
      return new Decimal(row.quote.change_pct);
    case 'volume':
      // Volumes are in each coin's own unit; comparable only as turnover in the quote currency.
      return new Decimal(row.quote.volume).mul(row.quote.last);
  }
};

function compare(a: Decimal | string, b: Decimal | string): number {
  if (typeof a === 'string' || typeof b === 'string') return String(a).localeCompare(String(b));
  return a.comparedTo(b);
}

/** The rows to show: filtered by the search, sorted (ties by symbol, so the order never flickers). */
export function quoteRows(
  quotes: ReadonlyMap<string, Quote>,
  info: ReadonlyMap<string, InstrumentInfo>,
  favourites: ReadonlySet<string>,
  options: { search: string; sort: Sort | null; only?: ReadonlySet<string> },
): QuoteRow[] {
  const rows: QuoteRow[] = [];
  for (const quote of quotes.values()) {
    if (options.only && !options.only.has(quote.symbol)) continue;
    const meta = info.get(quote.symbol);
    if (!matches(quote, meta, options.search)) continue;
    rows.push({ quote, info: meta, favourite: favourites.has(quote.symbol) });
  }
  const sort = options.sort;
  if (!sort) return rows;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows.sort(
    (a, b) => sign * compare(value(a, sort.key), value(b, sort.key)) || a.quote.symbol.localeCompare(b.quote.symbol),
  );
}
