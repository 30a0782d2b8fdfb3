import { describe, expect, it, vi } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import { type CloseReason, closeAmounts, initialMargin, tradeFee } from '../../protocol/rules/lever';
import { roundUnits } from '../../protocol/rules/spot';
import { withLever } from '../../server/domains/lever';
import { withLedger } from '../../server/ledger';
import { translate } from '../../server/platform/i18n/messages';
import { DATABASES } from './harness';
import { BTC_TERMS, btc, btcText, leverBench, type Tick, usdt, usdtText } from './lever-checks';

/**
 * Lever under concurrency, on every database: many orders racing for one balance, a retried request, a close racing
 * the liquidation tick, and several triggers at one tick. In every case exactly one outcome wins, by the rules
 * (RULES "Lever", "Which tick counts"), with the money of protocol/rules/lever.ts, through the ledger: every hold
 * resolves once and the ledger audit stays clean.
 */
describe.each(DATABASES)('lever concurrency on %s', (kind) => {
  const b = leverBench(kind);
  const rejected = translate('en', 'insufficientBalance');

  /** The reserve lever/submit holds for a market order at the last price `last` (submit.ts: last + 2%, rounded up). */
  function marketReserve(lots: bigint, leverage: number, last: bigint): bigint {
    const worst = roundUnits(last * 102n, BTC_TERMS.priceScale + 2, BTC_TERMS.priceScale, 'up');
    return initialMargin(lots, worst, leverage, BTC_TERMS) + tradeFee(lots, worst, BTC_TERMS);
  }

  /** A position's database row (close_requested_at and the hold ids are not on the wire). */
  const rowOf = (id: number) =>
    withLever(b.t.db).selectFrom('lever_positions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** How many ledger entries the user has under `requestId` (each money step of a position applies once). */
  async function entries(userId: number, requestId: string): Promise<number> {
    const rows = await withLedger(b.t.db)
      .selectFrom('ledger_entries')
      .select('id')
      .where('user_id', '=', userId)
      .where('request_id', '=', requestId)
      .execute();
    return rows.length;
  }

  /** The money a closed isolated position moved, by the rules, from what the engine recorded (reason and exit tick). */
  function expectedClose(p: LeverPosition) {
    const lots = BigInt(p.lots);
    const margin = usdt(p.initial_margin ?? '0') + usdt(p.additional_margin);
    const units = {
      side: p.direction,
      lots,
      entry: btc(p.entry_price ?? '0'),
      margin: BigInt(margin),
      terms: BTC_TERMS,
    };
    return closeAmounts(units, btc(p.close_offset_price ?? '0'), p.close_reason as CloseReason, BigInt(margin));
  }

  /** The recorded P&L, fund share and fees of a closed position are the rules' for its reason and exit tick. */
  function expectMoney(p: LeverPosition) {
    const amounts = expectedClose(p);
    expect(p.realized_pnl).toBe(usdtText(amounts.pnl));
    expect(p.insurance).toBe(usdtText(amounts.insurance));
    const openFee = tradeFee(BigInt(p.lots), btc(p.entry_price ?? '0'), BTC_TERMS);
    expect(p.commission).toBe(usdtText(openFee + amounts.feePaid));
    return { amounts, openFee };
  }

  /**
   * Checks one closed position of a user who had `funded` and nothing else: the rules' money, the balance (funding,
   * less the open fee, plus the close's share) with nothing held, and the margin hold resolved exactly once.
   */
  async function expectSettled(userId: number, funded: string, p: LeverPosition) {
    const { amounts, openFee } = expectMoney(p);
    const balance = BigInt(usdt(funded)) - openFee + amounts.userDelta;
    expect(await b.contract(userId)).toEqual({ balance: Number(balance), available: Number(balance) });
    // The margin hold left `open` exactly once, by one release; the close posted once.
    const row = await rowOf(p.id);
    const hold = await withLedger(b.t.db)
      .selectFrom('ledger_holds')
      .select('state')
      .where('id', '=', row.margin_hold_id ?? -1)
      .executeTakeFirstOrThrow();
    expect(hold.state).toBe('voided');
    expect(await entries(userId, `lever-release-margin:${p.id}`)).toBe(1);
    expect(await entries(userId, `lever-close:${p.id}`)).toBe(amounts.userDelta === 0n ? 0 : 1);
  }

  it('100 opens at once on one balance: exactly the ones that fit are accepted, and all of them open', async () => {
    b.trade('BTC', '60000.00');
    const reserve = marketReserve(10n, 10, btc('60000.00'));
    // 61.2 margin + 0.306 fee at 61,200 (60,000 + 2%).
    expect(usdtText(reserve)).toBe('61.506000');
    const fit = 37;
    const funded = usdtText(reserve * BigInt(fit));
    const u = await b.trader(funded);

    let done = false;
    let lowest = Number.POSITIVE_INFINITY;
    const watch = (async () => {
      while (!done) {
        const c = await b.contract(u.id);
        lowest = Math.min(lowest, c.available, c.balance);
        // SQLite answers within microtasks: yield, or the submits never get the event loop.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => b.t.call('lever/submit', b.order({}), { token: u.token })),
    );
    done = true;
    await watch;

    const accepted = answers.filter((a) => a.body.type === 'ok');
    const others = answers.filter((a) => a.body.type !== 'ok');
    expect(accepted.length).toBe(fit);
    expect(others.map((a) => a.body.message)).toEqual(Array(100 - fit).fill(rejected));
    expect(lowest).toBeGreaterThanOrEqual(0);
    // Every unit is reserved, and only by the accepted orders (a refused one left no row and no hold).
    expect(await b.contract(u.id)).toEqual({ balance: usdt(funded), available: 0 });
    const rows = await withLever(b.t.db)
      .selectFrom('lever_positions')
      .selectAll()
      .where('user_id', '=', u.id)
      .execute();
    expect(rows.length).toBe(fit);
    expect(rows.every((r) => r.phase === 'waiting' && BigInt(r.reserve) === reserve)).toBe(true);

    // The entry tick opens every accepted order at 60,000: 60 margin + 0.3 fee each, less than the reserve.
    const entry = b.trade('BTC', '60000.00');
    for (const a of accepted) {
      const p = await b.phase(u.token, (a.body.data as LeverPosition).id, 'holding');
      expect(p.entry?.seq).toBe(entry.seq);
      expect(p.initial_margin).toBe('60.000000');
    }
    const each = initialMargin(10n, btc('60000.00'), 10, BTC_TERMS) + tradeFee(10n, btc('60000.00'), BTC_TERMS);
    expect(usdtText(each)).toBe('60.300000');
    expect(await b.contract(u.id)).toEqual({
      balance: usdt(funded) - fit * usdt('0.3'),
      available: Number(BigInt(usdt(funded)) - BigInt(fit) * each),
    });
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('the same request id sent 5 times at once places exactly one order', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('1000');
    const form = b.order({ lots: '3' });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => b.t.call('lever/submit', form, { token: u.token })),
    );
    for (const a of answers) expect(a.body.type, JSON.stringify(a.body)).toBe('ok');
    const ids = new Set(answers.map((a) => (a.body.data as LeverPosition).id));
    expect(ids.size).toBe(1);
    const rows = await withLever(b.t.db)
      .selectFrom('lever_positions')
      .select('id')
      .where('user_id', '=', u.id)
      .where('request_id', '=', form.request_id ?? '')
      .execute();
    expect(rows.length).toBe(1);
    const reserve = marketReserve(3n, 10, btc('60000.00'));
    expect(await b.contract(u.id)).toEqual({ balance: usdt('1000'), available: usdt('1000') - Number(reserve) });
    expect(await entries(u.id, `lever:${form.request_id}`)).toBe(1);
    const entry = b.trade('BTC', '60000.00');
    const open = await b.phase(u.token, [...ids][0] as number, 'holding');
    expect(open.entry?.seq).toBe(entry.seq);
    expect(await b.ledgerProblems()).toEqual([]);
  });

  /**
   * A close racing the liquidation tick. RULES: a close accepted at R takes the first tick after R; a long is
   * liquidated at the first tick at or below its LP. So with L the tick at or past the LP:
   *   - R < L.ts: L is both the close's tick and a liquidation tick: either the user's close wins at L (the close was
   *     accepted first) or the liquidation does (the request lost the race and answers with the closed position);
   *   - R ≥ L.ts (or the request lost): the position was still holding at L, so it is liquidated at L.
   * Either way exactly one close happens, at L, with the money of closeAmounts for the reason recorded.
   */
  const modes = ['tick then close', 'close then tick', 'together'] as const;
  it.each([0, 1, 2, 3, 4, 5])(
    'a close racing the liquidation tick: exactly one outcome, at that tick (round %i)',
    async (round) => {
      const mode = modes[round % modes.length] as (typeof modes)[number];
      b.trade('BTC', '60000.00');
      const u = await b.trader('1000');
      const placed = await b.ok('lever/submit', b.order({ leverage: '100' }), u.token);
      b.trade('BTC', '60000.00');
      const open = await b.phase(u.token, placed.id, 'holding');
      // (600 − 6) / (0.01 × 0.995) = 59,698.492… → 59,698.49
      expect(open.Liquidation_Price).toBe('59698.49');
      const lp = btc(open.Liquidation_Price ?? '0');
      // At the LP or past it (a gap).
      const at = btcText(round < 3 ? lp : lp - 2_000n);

      let lpTick: Tick | undefined;
      const close = async () =>
        b.t.call('lever/close', { id: String(open.id), request_id: b.rid() }, { token: u.token });
      let answer: Awaited<ReturnType<typeof close>>;
      if (mode === 'tick then close') {
        lpTick = b.trade('BTC', at);
        answer = await close();
      } else if (mode === 'close then tick') {
        const pending = close();
        await new Promise((resolve) => setImmediate(resolve));
        lpTick = b.trade('BTC', at);
        answer = await pending;
      } else {
        [answer] = await Promise.all([
          close(),
          Promise.resolve().then(() => {
            lpTick = b.trade('BTC', at);
          }),
        ]);
      }
      // Answered either way: closing (accepted) or the position as the liquidation left it.
      expect(answer.body.type, JSON.stringify(answer.body)).toBe('ok');
      const L = lpTick as Tick;
      await b.settle();
      // A later tick back at the entry: a close still waiting for its tick takes it.
      const after = b.trade('BTC', '60000.00');
      const closed = await b.phase(u.token, open.id, 'closed');
      const row = await rowOf(open.id);
      const requested = row.close_requested_at;
      const outcome = `${mode}: ${closed.close_reason} at ${closed.exit?.seq === L.seq ? 'L' : 'later'}; request ${
        requested === null ? 'lost' : requested < L.ts ? 'before L' : 'at or after L'
      }`;
      if (requested === null || requested >= L.ts) {
        expect(closed.close_reason, outcome).toBe('liquidation');
        expect(closed.exit?.seq, outcome).toBe(L.seq);
      } else {
        expect(['user', 'liquidation'], outcome).toContain(closed.close_reason);
        // The first tick after the request is L itself.
        expect(closed.exit?.seq, outcome).toBe(L.seq);
      }
      expect(closed.exit?.seq).not.toBe(after.seq);
      await expectSettled(u.id, '1000', closed);
      expect(await b.ledgerProblems()).toEqual([]);
    },
  );

  it('a close accepted before the liquidation tick closes at that tick, once (its first tick after the request)', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('1000');
    const placed = await b.ok('lever/submit', b.order({ leverage: '100' }), u.token);
    b.trade('BTC', '60000.00');
    const open = await b.phase(u.token, placed.id, 'holding');
    expect(await b.ok('lever/close', { id: String(open.id), request_id: b.rid() }, u.token)).toMatchObject({
      phase: 'closing',
    });
    await b.settle();
    const L = b.trade('BTC', '59690.00');
    const closed = await b.phase(u.token, open.id, 'closed');
    // L is the close's tick and a liquidation tick at once. RULES do not rank the two; the engine lets the accepted
    // close take it (a closing row has no triggers), so the user pays the loss and fee but not the margin left.
    // Either is one outcome at L with its own money.
    expect(['user', 'liquidation']).toContain(closed.close_reason);
    expect(closed.exit?.seq).toBe(L.seq);
    await expectSettled(u.id, '1000', closed);
  });

  /**
   * The same race with the engine behind the market (a burst of other work queued before the liquidation tick). The
   * tick at the LP came first (L.ts < the request's time), so by the rules the position was liquidated at L, whatever
   * the owner's request did meanwhile: neither a close (which would take a later tick as the user's close) nor added
   * margin (which would move the LP away after the fact) may take the position past its liquidation tick.
   *
   * On SQLite in one process the engine cannot fall behind an HTTP request (the driver answers within microtasks, so
   * the engine's queued work runs to the end first) and this passes; on PostgreSQL the request commits while the
   * engine is busy, and the engine then drops the liquidation (the row's version changed): see the report.
   */
  it.each(['lever/close', 'lever/add_margin'] as const)(
    '%s accepted while the engine is still behind does not undo the liquidation tick that came before it',
    async (path) => {
      b.trade('BTC', '60000.00');
      b.trade('ETH', '3000.00');
      const u = await b.trader('1000');
      const busy = await b.trader('100000');
      const placed = await b.ok('lever/submit', b.order({ leverage: '100' }), u.token);
      b.trade('BTC', '60000.00');
      const open = await b.phase(u.token, placed.id, 'holding');
      // 100 ETH market orders waiting for their entry tick, each with a take-profit a few cents up: the engine opens
      // them all at the next ETH tick and closes them all at the one after, two batches of work queued before L.
      for (let k = 0; k < 2; k++) {
        await Promise.all(
          Array.from({ length: 50 }, () =>
            b.ok('lever/submit', b.order({ symbol: 'ETH', lots: '1', take_profit: '3000.05' }), busy.token),
          ),
        );
      }
      b.trade('ETH', '3000.00');
      b.trade('ETH', '3000.05');
      // 100x long, LP 59,698.49: L is past it.
      const L = b.trade('BTC', '59690.00');
      b.t.clock.advance(1);
      const fields: Record<string, string> =
        path === 'lever/close'
          ? { id: String(open.id), request_id: b.rid() }
          : { id: String(open.id), amount: '50', request_id: b.rid() };
      const answer = await b.t.call(path, fields, { token: u.token });
      const accepted = answer.body.type === 'ok' && (answer.body.data as LeverPosition).phase !== 'closed';
      // The engine has caught up once the burst is through: every ETH position closed at its take-profit.
      await vi.waitFor(
        async () => {
          const left = await withLever(b.t.db)
            .selectFrom('lever_positions')
            .select('id')
            .where('user_id', '=', busy.id)
            .where('phase', '!=', 'closed')
            .execute();
          expect(left.length).toBe(0);
        },
        { timeout: 20_000, interval: 50 },
      );
      await b.settle();
      const after = b.trade('BTC', '60000.00');
      let final = await b.ok('lever/info', { id: String(open.id) }, u.token);
      for (let wait = 0; wait < 20 && final.phase !== 'closed'; wait++) {
        await b.settle();
        final = await b.ok('lever/info', { id: String(open.id) }, u.token);
      }
      const at = final.exit?.seq === L.seq ? 'L' : final.exit?.seq === after.seq ? 'the next tick' : 'no tick';
      const story = `${path} ${accepted ? 'accepted' : 'lost'}; then ${final.phase} ${final.close_reason ?? ''} at ${at}`;
      expect(final.close_reason, story).toBe('liquidation');
      expect(final.exit?.seq, story).toBe(L.seq);
      if (path === 'lever/close') await expectSettled(u.id, '1000', final);
      expect(await b.ledgerProblems()).toEqual([]);
    },
  );

  /**
   * Several triggers at one tick. Each position has at most one of each: a take-profit on the profitable side of its
   * entry, a stop-loss on the losing side and strictly before its liquidation price (stopProblem refuses anything
   * else). So one tick can never reach a position's TP and its SL; what one tick can reach is:
   *   - the TP of one position and the SL of another (a long's TP and a short's SL at the same price): both fire at
   *     that tick, independently;
   *   - a position's SL and its liquidation price, when the tick gaps past both: the engine's precedence
   *     (engine.ts PRECEDENCE: liquidation > stop_loss > take_profit) closes it as a liquidation, with the
   *     liquidation's money (the whole margin is taken; what the loss and fee leave goes to the insurance fund).
   */
  it('one tick fires one position’s take-profit and another’s stop-loss; a gap past SL and LP is a liquidation', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('10000');
    const submit = (fields: Record<string, string>) => b.ok('lever/submit', b.order(fields), u.token);
    const info = (id: number) => b.ok('lever/info', { id: String(id) }, u.token);
    const tp = await submit({ side: 'long', take_profit: '60500.00' });
    const sl = await submit({ side: 'short', stop_loss: '60500.00' });
    const tpFar = await submit({ side: 'long', take_profit: '60500.01' });
    const slFar = await submit({ side: 'short', stop_loss: '60500.01' });
    // 10x long: LP 54,271.35 below an SL of 55,000; 10x short: (600 + 60) / (0.01 × 1.005) = 65,671.641… → 65,671.65
    // above an SL of 65,000.
    const gapLong = await submit({ side: 'long', stop_loss: '55000.00' });
    const gapShort = await submit({ side: 'short', stop_loss: '65000.00' });
    const ids = [tp, sl, tpFar, slFar, gapLong, gapShort].map((p) => p.id);
    const entry = b.trade('BTC', '60000.00');
    for (const id of ids) expect((await b.phase(u.token, id, 'holding')).entry?.seq).toBe(entry.seq);
    expect((await info(gapLong.id)).Liquidation_Price).toBe('54271.35');
    expect((await info(gapShort.id)).Liquidation_Price).toBe('65671.65');

    b.trade('BTC', '60499.99');
    await b.settle();
    for (const id of ids) expect((await info(id)).phase).toBe('holding');
    const both = b.trade('BTC', '60500.00');
    const tpClosed = await b.phase(u.token, tp.id, 'closed');
    const slClosed = await b.phase(u.token, sl.id, 'closed');
    expect(tpClosed).toMatchObject({ close_reason: 'take_profit', realized_pnl: '5.000000' });
    expect(slClosed).toMatchObject({ close_reason: 'stop_loss', realized_pnl: '-5.000000' });
    expect(tpClosed.exit?.seq).toBe(both.seq);
    expect(slClosed.exit?.seq).toBe(both.seq);
    await b.settle();
    for (const id of [tpFar.id, slFar.id, gapLong.id, gapShort.id]) expect((await info(id)).phase).toBe('holding');
    // The far ones were not reached by a cent; they leave by the user's close at the next tick.
    for (const id of [tpFar.id, slFar.id]) await b.ok('lever/close', { id: String(id), request_id: b.rid() }, u.token);
    const next = b.trade('BTC', '60000.00');
    for (const id of [tpFar.id, slFar.id]) {
      expect(await b.phase(u.token, id, 'closed')).toMatchObject({ close_reason: 'user', exit: { seq: next.seq } });
    }

    // Down past the long's SL (55,000) and its LP (54,271.35) in one gap: a liquidation. Its money differs from a
    // stop-loss's at the same tick: loss 58 + fee 0.271 leave 1.729 of the 60 margin, which the fund takes.
    const gapDown = b.trade('BTC', '54200.00');
    const longGapped = await b.phase(u.token, gapLong.id, 'closed');
    expect(longGapped).toMatchObject({
      close_reason: 'liquidation',
      realized_pnl: '-58.000000',
      insurance: '1.729000',
    });
    expect(longGapped.exit?.seq).toBe(gapDown.seq);
    expectMoney(longGapped);

    // Up past the short's SL (65,000) and its LP (65,671.65): loss 57 + fee 0.3285 leave 2.6715 for the fund.
    b.trade('BTC', '60000.00');
    const gapUp = b.trade('BTC', '65700.00');
    const shortGapped = await b.phase(u.token, gapShort.id, 'closed');
    expect(shortGapped).toMatchObject({
      close_reason: 'liquidation',
      realized_pnl: '-57.000000',
      insurance: '2.671500',
    });
    expect(shortGapped.exit?.seq).toBe(gapUp.seq);
    expectMoney(shortGapped);
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('a tick between a long’s stop-loss and its LP is a stop-loss, with the stop-loss’s money', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('1000');
    const placed = await b.ok('lever/submit', b.order({ stop_loss: '55000.00' }), u.token);
    b.trade('BTC', '60000.00');
    await b.phase(u.token, placed.id, 'holding');
    const hit = b.trade('BTC', '54500.00');
    const closed = await b.phase(u.token, placed.id, 'closed');
    expect(closed.close_reason).toBe('stop_loss');
    expect(closed.exit?.seq).toBe(hit.seq);
    // Loss 55, fee 0.2725: the user keeps 60 − 55.2725 of the margin; nothing goes to the fund.
    expect(closed).toMatchObject({ realized_pnl: '-55.000000', insurance: '0.000000' });
    await expectSettled(u.id, '1000', closed);
  });

  it('the ledger checks clean', async () => {
    await b.settle();
    expect(await b.ledgerProblems()).toEqual([]);
  });
});
