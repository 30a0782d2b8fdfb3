import type { LeverDeal, leverCalls } from '../../../protocol/lever';
import { crossLiquidationPrice } from '../../../protocol/rules/lever';
import { fromUnits } from '../../../protocol/rules/spot';
import { currencyScale, formatAmount } from '../../ledger';
import { BusinessError } from '../../platform/errors';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { practiceBalance, resetPractice } from '../../trading';
import { addMargin, cancelByOwner, closeAll, requestClose, requestReverse, setStops } from './actions';
import { type LeverPositionRow, listPositions, positionOf, priceUnits, toWire, unitsOf } from './positions';
import { type LeverServices, submitLever } from './submit';
import { withLever } from './tables';
import { LEVER_QUOTE, offeredInstruments, readLeverSettings } from './terms';

const DEFAULT_LIMIT = 20;

/**
 * Lever calls. Every call acts for the session user only: a position id is looked up among the user's own rows, so
 * another user's position does not exist for them. No call (and no operator command) sets a close price or result.
 */
export function leverHandlers(s: LeverServices): CallHandlers<typeof leverCalls> {
  const db = s.database.db;

  /** The contract account of a book: available, and the cross wallet (available plus the cross margins held). */
  async function wallet(userId: number, book: 'real' | 'simulator') {
    const account = (await s.ledger.balances(userId, book)).find(
      (b) => b.type === 'contract' && b.currency === LEVER_QUOTE,
    );
    const cross = await withLever(db)
      .selectFrom('lever_positions')
      .select(['margin', 'added_margin'])
      .where('user_id', '=', userId)
      .where('book', '=', book)
      .where('margin_mode', '=', 'cross')
      .where('phase', 'in', ['holding', 'closing'])
      .execute();
    const available = account?.available ?? 0;
    const crossWallet = cross.reduce((sum, r) => sum + (r.margin ?? 0) + r.added_margin, available);
    return { available, crossWallet };
  }

  /** Rows as the owner sees them: floating values at the latest mark, and a cross row's LP against its account. */
  async function present(userId: number, rows: readonly LeverPositionRow[]) {
    const marks = new Map<string, { symbol: string; seq: number; ts: number; price: string } | undefined>();
    const markOf = (symbol: string) => {
      if (!marks.has(symbol)) {
        const q = s.feed?.quote(symbol);
        marks.set(symbol, q ? { symbol, seq: q.seq, ts: q.ts, price: q.last } : undefined);
      }
      return marks.get(symbol);
    };
    const books = new Map<string, LeverPositionRow[]>();
    for (const row of rows) {
      if (row.margin_mode !== 'cross' || (row.phase !== 'holding' && row.phase !== 'closing')) continue;
      books.set(row.book, []);
    }
    const wallets = new Map<string, bigint>();
    for (const book of books.keys()) {
      const cross = await withLever(db)
        .selectFrom('lever_positions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('book', '=', book as 'real' | 'simulator')
        .where('margin_mode', '=', 'cross')
        .where('phase', 'in', ['holding', 'closing'])
        .execute();
      books.set(book, cross);
      wallets.set(book, BigInt((await wallet(userId, book as 'real' | 'simulator')).crossWallet));
    }
    return rows.map((row) => {
      const mark = markOf(row.symbol);
      let crossLp: string | null = null;
      const others = books.get(row.book);
      if (others && row.margin_mode === 'cross' && row.entry_price !== null) {
        const atMarks = [];
        let complete = true;
        for (const o of others) {
          if (o.id === row.id) continue;
          const m = markOf(o.symbol);
          if (!m) complete = false;
          else atMarks.push({ ...unitsOf(o), mark: priceUnits(o, m.price) });
        }
        const lp = complete ? crossLiquidationPrice(unitsOf(row), wallets.get(row.book) ?? 0n, atMarks) : null;
        crossLp = lp === null ? null : fromUnits(lp, row.price_scale);
      }
      return toWire(row, { mark, crossLp });
    });
  }

  return {
    'lever/deal': async (input, ctx) => {
      const userId = requireSession(ctx).userId;
      if (input.account === 'simulator') await practiceBalance(s.ledger, userId, 'contract');
      const settings = await readLeverSettings(db);
      const { available, crossWallet } = await wallet(userId, input.account);
      const deal: LeverDeal = {
        currency: LEVER_QUOTE,
        scale: currencyScale(LEVER_QUOTE),
        instruments: offeredInstruments(settings),
        available: formatAmount(LEVER_QUOTE, available),
        cross_wallet: formatAmount(LEVER_QUOTE, crossWallet),
      };
      return deal;
    },
    'lever/submit': (input, ctx) => submitLever(s, requireSession(ctx).userId, input),
    'lever/my_trade': async (input, ctx) => {
      const userId = requireSession(ctx).userId;
      const page = await listPositions(db, userId, {
        list: input.list,
        book: input.account,
        limit: input.limit ?? DEFAULT_LIMIT,
        beforeId: input.before_id,
      });
      return { positions: await present(userId, page.rows), next_before_id: page.next_before_id };
    },
    'lever/info': async (input, ctx) => {
      const userId = requireSession(ctx).userId;
      const row = await positionOf(db, userId, input.id);
      if (!row) throw new BusinessError('orderNotFound', { field: 'id' });
      return (await present(userId, [row]))[0] ?? toWire(row);
    },
    'lever/close': (input, ctx) => requestClose(s, requireSession(ctx).userId, input),
    'lever/close_all': (input, ctx) => closeAll(s, requireSession(ctx).userId, input.account),
    'lever/reverse': (input, ctx) => requestReverse(s, requireSession(ctx).userId, input),
    'lever/cancel': (input, ctx) => cancelByOwner(s, requireSession(ctx).userId, input.id),
    'lever/setstop': (input, ctx) => setStops(s, requireSession(ctx).userId, input),
    'lever/add_margin': (input, ctx) => addMargin(s, requireSession(ctx).userId, input),
    'lever/simulator': (_input, ctx) => practiceBalance(s.ledger, requireSession(ctx).userId, 'contract'),
    'lever/simulator/reset': (_input, ctx) =>
      resetPractice(s.database, s.ledger, requireSession(ctx).userId, 'contract', s.now),
  };
}
