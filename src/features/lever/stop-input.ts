import type { LeverSide } from '../../../protocol/lever';
import { priceAtRoe, roeAtPriceText, type StopKind } from '../../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';

/** A take-profit or stop-loss is typed as a price or as the ROE (in percent) the position would show there. */
export type StopUnit = 'price' | 'roe';

/** What turns an ROE into a price: the position's side, entry (or the price it expects to open at) and leverage. */
export interface StopBasis {
  side: LeverSide;
  /** Wire text of the entry; null while there is none (no price yet). */
  entry: string | null;
  leverage: number;
  priceScale: number;
}

/** An ROE is typed in percent with up to two decimals (the precision the rows show it at). */
const ROE_SCALE = 2;

/**
 * The wire price a stop field stands for (RULES "Lever": ROE = UPNL / IM, protocol/rules/lever.ts priceAtRoe): its
 * text as it is when typed as a price, else the price of its ROE from the basis. '' for an empty field; null when an
 * ROE has no price (unreadable, no entry yet, or closer than one tick).
 */
export function stopWirePrice(unit: StopUnit, text: string, kind: StopKind, basis: StopBasis): string | null {
  if (text === '' || unit === 'price') return text;
  const roe = toUnits(text, ROE_SCALE);
  const entry = basis.entry === null ? null : toUnits(basis.entry, basis.priceScale);
  if (roe === null || entry === null) return null;
  const price = priceAtRoe(basis.side, kind, entry, basis.leverage, { units: roe, scale: ROE_SCALE }, basis.priceScale);
  return price === null ? null : fromUnits(price, basis.priceScale);
}

/** The other figure under a stop field: the price an ROE stands for, or the ROE a typed price would give. */
export type StopEcho = { price: string } | { roe: string } | null;

export function stopEcho(unit: StopUnit, text: string, kind: StopKind, basis: StopBasis): StopEcho {
  if (text === '') return null;
  if (unit === 'roe') {
    const price = stopWirePrice(unit, text, kind, basis);
    return price ? { price } : null;
  }
  const price = toUnits(text, basis.priceScale);
  const entry = basis.entry === null ? null : toUnits(basis.entry, basis.priceScale);
  if (price === null || price <= 0n || entry === null || entry <= 0n) return null;
  const roe = roeAtPriceText(basis.side, entry, price, basis.leverage, basis.priceScale);
  return roe === null ? null : { roe };
}

/**
 * The field's figure in the other unit, as wire text (a price, or an ROE's magnitude in percent): what switching the
 * unit turns the typed figure into, so a stop already set is not lost by looking at it the other way. '' when the
 * figure does not convert (empty, unreadable, or no entry yet).
 */
export function stopInOtherUnit(unit: StopUnit, text: string, kind: StopKind, basis: StopBasis): string {
  const echo = stopEcho(unit, text, kind, basis);
  if (echo === null) return '';
  if ('price' in echo) return echo.price;
  // A stop-loss's ROE is a loss; the field takes its size (priceAtRoe puts it on the losing side).
  return echo.roe.replace(/^-/, '');
}
