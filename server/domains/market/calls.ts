import { MAX_TRADES, marketCalls } from '../../../protocol/market';
import { marketSnapshotCalls } from '../../../protocol/market-snapshot';
import { priceRecordCalls } from '../../../protocol/price-record';
import type { MarketFeed } from '../../market';
import { type Instrument, instrumentInfo, marketSnapshotOf } from '../../market';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { priceChainHandlers } from './chain';
import { withMarket } from './tables';

/** The market domain's calls: quotes and instruments, the home page's snapshot, and the price record's public reads. */
export const marketDomainCalls = { ...marketCalls, ...marketSnapshotCalls, ...priceRecordCalls } as const;
type MarketCalls = typeof marketDomainCalls;

const DEFAULT_CANDLES = 300;
const DEFAULT_TRADES = 50;
/** Favourites per user: plenty for a list of ~25 instruments, and a bound on what one account can store. */
const MAX_FAVOURITES = 100;

export interface MarketServices {
  /** Absent when the app runs without a market feed: the calls then answer "not found". */
  feed: MarketFeed | undefined;
  database: DatabaseHandle;
  now: () => number;
}

/** The market area's calls: quotes, candles, recent trades, instruments, US stocks, favourites and the price record. */
export function marketHandlers(s: MarketServices): CallHandlers<MarketCalls> {
  const feedOf = (): MarketFeed => {
    if (!s.feed) throw new BusinessError('notFound');
    return s.feed;
  };
  /** The instrument of `symbol`, of `kind` when given; an unknown one is a field error on `symbol`. */
  const instrumentOf = (symbol: string, kind?: Instrument['kind']): Instrument => {
    const instrument = feedOf().instrument(symbol);
    if (!instrument || (kind && instrument.kind !== kind)) throw new BusinessError('invalidInput', { field: 'symbol' });
    return instrument;
  };
  const kline = (kind: Instrument['kind']) =>
    (async (input) => {
      const i = instrumentOf(input.symbol, kind);
      return {
        symbol: i.symbol,
        period: input.period,
        candles: feedOf().candles(i.symbol, input.period, input.limit ?? DEFAULT_CANDLES),
      };
    }) satisfies CallHandlers<MarketCalls>['usstock/kline'];

  return {
    ...priceChainHandlers(s.database),
    'currency/quotation_new': async () => feedOf().quotes('coin'),
    'market/snapshot': async () => marketSnapshotOf(feedOf(), s.now),
    'currency/new_timeshar': kline('coin'),
    'currency/deal': async (input) => {
      const i = instrumentOf(input.symbol);
      return {
        symbol: i.symbol,
        trades: feedOf().trades(i.symbol, Math.min(input.limit ?? DEFAULT_TRADES, MAX_TRADES)),
      };
    },
    'coin/list': async (input) =>
      feedOf()
        .instruments(input.kind === 'all' ? undefined : input.kind)
        .map(instrumentInfo),
    'usstock/quotation': async () => feedOf().quotes('stock'),
    'usstock/kline': kline('stock'),
    'usstock/getNewPrice': async (input) => {
      const i = instrumentOf(input.symbol, 'stock');
      const q = feedOf().quote(i.symbol);
      if (!q) throw new BusinessError('notFound');
      return q;
    },
    'currency/user_currency_list': async (input, ctx) => {
      const { userId } = requireSession(ctx);
      const { db } = s.database;
      if (input.action) {
        if (!input.symbol) throw new BusinessError('invalidInput', { field: 'symbol' });
        const i = instrumentOf(input.symbol);
        if (input.action === 'add') {
          const count = await withMarket(db)
            .selectFrom('favourites')
            .where('user_id', '=', userId)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          if (Number(count.n) >= MAX_FAVOURITES) throw new BusinessError('invalidInput', { field: 'symbol' });
          await withMarket(db)
            .insertInto('favourites')
            .values({ user_id: userId, symbol: i.symbol, created_at: s.now() })
            .onConflict((oc) => oc.columns(['user_id', 'symbol']).doNothing())
            .execute();
        } else {
          await withMarket(db)
            .deleteFrom('favourites')
            .where('user_id', '=', userId)
            .where('symbol', '=', i.symbol)
            .execute();
        }
      }
      const rows = await withMarket(db)
        .selectFrom('favourites')
        .where('user_id', '=', userId)
        .select('symbol')
        .orderBy('created_at')
        .orderBy('symbol')
        .execute();
      const symbols = rows.map((r) => r.symbol);
      const feed = s.feed;
      const quotes = feed ? symbols.flatMap((symbol) => feed.quote(symbol) ?? []) : [];
      return { symbols, quotes };
    },
  };
}
