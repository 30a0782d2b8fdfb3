import { compareDecimalText, multiplyDecimalText } from '../../../../core/decimal-text';
import type { InstrumentInfo, Quote } from '../../../../protocol/market';
import type { QuoteRow, Sort } from './QuoteTable';

/** Instruments matching a search: symbol or name contains it, ignoring case and spaces. */
export function matches(quote: Quote, info: InstrumentInfo | undefined, search: string): boolean {
  const needle = search.replace(/\s+/g, '').toLowerCase();
  if (!needle) return true;
  return quote.symbol.toLowerCase().includes(needle) || Boolean(info?.name.toLowerCase().includes(needle));
}

/** What a column sorts by: the exact decimal string of a number column (compared exactly, as text), or the symbol. */
const value = (row: QuoteRow, key: Sort['key']): string => {
  switch (key) {
    case 'symbol':
      return row.quote.symbol;
    case 'last':
      return row.quote.last;
    case 'change':
      return row.quote.change_pct;
    case 'volume':
      // Volumes are in each coin's own unit; comparable only as turnover in the quote currency (exact product).
      return multiplyDecimalText(row.quote.volume, row.quote.last);
  }
};

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
  const compare = sort.key === 'symbol' ? (a: string, b: string) => a.localeCompare(b) : compareDecimalText;
  // Each row's sort value once, not once per comparison (a turnover is a product).
  return rows
    .map((row) => ({ row, by: value(row, sort.key) }))
    .sort((a, b) => sign * compare(a.by, b.by) || a.row.quote.symbol.localeCompare(b.row.quote.symbol))
    .map(({ row }) => row);
}
