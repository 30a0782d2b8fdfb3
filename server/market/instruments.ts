import type { InstrumentInfo } from '../../protocol/market';
import type { Instrument } from './instrument';
import { InstrumentListings } from './listing/registry';

export type { Instrument } from './instrument';

const coin = (
  id: number,
  symbol: string,
  name: string,
  startPrice: string,
  priceScale: number,
  qtyScale: number,
  sigmaPerMinute: number,
  tradeSize: number,
  extra: Partial<Instrument> = {},
): Instrument => ({
  id,
  symbol,
  name,
  kind: 'coin',
  quote: 'USDT',
  priceScale,
  qtyScale,
  startPrice,
  sigmaPerMinute,
  tradeSize,
  hours: 'always',
  ...extra,
});

const stock = (id: number, symbol: string, name: string, startPrice: string, sigmaPerMinute: number): Instrument => ({
  id,
  symbol,
  name,
  kind: 'stock',
  quote: 'USD',
  priceScale: 2,
  qtyScale: 0,
  startPrice,
  sigmaPerMinute,
  tradeSize: 50,
  hours: 'nyse',
});

/** Base coins keep the ids of SPEC 3 (BTC 1, ETH 2, USDT 3, USDC 4). */
export const INSTRUMENTS: readonly Instrument[] = [
  coin(1, 'BTC', 'Bitcoin', '64250.00', 2, 5, 0.0008, 0.05),
  coin(2, 'ETH', 'Ethereum', '3150.00', 2, 4, 0.001, 0.8),
  coin(3, 'USDT', 'Tether', '1.0000', 4, 2, 0.0001, 5000, { stable: true, quote: 'USD' }),
  coin(4, 'USDC', 'USD Coin', '1.0000', 4, 2, 0.0001, 5000, { stable: true, quote: 'USD' }),
  coin(5, 'SOL', 'Solana', '145.20', 2, 3, 0.0014, 20),
  coin(6, 'BNB', 'BNB', '580.10', 2, 3, 0.0009, 3),
  coin(7, 'XRP', 'XRP', '0.5230', 4, 1, 0.0012, 2000),
  coin(8, 'ADA', 'Cardano', '0.4510', 4, 1, 0.0013, 3000),
  coin(9, 'DOGE', 'Dogecoin', '0.12350', 5, 0, 0.0016, 10000),
  coin(10, 'TRX', 'TRON', '0.12100', 5, 0, 0.0008, 8000),
  coin(11, 'LTC', 'Litecoin', '72.45', 2, 3, 0.0011, 15),
  coin(12, 'DOT', 'Polkadot', '6.125', 3, 2, 0.0013, 200),
  coin(13, 'LINK', 'Chainlink', '14.210', 3, 2, 0.0013, 100),
  coin(14, 'AVAX', 'Avalanche', '28.340', 3, 2, 0.0015, 60),
  stock(101, 'AAPL', 'Apple Inc.', '189.50', 0.0006),
  stock(102, 'MSFT', 'Microsoft Corp.', '415.20', 0.0006),
  stock(103, 'NVDA', 'NVIDIA Corp.', '121.40', 0.0012),
  stock(104, 'TSLA', 'Tesla Inc.', '182.60', 0.0014),
  stock(105, 'AMZN', 'Amazon.com Inc.', '178.30', 0.0008),
  stock(106, 'GOOGL', 'Alphabet Inc.', '170.90', 0.0007),
  stock(107, 'META', 'Meta Platforms Inc.', '495.10', 0.0009),
  stock(108, 'NFLX', 'Netflix Inc.', '640.75', 0.0009),
  stock(109, 'AMD', 'Advanced Micro Devices', '158.20', 0.0012),
  stock(110, 'INTC', 'Intel Corp.', '30.45', 0.001),
];

const bySymbol = new Map(INSTRUMENTS.map((i) => [i.symbol, i]));

/** This process's coins listed at run time (server/market/listing): known to every lookup beside the static ones. */
export const listings = new InstrumentListings((symbol) => bySymbol.has(symbol));

export const instrumentBySymbol = (symbol: string): Instrument | undefined =>
  bySymbol.get(symbol) ?? listings.get(symbol)?.instrument;

/** The static instruments, then the coins listed at run time that this process knows (in id order). */
export const allInstruments = (): Instrument[] => [...INSTRUMENTS, ...listings.all().map((l) => l.instrument)];

/** Integer units of 10^-scale as an exact decimal string: formatUnits(6425000, 2) === '64250.00'. */
export function formatUnits(units: number, scale: number): string {
  if (!Number.isSafeInteger(units)) throw new Error(`not an exact integer: ${units}`);
  const negative = units < 0;
  const digits = String(Math.abs(units)).padStart(scale + 1, '0');
  const whole = scale === 0 ? digits : digits.slice(0, -scale);
  const text = scale === 0 ? whole : `${whole}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** A decimal string with at most `scale` decimals as integer units; throws on anything else. */
export function parseUnits(text: string, scale: number): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[2]?.length ?? 0) > scale) throw new Error(`not a decimal of scale ${scale}: ${text}`);
  return Number(`${match[1]}${(match[2] ?? '').padEnd(scale, '0')}`);
}

export const tickSizeOf = (i: Instrument) => formatUnits(1, i.priceScale);

export function instrumentInfo(i: Instrument): InstrumentInfo {
  return {
    id: i.id,
    symbol: i.symbol,
    name: i.name,
    kind: i.kind,
    quote: i.quote,
    tick_size: tickSizeOf(i),
    price_scale: i.priceScale,
    qty_scale: i.qtyScale,
  };
}

const NY_PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const MINUTE = 60_000;
const nyseCache = new Map<number, boolean>();

/** NYSE regular session: Monday to Friday, 09:30 to 16:00 New York time (exchange holidays are not modelled). */
export function isNyseOpen(ts: number): boolean {
  const minute = Math.floor(ts / MINUTE);
  const cached = nyseCache.get(minute);
  if (cached !== undefined) return cached;
  const parts = Object.fromEntries(NY_PARTS.formatToParts(minute * MINUTE).map((p) => [p.type, p.value]));
  const weekday = parts.weekday ?? '';
  const minutes = Number(parts.hour) * 60 + Number(parts.minute);
  const open = weekday !== 'Sat' && weekday !== 'Sun' && minutes >= 9 * 60 + 30 && minutes < 16 * 60;
  if (nyseCache.size > 50_000) nyseCache.clear();
  nyseCache.set(minute, open);
  return open;
}

export const isTrading = (i: Instrument, ts: number, alwaysOpen: boolean): boolean =>
  alwaysOpen || i.hours === 'always' || isNyseOpen(ts);
