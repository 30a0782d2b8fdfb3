import { useQuery } from '@tanstack/react-query';
import { fetchInstruments } from '../../../core/api/market';
import type { InstrumentInfo } from '../../../protocol/market';
import { keys } from '../../data/keys';
import { need } from '../../data/query';

/**
 * The instrument list from the same cache as the market's pages (same key, fetched once per page life). Not the
 * market's public hook: importing it from here split the market's shared chunk in two, and every trading route paid
 * for the seam.
 */
function useInstrumentList(): readonly InstrumentInfo[] | undefined {
  return useQuery({
    queryKey: keys.instruments,
    queryFn: () => need(fetchInstruments()),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  }).data;
}

/** One instrument's facts (kind, quote currency, price step); undefined until the list is there. */
export function useInstrument(symbol: string): InstrumentInfo | undefined {
  return useInstrumentList()?.find((i) => i.symbol === symbol);
}

/** The quote currency of a symbol as the market names it ('USDT' until the list is there). */
export function useQuoteOf(): (symbol: string) => string {
  const list = useInstrumentList();
  return (symbol) => list?.find((i) => i.symbol === symbol)?.quote ?? 'USDT';
}
