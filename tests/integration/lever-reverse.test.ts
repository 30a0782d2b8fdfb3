import { describe, expect, it } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import { closeAmounts, initialMargin, isolatedLiquidationPrice, tradeFee } from '../../protocol/rules/lever';
import { withLever } from '../../server/domains/lever';
import { DATABASES } from './harness';
import { BTC_TERMS, btc, btcText, leverBench, recheckClosed, usdt, usdtText } from './lever-checks';

/**
 * Reverse (RULES "Reverse") over HTTP against the real engine, on every database, with the market driven tick by
 * tick: lever/reverse closes the whole position at the first tick after the request and opens the same lots on the
 * other side at that same tick, in one transaction, with the money of protocol/rules/lever.ts. When the open's margin
 * is not there after the close, the open is refused (cancelled, `insufficient_margin`, shown in the history) and the
 * close stands. A retry answers once; a position that is not holding takes no reverse; the ledger audit stays clean.
 */
describe.each(DATABASES)('lever reverse on %s', (kind) => {
  const b = leverBench(kind);

  const reverse = (token: string, id: number, requestId = b.rid()) =>
    b.ok('lever/reverse', { id: String(id), request_id: requestId }, token);

  async function opened(token: string, fields: Record<string, string>, entry = '60000.00') {
    const placed = await b.ok('lever/submit', b.order(fields), token);
    const tick = b.trade('BTC', entry);
    const p = await b.phase(token, placed.id, 'holding');
    expect(p.entry?.seq).toBe(tick.seq);
    return p;
  }

  /** The row the reverse of `id` opened (holding, or cancelled with its reason), from the user's stored rows. */
  async function reversal(token: string, userId: number, id: number): Promise<LeverPosition> {
    const row = await withLever(b.t.db)
      .selectFrom('lever_positions')
      .select('id')
      .where('user_id', '=', userId)
      .where('reversed_from', '=', id)
      .executeTakeFirstOrThrow();
    return b.ok('lever/info', { id: String(row.id) }, token);
  }

  const rowsOf = (userId: number) =>
    withLever(b.t.db).selectFrom('lever_positions').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  it('a long of 10 lots closes and a short of 10 lots opens at the same next tick, with the rules’ money', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('1000');
    const p = await opened(u.token, {});
    // 10 lots at 60,000, 10x: IM 60, open fee 0.3.
    expect(p).toMatchObject({ initial_margin: '60.000000', open_fee: '0.300000' });

    const rid = b.rid();
    const closing = await reverse(u.token, p.id, rid);
    expect(closing).toMatchObject({ phase: 'closing', status: 2, close_lots: null, reverse: true });
    await b.settle();
    const tick = b.trade('BTC', '61000.00');
    const closed = await b.phase(u.token, p.id, 'closed');
    const short = await reversal(u.token, u.id, p.id);

    // The close: P&L 0.01 × 1,000 = 10, close fee 0.01 × 61,000 × 0.0005 = 0.305.
    const whole = { side: 'long' as const, lots: 10n, entry: btc('60000.00'), margin: 60_000_000n, terms: BTC_TERMS };
    const close = closeAmounts(whole, btc('61000.00'), 'user', whole.margin);
    expect(closed).toMatchObject({
      close_reason: 'user',
      reverse: true,
      realized_pnl: '10.000000',
      close_fee: '0.305000',
      close_offset_price: '61000.00',
      exit: { symbol: 'BTC', seq: tick.seq, ts: tick.ts, price: '61000.00' },
    });
    expect(closed.realized_pnl).toBe(usdtText(close.pnl));
    expect(closed.close_fee).toBe(usdtText(close.feePaid));

    // The open: the same lots, leverage and margin mode on the other side, entered at the close's own tick; IM
    // 0.01 × 61,000 / 10 = 61, open fee 0.305, LP (610 + 61) / (0.01 × 1.005) = 66,766.169… → 66,766.17 (a short's up).
    const margin = initialMargin(10n, btc('61000.00'), 10, BTC_TERMS);
    const fee = tradeFee(10n, btc('61000.00'), BTC_TERMS);
    const lp = isolatedLiquidationPrice({ side: 'short', lots: 10n, entry: btc('61000.00'), margin, terms: BTC_TERMS });
    expect(short).toMatchObject({
      phase: 'holding',
      direction: 'short',
      type: 'market',
      margin_mode: 'isolated',
      lots: 10,
      leverage: 10,
      reversed_from: p.id,
      reverse: false,
      initial_margin: '61.000000',
      open_fee: '0.305000',
      Liquidation_Price: '66766.17',
      profit_take_price: null,
      stop_loss_price: null,
      entry_price: closed.close_offset_price,
      entry: closed.exit,
    });
    expect(short.initial_margin).toBe(usdtText(margin));
    expect(short.open_fee).toBe(usdtText(fee));
    expect(short.Liquidation_Price).toBe(btcText(lp ?? 0n));

    // Money: 1,000 − 0.3 + 10 − 0.305 (close) − 0.305 (open) = 1,009.09, of which the short's 61 is held.
    expect(await b.contract(u.id)).toEqual({ balance: usdt('1009.09'), available: usdt('1009.09') - usdt('61') });

    // A retry answers the reversed position as it now is and opens nothing more.
    expect(await reverse(u.token, p.id, rid)).toMatchObject({ id: p.id, phase: 'closed', reverse: true });
    await b.settle();
    b.trade('BTC', '61000.00');
    await b.settle();
    expect(await rowsOf(u.id)).toHaveLength(2);

    // The short is a position like any other: it closes by its owner at its next tick.
    await b.ok('lever/close', { id: String(short.id), request_id: b.rid() }, u.token);
    await b.settle();
    b.trade('BTC', '60500.00');
    const shortClosed = await b.phase(u.token, short.id, 'closed');
    expect(shortClosed).toMatchObject({ close_reason: 'user', realized_pnl: '5.000000' });
    // Both settle from the price record with the rule code: the short's entry is the first tick after the request.
    expect(await recheckClosed(b, closed)).toMatchObject({ ok: true });
    expect(await recheckClosed(b, shortClosed)).toMatchObject({ ok: true });
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('without the margin after the close the open is refused with its reason and the close stands', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('70');
    const p = await opened(u.token, {});
    await reverse(u.token, p.id);
    await b.settle();
    // The close at 55,000 loses 50 and pays 0.275: 70 − 0.3 − 50.275 = 19.425 is left, short of the short's 55 of
    // margin and 0.275 of fee.
    const tick = b.trade('BTC', '55000.00');
    const closed = await b.phase(u.token, p.id, 'closed');
    expect(closed).toMatchObject({ close_reason: 'user', realized_pnl: '-50.000000', exit: { seq: tick.seq } });
    const refused = await reversal(u.token, u.id, p.id);
    expect(refused).toMatchObject({
      phase: 'cancelled',
      status: 4,
      cancel_reason: 'insufficient_margin',
      direction: 'short',
      lots: 10,
      reversed_from: p.id,
      entry: null,
      initial_margin: null,
    });
    // The owner sees it in the history beside the closed long.
    const history = await b.ok('lever/my_trade', { list: 'history', account: 'real', limit: '10' }, u.token);
    expect(history.positions.map((h) => h.id)).toEqual([refused.id, p.id]);
    expect(await b.contract(u.id)).toEqual({ balance: usdt('19.425'), available: usdt('19.425') });
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('refusals change nothing: not holding, already closing, another user’s position', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('10000');
    const other = await b.trader('10000');
    const pending = await b.ok('lever/submit', b.order({ type: 'limit', price: '50000.00' }), u.token);
    const p = await opened(u.token, {});
    await b.phase(u.token, pending.id, 'pending');
    const before = { rows: await rowsOf(u.id), money: await b.contract(u.id) };

    await b.refused('lever/reverse', { id: String(pending.id), request_id: b.rid() }, u.token, 'leverNotOpen');
    await b.refused('lever/reverse', { id: String(p.id), request_id: b.rid() }, other.token, 'orderNotFound');
    expect({ rows: await rowsOf(u.id), money: await b.contract(u.id) }).toEqual(before);

    // A close waiting for its tick takes no reverse; a reverse waiting takes no other close or reverse.
    await b.ok('lever/close', { id: String(p.id), lots: '4', request_id: b.rid() }, u.token);
    await b.refused('lever/reverse', { id: String(p.id), request_id: b.rid() }, u.token, 'leverAlreadyClosing');
    await b.settle();
    b.trade('BTC', '60000.00');
    await b.phase(u.token, p.id, 'holding');
    await reverse(u.token, p.id);
    await b.refused('lever/reverse', { id: String(p.id), request_id: b.rid() }, u.token, 'leverAlreadyClosing');
    await b.refused('lever/close', { id: String(p.id), request_id: b.rid() }, u.token, 'leverAlreadyClosing');
    await b.settle();
    b.trade('BTC', '60000.00');
    await b.phase(u.token, p.id, 'closed');
    // The rest of 6 lots reversed into a short of 6; a closed position takes no reverse.
    expect(await reversal(u.token, u.id, p.id)).toMatchObject({ phase: 'holding', lots: 6, direction: 'short' });
    await b.refused('lever/reverse', { id: String(p.id), request_id: b.rid() }, u.token, 'leverNotOpen');
    expect(await b.ledgerProblems()).toEqual([]);
  });
});
