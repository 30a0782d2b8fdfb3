import { SYMBOL_RE } from '../../../protocol/market';
import { formatUnits, INSTRUMENTS, parseUnits } from '../instruments';

/** A coin to list, as the operator gives it (server/market/listing/coins.ts lists it). */
export interface NewListedCoin {
  symbol: string;
  name: string;
  /** The listing price in USDT (decimal text); the coin's first trade is at exactly this price. */
  startPrice: string;
  /** Decimals of its price; default about six significant digits at the start price (at least 2, at most 8). */
  priceScale?: number;
  /** Decimals of its quantities; default so that one unit is worth about a tenth of a USDT or more (0 to 8). */
  qtyScale?: number;
  /** When it joins the market (ms); the simulator walks it from then on, catching up when that is past. */
  listedAt: number;
}

/** A listed coin's row values, checked and with every default filled in. */
export interface ListingParameters {
  symbol: string;
  name: string;
  priceScale: number;
  qtyScale: number;
  /** The start price as text on the tick (priceScale decimals). */
  startPrice: string;
  sigmaPerMinute: string;
  tradeSize: string;
  listedAt: number;
}

/**
 * A new listing moves more than the established coins (0.08-0.16 % a minute): 0.2 % a minute, about 7.6 % a day,
 * before the walk's changing volatility and rare jumps.
 */
export const LISTED_SIGMA_PER_MINUTE = '0.002';

/** No scale above the ledger's 8 decimals of a coin: every price and quantity stays an exact ledger amount. */
const MAX_SCALE = 8;
const MAX_NAME = 64;

/**
 * Checks a listing and fills in its defaults from the start price's order of magnitude m (64250 -> 4, 0.05 -> -2),
 * much as the static coins are set up: the price to about six significant digits (4 - m decimals, 2 to 8, and at
 * least the decimals given), quantities in units worth a tenth of a USDT or more (m + 1 decimals, 0 to 8), and a
 * typical trade of 10^(2 - m) coins, worth 100 to 1000 USDT. All on the digits as text: no float sees the price.
 */
export function listingParameters(coin: NewListedCoin): ListingParameters {
  const { symbol } = coin;
  if (!SYMBOL_RE.test(symbol)) throw new Error(`listing: symbol must be 1-12 of A-Z and 0-9, got "${symbol}"`);
  if (INSTRUMENTS.some((i) => i.symbol === symbol)) throw new Error(`listing: ${symbol} is a static instrument`);
  const name = coin.name.trim();
  if (name.length === 0 || name.length > MAX_NAME)
    throw new Error(`listing ${symbol}: name must be 1-${MAX_NAME} chars`);
  if (!Number.isSafeInteger(coin.listedAt) || coin.listedAt < 0) {
    throw new Error(`listing ${symbol}: listing time must be ms since the epoch, got ${coin.listedAt}`);
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(coin.startPrice.trim());
  if (!match) throw new Error(`listing ${symbol}: start price must be a plain decimal, got "${coin.startPrice}"`);
  const whole = (match[1] ?? '').replace(/^0+/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (whole === '' && fraction === '') throw new Error(`listing ${symbol}: start price must be above zero`);
  const magnitude = whole !== '' ? whole.length - 1 : -(fraction.length - fraction.replace(/^0+/, '').length) - 1;
  const priceScale = coin.priceScale ?? clamp(Math.max(4 - magnitude, fraction.length), 2, MAX_SCALE);
  const qtyScale = coin.qtyScale ?? clamp(magnitude + 1, 0, MAX_SCALE);
  checkScale(symbol, 'price scale', priceScale);
  checkScale(symbol, 'quantity scale', qtyScale);
  if (fraction.length > priceScale) {
    throw new Error(`listing ${symbol}: start price ${coin.startPrice} has more than ${priceScale} decimals`);
  }
  // formatUnits refuses a price too large to stay an exact integer of ticks.
  const startPrice = formatUnits(
    parseUnits(`${whole || '0'}${fraction ? `.${fraction}` : ''}`, priceScale),
    priceScale,
  );
  return {
    symbol,
    name,
    priceScale,
    qtyScale,
    startPrice,
    sigmaPerMinute: LISTED_SIGMA_PER_MINUTE,
    tradeSize: powerOfTen(2 - magnitude),
    listedAt: coin.listedAt,
  };
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

function checkScale(symbol: string, what: string, scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) {
    throw new Error(`listing ${symbol}: ${what} must be 0-${MAX_SCALE}, got ${scale}`);
  }
}

/** 10^k as decimal text: 2 -> '100', -3 -> '0.001'. */
function powerOfTen(k: number): string {
  return k >= 0 ? `1${'0'.repeat(k)}` : `0.${'0'.repeat(-k - 1)}1`;
}
