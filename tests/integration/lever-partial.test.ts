import { describe, expect, it } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import {
  type CloseReason,
  closeAmounts,
  initialMargin,
  isolatedLiquidationPrice,
  partialClose,
  tradeFee,
} from '../../protocol/rules/lever';
import { withLever } from '../../server/domains/lever';
import { withLedger } from '../../server/ledger';
import { translate } from '../../server/platform/i18n/messages';
import { DATABASES } from './harness';
import { BTC_TERMS, btc, btcText, leverBench, recheckClosed, type Tick, usdt, usdtText } from './lever-checks';

/**
 * Partial close and close-all (RULES "Partial close") over HTTP against the real engine, on every database, with the
 * market driven tick by tick: k of a position's n lots close at the first tick after the request with the money of
 * protocol/rules/lever.ts partialClose (margin × k / n rounded down to the user, the close fee on the part's own
 * notional, its P&L booked at once) as a closed row of their own, and the rest stays holding with the margin left and
 * a recomputed LP, watched by its take-profit, stop-loss and liquidation price. Close-all closes every holding
 * position of one book of one user, each at its instrument's next tick. Refusals change nothing; the ledger audit
 * stays clean.
 */
describe.each(DATABASES)('lever partial close on %s', (kind) => {
  const b = leverBench(kind);

  const close = (token: string, id: number, fields: Record<string, string> = {}) =>
    b.ok('lever/close', { id: String(id), request_id: b.rid(), ...fields }, token);

  /** A position of `lots` lots opened at `entry` (the next tick), holding. */
  async function opened(token: string, fields: Record<string, string>, entry = '60000.00') {
    const placed = await b.ok('lever/submit', b.order(fields), token);
    const tick = b.trade(String(fields.symbol ?? 'BTC'), entry);
    const p = await b.phase(token, placed.id, 'holding');
    expect(p.entry?.seq).toBe(tick.seq);
    return p;
  }

  const recheck = (p: LeverPosition) => recheckClosed(b, p);

  /** The user's rows as stored (parts included), oldest first. */
  const rowsOf = (userId: number) =>
    withLever(b.t.db).selectFrom('lever_positions').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  /** The closed rows of the history list that are parts of position `id`. */
  async function partsOf(token: string, id: number): Promise<LeverPosition[]> {
    const history = await b.ok('lever/my_trade', { list: 'history', account: 'real', limit: '100' }, token);
    return history.positions.filter((p) => p.part_of === id);
  }

  /** The open ledger holds of a position (a holding position has exactly one: its margin). */
  async function openHolds(id: number) {
    return withLedger(b.t.db)
      .selectFrom('ledger_holds')
      .select(['amount'])
      .where('ref', '=', `lever ${id}`)
      .where('state', '=', 'open')
      .execute();
  }

  it('3 of 7 lots close at the next tick with the rules’ amounts; the rest holds 4 with the margin left and its LP', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('1000');
    // 7 lots at 60,000.01, 10x: IM 42.000007, open fee 0.210000035 → 0.210001. 10.000001 added: 52.000008 of margin,
    // which 7 does not divide.
    const p = await opened(u.token, { lots: '7' }, '60000.01');
    expect(p).toMatchObject({ initial_margin: '42.000007', open_fee: '0.210001', opened_lots: 7, earlier_parts: [] });
    await b.ok('lever/add_margin', { id: String(p.id), amount: '10.000001', request_id: b.rid() }, u.token);

    const closing = await close(u.token, p.id, { lots: '3' });
    expect(closing).toMatchObject({ phase: 'closing', status: 2, lots: 7, close_lots: 3 });
    await b.settle();
    const exit = b.trade('BTC', '61000.00');
    const rest = await b.phase(u.token, p.id, 'holding');
    const [part] = await partsOf(u.token, p.id);
    if (!part) throw new Error('no part was closed off');

    // The rules' split: ⌊52.000008 × 3/7⌋ = 22.285717 to the user (18.000003 initial + 4.285714 added); the open fee
    // ⌊0.210001 × 3/7⌋ = 0.090000; P&L 0.003 × 999.99 = 2.99997; close fee 0.003 × 61,000 × 0.0005 = 0.0915.
    const whole = {
      side: 'long' as const,
      entry: btc('60000.01'),
      terms: BTC_TERMS,
      lots: 7n,
      initialMargin: BigInt(usdt('42.000007')),
      addedMargin: BigInt(usdt('10.000001')),
      openFee: BigInt(usdt('0.210001')),
    };
    const rule = partialClose(whole, 3n, btc('61000.00'));
    expect(part).toMatchObject({
      phase: 'closed',
      close_reason: 'user',
      lots: 3,
      part_of: p.id,
      opened_lots: 7,
      earlier_parts: [],
      part_basis: { lots: 7, initial_margin: '42.000007', additional_margin: '10.000001', open_fee: '0.210001' },
      initial_margin: '18.000003',
      additional_margin: '4.285714',
      open_fee: '0.090000',
      close_fee: '0.091500',
      realized_pnl: '2.999970',
      insurance: '0.000000',
      // 2.99997 − 0.09 − 0.0915
      total_profit_or_loss: '2.818470',
      entry_price: '60000.01',
      close_offset_price: '61000.00',
      created_at: p.created_at,
    });
    expect(part.entry).toEqual(p.entry);
    expect(part.exit).toEqual({ symbol: 'BTC', seq: exit.seq, ts: exit.ts, price: '61000.00' });
    expect(part.id).not.toBe(p.id);
    expect(usdtText(rule.split.part.initialMargin + rule.split.part.addedMargin)).toBe('22.285717');
    expect(part.realized_pnl).toBe(usdtText(rule.amounts.pnl));
    expect(part.close_fee).toBe(usdtText(rule.amounts.feePaid));

    // The rest: 4 lots, 24.000004 + 5.714287 = 29.714291 of margin, the open fee 0.120001 and a recomputed LP
    // (240.00004 − 29.714291) / (0.004 × 0.995) = 52,835.615… → 52,835.61.
    expect(rest).toMatchObject({
      lots: 4,
      quantity: '0.004',
      initial_margin: '24.000004',
      additional_margin: '5.714287',
      open_fee: '0.120001',
      close_fee: null,
      Liquidation_Price: '52835.61',
      close_lots: null,
      opened_lots: 7,
      earlier_parts: [3],
      part_of: null,
      part_basis: null,
    });
    expect(rest.Liquidation_Price).toBe(btcText(rule.restLiquidationPrice ?? 0n));
    expect(rest.entry).toEqual(p.entry);
    // Money: the open fee left, the part's P&L less its fee came in, and only the rest's margin is held.
    const balance = usdt('1000') - usdt('0.210001') + Number(rule.amounts.userDelta);
    expect(usdtText(balance)).toBe('1002.698469');
    expect(await b.contract(u.id)).toEqual({ balance, available: balance - usdt('29.714291') });
    expect(await openHolds(p.id)).toEqual([{ amount: usdt('29.714291') }]);

    // The rest closes in full later, at its next tick, as any position: 0.004 × 499.99 = 1.99996, fee 0.121.
    await close(u.token, p.id);
    await b.settle();
    const last = b.trade('BTC', '60500.00');
    const done = await b.phase(u.token, p.id, 'closed');
    expect(done).toMatchObject({
      close_reason: 'user',
      lots: 4,
      realized_pnl: '1.999960',
      close_fee: '0.121000',
      open_fee: '0.120001',
      total_profit_or_loss: '1.758959',
      opened_lots: 7,
      earlier_parts: [3],
    });
    expect(done.exit?.seq).toBe(last.seq);
    // The nets of the part and the rest add up to what the position moved of the owner's money.
    const final = await b.contract(u.id);
    expect(final).toEqual({ balance: usdt('1004.577429'), available: usdt('1004.577429') });
    expect(usdt('2.81847') + usdt('1.758959')).toBe(final.balance - usdt('1000'));
    expect(await openHolds(p.id)).toEqual([]);
    // Both settlements re-check from the price record with the rule code: the part from its basis, the rest from
    // the lots closed off before it.
    expect(await recheck(part)).toMatchObject({ ok: true, exitBatchId: expect.any(Number) });
    expect(await recheck(done)).toMatchObject({ ok: true });
    expect(await recheck({ ...part, additional_margin: '4.285715' })).toEqual({ ok: false, reason: 'margin_differs' });
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('the rest is watched: its take-profit, its stop-loss and its recomputed liquidation price fire on it', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('10000');
    const tp = await opened(u.token, { take_profit: '60600.00' });
    const sl = await opened(u.token, { side: 'short', stop_loss: '60700.00' });
    // 100x: IM 6, LP 59,698.49; the rest of 6 lots keeps 3.6 and the same LP.
    const liq = await opened(u.token, { leverage: '100' });
    expect(liq.Liquidation_Price).toBe('59698.49');
    for (const p of [tp, sl, liq]) await close(u.token, p.id, { lots: '4' });
    await b.settle();
    b.trade('BTC', '60000.00');
    for (const p of [tp, sl, liq]) expect(await b.phase(u.token, p.id, 'holding')).toMatchObject({ lots: 6 });
    const rest = await b.ok('lever/info', { id: String(liq.id) }, u.token);
    expect(rest).toMatchObject({ initial_margin: '3.600000', Liquidation_Price: '59698.49' });

    const up = b.trade('BTC', '60600.00');
    expect(await b.phase(u.token, tp.id, 'closed')).toMatchObject({
      close_reason: 'take_profit',
      lots: 6,
      realized_pnl: '3.600000', // 0.006 × 600
      exit: { seq: up.seq },
    });
    const higher = b.trade('BTC', '60700.00');
    expect(await b.phase(u.token, sl.id, 'closed')).toMatchObject({
      close_reason: 'stop_loss',
      lots: 6,
      realized_pnl: '-4.200000', // 0.006 × −700
      exit: { seq: higher.seq },
    });
    b.trade('BTC', '60000.00');
    await b.settle();
    expect((await b.ok('lever/info', { id: String(liq.id) }, u.token)).phase).toBe('holding');
    const down = b.trade('BTC', '59698.49');
    const liquidated = await b.phase(u.token, liq.id, 'closed');
    // Loss 0.006 × 301.51 = 1.80906, fee 0.006 × 59,698.49 × 0.0005 = 0.17909547 → 0.179096; the fund takes the rest
    // of the 3.6 margin.
    expect(liquidated).toMatchObject({ close_reason: 'liquidation', lots: 6, exit: { seq: down.seq } });
    const amounts = closeAmounts(
      { side: 'long', lots: 6n, entry: btc('60000.00'), margin: BigInt(usdt('3.6')), terms: BTC_TERMS },
      btc('59698.49'),
      'liquidation',
      BigInt(usdt('3.6')),
    );
    expect(liquidated.insurance).toBe(usdtText(amounts.insurance));
    expect(usdtText(amounts.insurance)).toBe('1.611844');
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('a split tick past the rest’s LP closes the part by the user and liquidates the rest at that same tick', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('1000');
    const p = await opened(u.token, { leverage: '100' });
    await close(u.token, p.id, { lots: '4' });
    await b.settle();
    // The first tick after the request gaps past the LP (59,698.49) of the whole and of the rest.
    const gap = b.trade('BTC', '59000.00');
    const rest = await b.phase(u.token, p.id, 'closed');
    const [part] = await partsOf(u.token, p.id);
    expect(part).toMatchObject({ close_reason: 'user', lots: 4, exit: { seq: gap.seq } });
    expect(rest).toMatchObject({ close_reason: 'liquidation', lots: 6, exit: { seq: gap.seq } });
    // Each loses at most its own margin (2.4 and 3.6); the gap beyond is the insurance fund's.
    expect(part?.total_profit_or_loss).toBe(usdtText(-BigInt(usdt('2.4')) - BigInt(usdt('0.12'))));
    expect(rest.total_profit_or_loss).toBe(usdtText(-BigInt(usdt('3.6')) - BigInt(usdt('0.18'))));
    // 1,000 − 0.3 open fee − 2.4 − 3.6: both margins, nothing more.
    expect(await b.contract(u.id)).toEqual({ balance: usdt('993.7'), available: usdt('993.7') });
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('a cross position’s part settles in its account; the rest stays cross with its margin held', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('1000');
    const p = await opened(u.token, { margin_mode: 'cross' });
    await close(u.token, p.id, { lots: '4' });
    await b.settle();
    // 4 lots at a loss of 1,000 each: −4, fee 0.004 × 59,000 × 0.0005 = 0.118; the 24 of margin share is released.
    b.trade('BTC', '59000.00');
    const rest = await b.phase(u.token, p.id, 'holding');
    const [part] = await partsOf(u.token, p.id);
    expect(part).toMatchObject({
      lots: 4,
      realized_pnl: '-4.000000',
      close_fee: '0.118000',
      initial_margin: '24.000000',
    });
    expect(rest).toMatchObject({ lots: 6, initial_margin: '36.000000', margin_mode: 'cross' });
    // 1,000 − 0.3 − 4.118; the rest's 36 is held.
    expect(await b.contract(u.id)).toEqual({ balance: usdt('995.582'), available: usdt('959.582') });
    const deal = await b.ok('lever/deal', { account: 'real' }, u.token);
    expect(deal.cross_wallet).toBe('995.582000');
    await close(u.token, p.id);
    await b.settle();
    b.trade('BTC', '59000.00');
    expect(await b.phase(u.token, p.id, 'closed')).toMatchObject({ lots: 6, realized_pnl: '-6.000000' });
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('refusals change nothing: more lots than held, bad lots, a second close while one waits; a retry applies once', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('1000');
    const p = await opened(u.token, {});
    const before = { rows: await rowsOf(u.id), money: await b.contract(u.id) };
    const id = String(p.id);
    await b.refused('lever/close', { id, lots: '11', request_id: b.rid() }, u.token, 'leverCloseTooManyLots');
    for (const lots of ['0', '-1', '2.5', 'x']) {
      await b.refused('lever/close', { id, lots, request_id: b.rid() }, u.token, 'leverLotsInvalid');
    }
    expect({ rows: await rowsOf(u.id), money: await b.contract(u.id) }).toEqual(before);

    const once = { id, lots: '4', request_id: b.rid() };
    expect(await b.ok('lever/close', once, u.token)).toMatchObject({ phase: 'closing', close_lots: 4 });
    // The same request again answers; another close while this one waits is refused, a full one too.
    expect(await b.ok('lever/close', once, u.token)).toMatchObject({ phase: 'closing', close_lots: 4 });
    await b.refused('lever/close', { id, lots: '2', request_id: b.rid() }, u.token, 'leverAlreadyClosing');
    await b.refused('lever/close', { id, request_id: b.rid() }, u.token, 'leverAlreadyClosing');
    await b.settle();
    b.trade('BTC', '60000.00');
    await b.phase(u.token, p.id, 'holding');
    // A retry after the part closed answers the position as it now is and closes nothing more.
    expect(await b.ok('lever/close', once, u.token)).toMatchObject({ phase: 'holding', lots: 6 });
    await b.settle();
    b.trade('BTC', '60000.00');
    await b.settle();
    expect(await partsOf(u.token, p.id)).toHaveLength(1);
    expect(await b.ok('lever/info', { id }, u.token)).toMatchObject({ phase: 'holding', lots: 6 });
    // All of what is held is a full close (no part row); a partial close of a closed position is refused.
    expect(await b.ok('lever/close', { id, lots: '6', request_id: b.rid() }, u.token)).toMatchObject({
      phase: 'closing',
      close_lots: null,
    });
    b.trade('BTC', '60000.00');
    await b.phase(u.token, p.id, 'closed');
    expect(await partsOf(u.token, p.id)).toHaveLength(1);
    await b.refused('lever/close', { id, lots: '1', request_id: b.rid() }, u.token, 'leverNotOpen');
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('close-all closes every holding position of the book, each at its instrument’s next tick, and nothing else', async () => {
    b.trade('BTC', '60000.00');
    b.trade('ETH', '3000.00');
    const u = await b.trader('10000');
    const other = await b.trader('10000');
    const btcPos = await opened(u.token, {});
    const ethPos = await opened(u.token, { symbol: 'ETH', lots: '2' }, '3000.00');
    const pending = await b.ok('lever/submit', b.order({ type: 'limit', price: '50000.00' }), u.token);
    await b.ok('lever/simulator', {}, u.token);
    const practice = await opened(u.token, { account: 'simulator' });
    const theirs = await opened(other.token, {});
    await b.phase(u.token, pending.id, 'pending');

    const answer = await b.ok('lever/close_all', { account: 'real' }, u.token);
    expect(answer.positions.map((p) => p.id).sort()).toEqual([btcPos.id, ethPos.id].sort());
    expect(answer.positions.every((p) => p.phase === 'closing' && p.close_lots === null)).toBe(true);
    await b.settle();
    const btcTick = b.trade('BTC', '60100.00');
    expect(await b.phase(u.token, btcPos.id, 'closed')).toMatchObject({
      close_reason: 'user',
      exit: { seq: btcTick.seq },
    });
    // ETH has not ticked since: its position still waits for its own next tick.
    expect((await b.ok('lever/info', { id: String(ethPos.id) }, u.token)).phase).toBe('closing');
    const ethTick = b.trade('ETH', '3010.00');
    expect(await b.phase(u.token, ethPos.id, 'closed')).toMatchObject({
      close_reason: 'user',
      exit: { seq: ethTick.seq },
    });
    await b.settle();
    expect((await b.ok('lever/info', { id: String(practice.id) }, u.token)).phase).toBe('holding');
    expect((await b.ok('lever/info', { id: String(pending.id) }, u.token)).phase).toBe('pending');
    expect((await b.ok('lever/info', { id: String(theirs.id) }, other.token)).phase).toBe('holding');
    // Nothing left holding in the real book: a second close-all puts nothing into closing.
    expect((await b.ok('lever/close_all', { account: 'real' }, u.token)).positions).toEqual([]);
    await b.refused('lever/close_all', { account: 'demo' }, u.token, 'invalidInput');
    expect(await b.ledgerProblems()).toEqual([]);
  });

  /**
   * A partial close racing the liquidation tick L, judged as a whole close is (lever-concurrency.test.ts): a close
   * accepted before L takes L as its tick (the part closes by the user at L, and L liquidates the rest, whose LP is the
   * whole's); a request at or after L, or one that lost the race, finds the position liquidated whole at L (answered
   * as refused: a closed position has no lots left to split). Either way every lot closes at L, once, with the rules'
   * money for the row it closed in. (Driven this way the request mostly loses to the engine; the split at L after a
   * request accepted first is the test above, 'a split tick past the rest’s LP'.)
   */
  const modes = ['tick then close', 'close then tick', 'together'] as const;
  it.each([0, 1, 2, 3, 4, 5])(
    'a partial close racing the liquidation tick: every lot closes at L, once (round %i)',
    async (round) => {
      const mode = modes[round % modes.length] as (typeof modes)[number];
      b.trade('BTC', '60000.00');
      const u = await b.trader('1000');
      const open = await opened(u.token, { leverage: '100' });
      const lp = btc(open.Liquidation_Price ?? '0');
      const at = btcText(round < 3 ? lp : lp - 2_000n);
      let lpTick: Tick | undefined;
      const request = () =>
        b.t.call('lever/close', { id: String(open.id), lots: '4', request_id: b.rid() }, { token: u.token });
      let answer: Awaited<ReturnType<typeof request>>;
      if (mode === 'tick then close') {
        lpTick = b.trade('BTC', at);
        answer = await request();
      } else if (mode === 'close then tick') {
        const pending = request();
        await new Promise((resolve) => setImmediate(resolve));
        lpTick = b.trade('BTC', at);
        answer = await pending;
      } else {
        [answer] = await Promise.all([
          request(),
          Promise.resolve().then(() => {
            lpTick = b.trade('BTC', at);
          }),
        ]);
      }
      const L = lpTick as Tick;
      const accepted = answer.body.type === 'ok';
      if (!accepted) expect(answer.body.message).toBe(translate('en', 'leverNotOpen'));
      await b.settle();
      const after = b.trade('BTC', '60000.00');
      await b.phase(u.token, open.id, 'closed');
      const rows = await rowsOf(u.id);
      const story = `${mode}: ${accepted ? 'accepted' : 'refused'}; ${rows.map((r) => `${r.lots} ${r.close_reason}`).join(', ')}`;
      expect(
        rows.every((r) => r.phase === 'closed' && r.exit_seq === L.seq),
        story,
      ).toBe(true);
      expect(
        rows.reduce((sum, r) => sum + r.lots, 0),
        story,
      ).toBe(10);
      expect(rows.some((r) => r.exit_seq === after.seq)).toBe(false);
      if (rows.length === 1) {
        expect(rows[0]?.close_reason, story).toBe('liquidation');
      } else {
        // Split at L: the request came before L, the part by the user and the rest by its liquidation.
        const requested = rows.find((r) => r.part_of === open.id)?.close_requested_at;
        expect(requested !== undefined && requested !== null && requested < L.ts, story).toBe(true);
        expect(rows.map((r) => [r.lots, r.close_reason]).sort(), story).toEqual([
          [4, 'user'],
          [6, 'liquidation'],
        ]);
      }
      // Money: the open fee of the whole, then each row's close by the rules at L with its own margin.
      let balance = BigInt(usdt('1000')) - tradeFee(10n, btc('60000.00'), BTC_TERMS);
      for (const r of rows) {
        const margin = BigInt(r.margin ?? 0) + BigInt(r.added_margin);
        const units = { side: r.side, lots: BigInt(r.lots), entry: btc('60000.00'), margin, terms: BTC_TERMS };
        balance += closeAmounts(units, btc(at), r.close_reason as CloseReason, margin).userDelta;
      }
      expect(await b.contract(u.id)).toEqual({ balance: Number(balance), available: Number(balance) });
      const margins = rows.reduce((sum, r) => sum + BigInt(r.margin ?? 0), 0n);
      expect(margins).toBe(initialMargin(10n, btc('60000.00'), 100, BTC_TERMS));
      expect(
        isolatedLiquidationPrice({
          side: 'long',
          lots: 10n,
          entry: btc('60000.00'),
          margin: margins,
          terms: BTC_TERMS,
        }),
      ).toBe(lp);
      expect(await b.ledgerProblems()).toEqual([]);
    },
  );
});
