import { C2C_FIAT_SCALE, type C2cAd, c2cOrderAddRequest } from '../../../protocol/c2c';
import {
  c2cFiatAmount,
  c2cLimitProblem,
  c2cQuantityForFiat,
  fiatCents,
  formatFiat as fiatText,
  priceUnits,
} from '../../../protocol/rules/c2c';
import { fromUnits, toUnits } from '../../../protocol/rules/spot';

/**
 * The buy page's checks and figures, from the protocol's schema and the published rule code (protocol/rules/c2c.ts)
 * on integer units, so the total the page shows is exactly what the server will charge: quantity × price rounded up
 * to the cent. Nothing here uses a float.
 */

/** `errors` keys a typed amount can fail with before it is sent, in the order the server checks them. */
export type OrderProblem =
  | 'c2cQuantityRequired'
  | 'amountInvalid'
  | 'amountTooPrecise'
  | 'amountNotPositive'
  | 'c2cBelowMin'
  | 'c2cAboveMax'
  | 'c2cSoldOut';

/** What an order of the ad would be: the quantity to send and the fiat the buyer pays, as wire text and units. */
export interface OrderFigures {
  units: bigint;
  /** The quantity as the server reads it (every decimal of the coin). */
  quantity: string;
  cents: bigint;
  /** The fiat amount with two decimals. */
  amount: string;
}

export type OrderCheck = ({ ok: true } & OrderFigures) | { ok: false; problem: OrderProblem; figures?: OrderFigures };

type AdTerms = Pick<C2cAd, 'scale' | 'price' | 'min_fiat' | 'max_fiat' | 'available'>;

const units = (text: string, scale: number): bigint => toUnits(text, scale) ?? 0n;

/** The figures of `quantityUnits` coins of the ad (the rule's amount). */
export function figuresOf(quantityUnits: bigint, ad: AdTerms): OrderFigures {
  const cents = c2cFiatAmount(quantityUnits, ad.scale, priceUnits(ad.price) ?? 0n);
  return { units: quantityUnits, quantity: fromUnits(quantityUnits, ad.scale), cents, amount: fiatText(cents) };
}

/** The limits and the ad's coins left, for figures already computed. */
function withinAd(figures: OrderFigures, ad: AdTerms): OrderCheck {
  if (figures.units <= 0n) return { ok: false, problem: 'amountNotPositive', figures };
  const limit = c2cLimitProblem(figures.cents, units(ad.min_fiat, C2C_FIAT_SCALE), units(ad.max_fiat, C2C_FIAT_SCALE));
  if (limit) return { ok: false, problem: limit, figures };
  if (figures.units > units(ad.available, ad.scale)) return { ok: false, problem: 'c2cSoldOut', figures };
  return { ok: true, ...figures };
}

/** The quantity's shape as the protocol reads it (required, plain decimal text). */
function shapeOf(exact: string): { ok: true; text: string } | { ok: false; problem: OrderProblem } {
  const shape = c2cOrderAddRequest.shape.quantity.safeParse(exact);
  if (shape.success) return { ok: true, text: shape.data };
  const key = shape.error.issues[0]?.message;
  return { ok: false, problem: key === 'c2cQuantityRequired' ? 'c2cQuantityRequired' : 'amountInvalid' };
}

/** A typed coin quantity (exact wire text): at most the coin's decimals, above zero, within the limits and the ad. */
export function checkQuantity(exact: string, ad: AdTerms): OrderCheck {
  const shape = shapeOf(exact);
  if (!shape.ok) return shape;
  const u = toUnits(shape.text, ad.scale);
  if (u === null) return { ok: false, problem: 'amountTooPrecise' };
  return withinAd(figuresOf(u, ad), ad);
}

/**
 * A typed fiat amount (exact wire text): the largest quantity whose amount is at most it (so the buyer never pays
 * more than typed; it may be up to a cent less), then the same checks as a quantity.
 */
export function checkFiat(exact: string, ad: AdTerms): OrderCheck {
  const shape = shapeOf(exact);
  if (!shape.ok) return shape;
  const cents = fiatCents(shape.text);
  if (cents === null) return { ok: false, problem: 'amountTooPrecise' };
  const price = priceUnits(ad.price);
  if (price === null || price <= 0n) return { ok: false, problem: 'amountInvalid' };
  return withinAd(figuresOf(c2cQuantityForFiat(cents, ad.scale, price), ad), ad);
}

/** The most the buyer can order from the ad: its coins left, and no more than its maximum order allows. */
export function maxQuantity(ad: AdTerms): bigint {
  const available = units(ad.available, ad.scale);
  const price = priceUnits(ad.price);
  if (price === null || price <= 0n) return 0n;
  const byLimit = c2cQuantityForFiat(units(ad.max_fiat, C2C_FIAT_SCALE), ad.scale, price);
  return available < byLimit ? available : byLimit;
}

/** Whether anything can be ordered at all (some quantity within the limits and the coins left). */
export function orderable(ad: AdTerms): boolean {
  return withinAd(figuresOf(maxQuantity(ad), ad), ad).ok;
}
