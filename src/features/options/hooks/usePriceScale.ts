import { snapshotInstrument } from '../../../../streams/snapshot-board';
import { useInstruments } from '../../market/public';

/** Until the instrument list has come: the fewest decimals a price shows (SPEC 9). */
const UNTIL_LOADED = 2;

/**
 * Decimals of an instrument's price (its tick size's scale, from the market's instrument list). An option is won or
 * lost by a tick, so its prices show the instrument's own decimals (TRX five, BTC two), not a fixed two. Until the
 * list has come, the page's market snapshot says them (the same facts), so a price drawn from it keeps its digits.
 */
export function usePriceScale(symbol: string | undefined): number {
  const instruments = useInstruments();
  const info = symbol === undefined ? undefined : instruments.get(symbol);
  return (
    info?.price_scale ?? (symbol === undefined ? undefined : snapshotInstrument(symbol))?.price_scale ?? UNTIL_LOADED
  );
}
