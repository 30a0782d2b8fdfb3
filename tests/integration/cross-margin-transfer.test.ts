import { describe, expect, it, vi } from 'vitest';
import type { LeverPosition } from '../../protocol/lever';
import { withLever } from '../../server/domains/lever';
import { translate } from '../../server/platform/i18n/messages';
import { DATABASES } from './harness';
import { btc, leverBench, usdt } from './lever-checks';

/**
 * RULES "Cross margin": money that backs cross positions stays. A transfer out of the contract account is refused
 * when it would leave the equity (cross wallet + Σ UPNL at the marks) below the open cross positions' initial
 * margin; a loss shrinks what may leave, isolated positions do not count, and a transfer racing cross opens on one
 * balance never leaves the account short, on every database.
 *
 * All positions here are BTC at 10x: IM in USDT minor units is then lots × entry in cents, and UPNL is
 * side × lots × (mark − entry) in cents × 10 (Q = lots × 0.001; money has 6 decimals, prices 2).
 */
describe.each(DATABASES)('cross margin backs its money on %s', (kind) => {
  const b = leverBench(kind);
  const backed = translate('en', 'crossMarginBacked');

  const transfer = (token: string, amount: string, fields: Record<string, string> = {}) =>
    b.t.call(
      'wallet/change',
      { currency: 'USDT', from: 'contract', to: 'coin', amount, request_id: b.rid(), ...fields },
      { token },
    );

  /** Waits until the position is in `wanted` and the floating P&L is judged at `mark` (the feed has the tick). */
  async function openedAt(token: string, id: number, floating: string): Promise<LeverPosition> {
    let p: LeverPosition | undefined;
    await vi.waitFor(
      async () => {
        p = await b.ok('lever/info', { id: String(id) }, token);
        expect(p.phase).toBe('holding');
        expect(p.floating_profit_or_loss).toBe(floating);
      },
      { timeout: 10_000, interval: 30 },
    );
    return p as LeverPosition;
  }

  /** Opens a 10x BTC market position at the next tick `entry`. */
  async function open(token: string, fields: Record<string, string>, entry: string): Promise<LeverPosition> {
    const placed = await b.ok('lever/submit', b.order(fields), token);
    b.trade('BTC', entry);
    return b.phase(token, placed.id, 'holding');
  }

  /** equity − Σ IM of the user's open cross positions at `mark` (cents), in USDT minor units, from the database. */
  async function crossSurplus(userId: number, mark: string): Promise<bigint> {
    const { available } = await b.contract(userId);
    const rows = await withLever(b.t.db)
      .selectFrom('lever_positions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('margin_mode', '=', 'cross')
      .where('phase', 'in', ['holding', 'closing'])
      .execute();
    let surplus = BigInt(available);
    for (const row of rows) {
      expect(row.leverage).toBe(10);
      const lots = BigInt(row.lots);
      const entry = btc(row.entry_price ?? '0');
      const side = row.side === 'long' ? 1n : -1n;
      surplus += BigInt(row.margin ?? 0) + BigInt(row.added_margin);
      surplus += side * lots * (btc(mark) - entry) * 10n;
      surplus -= lots * entry;
    }
    return surplus;
  }

  it('a loss keeps back what backs the cross position: exactly the rest may leave, one unit more is refused', async () => {
    b.trade('BTC', '60000.00');
    // 160.3 = IM 60 + open fee 0.3 + 100 free.
    const u = await b.trader('160.3');
    const p = await open(u.token, { margin_mode: 'cross' }, '60000.00');
    expect(p.initial_margin).toBe('60.000000');
    expect(await b.contract(u.id)).toEqual({ balance: usdt('160'), available: usdt('100') });

    // Mark 59,000: UPNL = 0.01 × −1,000 = −10, so 90 of the 100 available may leave.
    b.trade('BTC', '59000.00');
    await openedAt(u.token, p.id, '-10.000000');
    const refusedAll = await transfer(u.token, '100');
    expect(refusedAll.body.message).toBe(backed);
    const oneUnitMore = await transfer(u.token, '90.000001');
    expect(oneUnitMore.body.message).toBe(backed);
    expect(await b.contract(u.id)).toEqual({ balance: usdt('160'), available: usdt('100') });

    // Exactly equal is allowed.
    const exact = await transfer(u.token, '90');
    expect(exact.body.type, JSON.stringify(exact.body)).toBe('ok');
    expect(await crossSurplus(u.id, '59000.00')).toBe(0n);
    const afterwards = await transfer(u.token, '0.000001');
    expect(afterwards.body.message).toBe(backed);

    // More than the available balance is still the plain overdraft; money coming in is never held back.
    const overdraft = await transfer(u.token, '11');
    expect(overdraft.body.message).toBe(translate('en', 'insufficientBalance'));
    const back = await transfer(u.token, '1', { from: 'coin', to: 'contract' });
    expect(back.body.type, JSON.stringify(back.body)).toBe('ok');
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('isolated positions do not count, and without a cross position all available money may leave', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('160.3');
    const p = await open(u.token, { margin_mode: 'isolated' }, '60000.00');
    b.trade('BTC', '59000.00');
    await openedAt(u.token, p.id, '-10.000000');
    const all = await transfer(u.token, '100');
    expect(all.body.type, JSON.stringify(all.body)).toBe('ok');
    expect(await b.contract(u.id)).toEqual({ balance: usdt('60'), available: 0 });
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('a gain does not let more than the available balance leave', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('160.3');
    const p = await open(u.token, { margin_mode: 'cross' }, '60000.00');
    b.trade('BTC', '61000.00');
    await openedAt(u.token, p.id, '10.000000');
    const all = await transfer(u.token, '100');
    expect(all.body.type, JSON.stringify(all.body)).toBe('ok');
    const more = await transfer(u.token, '0.000001');
    expect(more.body.message).toBe(translate('en', 'insufficientBalance'));
  });

  it('transfers out racing cross opens on one balance: the equity still covers every cross IM', async () => {
    b.trade('BTC', '60000.00');
    const u = await b.trader('160.3');
    const first = await open(u.token, { margin_mode: 'cross' }, '60000.00');
    b.trade('BTC', '59000.00');
    await openedAt(u.token, first.id, '-10.000000');
    // 90 may leave; 10 transfers of 15 and 6 one-lot cross opens (IM 5.9 + fee 0.0295 each at 59,000) ask for far
    // more: serialized, not all can succeed. Half the transfers race the submits (which hold the reserves); the other
    // half are in flight when the entry tick fires, so they race the engine's opens under the contract account's lock.
    const early = await Promise.all([
      ...Array.from({ length: 5 }, () => transfer(u.token, '15')),
      ...Array.from({ length: 6 }, () =>
        b.t.call('lever/submit', b.order({ margin_mode: 'cross', lots: '1' }), { token: u.token }),
      ),
    ]);
    const placed = early.slice(5).flatMap((a) => (a.body.type === 'ok' ? [(a.body.data as LeverPosition).id] : []));
    expect(placed.length).toBeGreaterThan(0);
    const late = Array.from({ length: 5 }, () => transfer(u.token, '15'));
    // The entry tick, at the same mark: every placed order opens or is cancelled for want of margin.
    b.trade('BTC', '59000.00');
    const answers = [...early, ...(await Promise.all(late))];
    for (const a of answers) {
      if (a.body.type !== 'ok') {
        expect([backed, translate('en', 'insufficientBalance')]).toContain(a.body.message);
      }
    }
    await vi.waitFor(
      async () => {
        for (const id of placed) {
          const p = await b.ok('lever/info', { id: String(id) }, u.token);
          expect(['holding', 'cancelled']).toContain(p.phase);
        }
      },
      { timeout: 10_000, interval: 30 },
    );
    expect(await crossSurplus(u.id, '59000.00')).toBeGreaterThanOrEqual(0n);
    expect(await b.ledgerProblems()).toEqual([]);
  });

  const addMargin = (token: string, id: number, amount: string) =>
    b.t.call('lever/add_margin', { id: String(id), amount, request_id: b.rid() }, { token });

  /**
   * A 10-lot cross long and a 1-lot isolated long at 60,000, judged at 59,000: available 100, of which 90 may leave
   * the cross wallet (IM 60, UPNL −10). 166.33 = cross IM 60 + fee 0.3 + isolated IM 6 + fee 0.03 + 100.
   */
  async function crossAndIsolated() {
    b.trade('BTC', '60000.00');
    const u = await b.trader('166.33');
    const cross = await open(u.token, { margin_mode: 'cross' }, '60000.00');
    const isolated = await open(u.token, { margin_mode: 'isolated', lots: '1' }, '60000.00');
    b.trade('BTC', '59000.00');
    await openedAt(u.token, cross.id, '-10.000000');
    await openedAt(u.token, isolated.id, '-1.000000');
    expect(await b.contract(u.id)).toEqual({ balance: usdt('166'), available: usdt('100') });
    return { u, isolated };
  }

  it('adding isolated margin is money leaving the cross wallet: exactly the free part may go, one unit more is refused', async () => {
    const { u, isolated } = await crossAndIsolated();
    const tooMuch = await addMargin(u.token, isolated.id, '90.000001');
    expect(tooMuch.body.message).toBe(backed);
    const untouched = await b.ok('lever/info', { id: String(isolated.id) }, u.token);
    expect(untouched.additional_margin).toBe(isolated.additional_margin);
    expect(await b.contract(u.id)).toEqual({ balance: usdt('166'), available: usdt('100') });

    const exact = await addMargin(u.token, isolated.id, '90');
    expect(exact.body.type, JSON.stringify(exact.body)).toBe('ok');
    expect(await crossSurplus(u.id, '59000.00')).toBe(0n);
    const more = await addMargin(u.token, isolated.id, '0.000001');
    expect(more.body.message).toBe(backed);
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('add_margin racing transfers and cross opens on one balance: the equity still covers every cross IM', async () => {
    const { u, isolated } = await crossAndIsolated();
    // 90 may leave; 6 transfers of 20, 6 add_margins of 15 and 4 one-lot cross opens ask for far more. Whichever
    // comes first, what comes after must see it: an add_margin after four transfers must not take 15 of the 20 left.
    const asks = [
      ...Array.from({ length: 6 }, () => transfer(u.token, '20')),
      ...Array.from({ length: 6 }, () => addMargin(u.token, isolated.id, '15')),
      ...Array.from({ length: 4 }, () =>
        b.t.call('lever/submit', b.order({ margin_mode: 'cross', lots: '1' }), { token: u.token }),
      ),
    ];
    const answers = await Promise.all(asks);
    const refusals = [
      backed,
      translate('en', 'insufficientBalance'),
      // Two add_margins of one position racing: the loser of the version race reads again.
      translate('en', 'leverNotOpen'),
    ];
    for (const a of answers) {
      if (a.body.type !== 'ok') expect(refusals, JSON.stringify(a.body)).toContain(a.body.message);
    }
    const placed = answers.slice(12).flatMap((a) => (a.body.type === 'ok' ? [(a.body.data as LeverPosition).id] : []));
    b.trade('BTC', '59000.00');
    await vi.waitFor(
      async () => {
        for (const id of placed) {
          const p = await b.ok('lever/info', { id: String(id) }, u.token);
          expect(['holding', 'cancelled']).toContain(p.phase);
        }
      },
      { timeout: 10_000, interval: 30 },
    );
    expect(await crossSurplus(u.id, '59000.00')).toBeGreaterThanOrEqual(0n);
    expect(await b.ledgerProblems()).toEqual([]);
  });

  it('wallet/list tells how much may leave the contract account: the free part under a loss, all of it otherwise', async () => {
    const { u } = await crossAndIsolated();
    const usdtRow = async (type: string) => {
      const list = await b.ok('wallet/list', {}, u.token);
      return list.accounts.find((a) => a.type === type)?.rows.find((r) => r.currency === 'USDT');
    };
    expect(await usdtRow('contract')).toMatchObject({ available: '100.000000', transferable: '90.000000' });
    // Another account's money backs nothing.
    await b.ok(
      'wallet/change',
      { currency: 'USDT', from: 'contract', to: 'coin', amount: '5', request_id: b.rid() },
      u.token,
    );
    expect(await usdtRow('coin')).toMatchObject({ available: '5.000000', transferable: '5.000000' });
    expect(await usdtRow('contract')).toMatchObject({ available: '95.000000', transferable: '85.000000' });
    // A gain: what may leave is capped at the available balance, as the ledger caps a transfer.
    b.trade('BTC', '62000.00');
    await vi.waitFor(
      async () =>
        expect(await usdtRow('contract')).toMatchObject({ available: '95.000000', transferable: '95.000000' }),
      { timeout: 10_000, interval: 30 },
    );
    // The losses ate all the free money: nothing may leave, never a negative amount.
    b.trade('BTC', '50000.00');
    await vi.waitFor(async () => expect(await usdtRow('contract')).toMatchObject({ transferable: '0.000000' }), {
      timeout: 10_000,
      interval: 30,
    });
    const refused = await transfer(u.token, '0.000001');
    expect(refused.body.message).toBe(backed);
  });
});
