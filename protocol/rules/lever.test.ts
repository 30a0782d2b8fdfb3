// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  afterParts,
  closeAmounts,
  closedNet,
  compare,
  crossAccountLiquidated,
  crossLiquidationPrice,
  crossMarginBacked,
  crossMarginFree,
  initialMargin,
  isolatedLiquidationPrice,
  type LeverPositionUnits,
  type LeverTerms,
  liquidationDistanceText,
  maintenanceMarginExact,
  marginRatioText,
  type PositionShares,
  partialClose,
  percentText,
  pnlUnits,
  priceAtRoe,
  proRataDown,
  reachesLiquidation,
  roeAtPriceText,
  roeText,
  splitPosition,
  stopProblem,
  sub,
  tradeFee,
  unrealisedPnlExact,
} from './lever';
import { toUnits } from './spot';

const BTC: LeverTerms = { contractSize: '0.001', mmr: '0.005', feeRate: '0.0005', priceScale: 2, quoteScale: 6 };
const UNIT: LeverTerms = { ...BTC, contractSize: '1', mmr: '0.004' };
/** USDT text as minor units (6 decimals), exactly. */
const usdt = (text: string) => {
  const units = toUnits(text, 6);
  if (units === null) throw new Error(`not an amount: ${text}`);
  return units;
};
const price = (text: string) => BigInt(text.replace('.', ''));

describe('lever rules', () => {
  it('RULES vector: long Q = 1 at 100,000, WB 5,000, MMR 0.4% liquidates at 95,381.52', () => {
    const p: LeverPositionUnits = { side: 'long', lots: 1n, entry: 10_000_000n, margin: usdt('5000'), terms: UNIT };
    const lp = isolatedLiquidationPrice(p);
    expect(lp).toBe(9_538_152n); // 95,381.526... rounded down to the cent
    // At LP the margin left (WB + UPNL) is the maintenance margin, within one price tick.
    const left = add({ units: p.margin, scale: 6 }, unrealisedPnlExact(p, lp as bigint));
    const mm = maintenanceMarginExact(1n, lp as bigint, UNIT);
    expect(compare(left, mm)).toBeLessThanOrEqual(0);
    const leftAbove = add({ units: p.margin, scale: 6 }, unrealisedPnlExact(p, (lp as bigint) + 1n));
    expect(compare(leftAbove, maintenanceMarginExact(1n, (lp as bigint) + 1n, UNIT))).toBeGreaterThan(0);
  });

  it('margin, fee and P&L round against the user by less than one unit', () => {
    // 3 lots of 0.001 BTC at 64,250.01 with 7x: notional 192.75003, IM 27.535718571... → 27.535719
    expect(initialMargin(3n, price('64250.01'), 7, BTC)).toBe(27_535_719n);
    // fee 0.05% of 192.75003 = 0.096375015 → 0.096376
    expect(tradeFee(3n, price('64250.01'), BTC)).toBe(96_376n);
    const p = { side: 'long' as const, lots: 3n, entry: price('64250.01'), terms: BTC };
    // 0.003 × 0.01 = 0.00003 either way: exact, nothing rounds
    expect(pnlUnits(p, price('64250.02'))).toBe(30n);
    expect(pnlUnits(p, price('64250.00'))).toBe(-30n);
    // 0.0001 × 0.01 = 0.000001; with contract size 0.0001 and 3 lots, 0.0000015 gain → 1, loss → −2
    const tiny = { ...p, terms: { ...BTC, contractSize: '0.00005' } };
    expect(pnlUnits(tiny, price('64250.02'))).toBe(1n);
    expect(pnlUnits(tiny, price('64250.00'))).toBe(-2n);
  });

  it('adding margin lowers a long LP by ΔM / (Q × (1 − MMR)) and raises a short LP by ΔM / (Q × (1 + MMR))', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1_000_000, max: 10_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 1000 }),
        (side, lots, entryCents, leverage, addedUsdt) => {
          const entry = BigInt(entryCents);
          const margin = initialMargin(BigInt(lots), entry, leverage, BTC);
          const before = isolatedLiquidationPrice({ side, lots: BigInt(lots), entry, margin, terms: BTC });
          const added = BigInt(addedUsdt) * 1_000_000n;
          const after = isolatedLiquidationPrice({
            side,
            lots: BigInt(lots),
            entry,
            margin: margin + added,
            terms: BTC,
          });
          // Expected shift in cents: ΔM / (Q × (1 ∓ MMR)), Q = lots/1000, MMR 0.005; compared within the tick rounding.
          const q = lots / 1000;
          const shiftCents = (addedUsdt / (q * (side === 'long' ? 0.995 : 1.005))) * 100;
          if (before === null) return after === null;
          if (side === 'long') {
            if (after === null) return true; // it fell to or below 0: "--"
            expect(Math.abs(Number(before - after) - shiftCents)).toBeLessThanOrEqual(1.0001);
          } else {
            expect(after).not.toBeNull();
            expect(Math.abs(Number((after as bigint) - before) - shiftCents)).toBeLessThanOrEqual(1.0001);
          }
          return true;
        },
      ),
    );
  });

  it('at LP the margin left equals the maintenance margin within one price tick (isolated, both sides)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 100_000, max: 20_000_000 }),
        fc.constantFrom(2, 5, 10, 20, 50, 100),
        (side, lots, entryCents, leverage) => {
          const entry = BigInt(entryCents);
          const p = { side, lots: BigInt(lots), entry, terms: BTC };
          const margin = initialMargin(p.lots, entry, leverage, BTC);
          const lp = isolatedLiquidationPrice({ ...p, margin });
          if (lp === null) return true;
          const wb = { units: margin, scale: 6 };
          const leftAt = (m: bigint) => sub(add(wb, unrealisedPnlExact(p, m)), maintenanceMarginExact(p.lots, m, BTC));
          // At LP the account is at or below MM; one tick on the safe side it is above.
          const safer = side === 'long' ? lp + 1n : lp - 1n;
          expect(leftAt(lp).units <= 0n).toBe(true);
          expect(leftAt(safer).units > 0n).toBe(true);
          expect(reachesLiquidation(side, lp, lp)).toBe(true);
          expect(reachesLiquidation(side, lp, safer)).toBe(false);
          return true;
        },
      ),
    );
  });

  it('cross LP equals the isolated LP for one position whose wallet is its margin; the account check agrees', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 100_000, max: 20_000_000 }),
        fc.constantFrom(1, 3, 10, 25, 100),
        (side, lots, entryCents, leverage) => {
          const p = { side, lots: BigInt(lots), entry: BigInt(entryCents), terms: BTC };
          const margin = initialMargin(p.lots, p.entry, leverage, BTC);
          const isolated = isolatedLiquidationPrice({ ...p, margin });
          expect(crossLiquidationPrice(p, margin, [])).toBe(isolated);
          if (isolated !== null) {
            expect(crossAccountLiquidated(margin, 6, [{ ...p, mark: isolated }])).toBe(true);
            const safer = side === 'long' ? isolated + 1n : isolated - 1n;
            expect(crossAccountLiquidated(margin, 6, [{ ...p, mark: safer }])).toBe(false);
          }
          return true;
        },
      ),
    );
  });

  it("a cross LP moves with the other positions' P&L", () => {
    const a = { side: 'long' as const, lots: 100n, entry: price('60000.00'), terms: BTC };
    const b = { side: 'long' as const, lots: 100n, entry: price('60000.00'), terms: BTC, mark: price('60000.00') };
    const wallet = 1_000_000_000n; // 1,000 USDT
    const flat = crossLiquidationPrice(a, wallet, [b]) as bigint;
    const otherLoses = crossLiquidationPrice(a, wallet, [{ ...b, mark: price('59000.00') }]) as bigint;
    expect(otherLoses).toBeGreaterThan(flat);
  });

  it('closes: a normal close pays the P&L and the fee; a liquidation gives the margin left to the fund; a gap is the fund’s', () => {
    const p: LeverPositionUnits = { side: 'long', lots: 1n, entry: 10_000_000n, margin: usdt('5000'), terms: UNIT };
    const win = closeAmounts(p, 10_100_000n, 'user', p.margin);
    expect(win).toMatchObject({ pnl: usdt('1000'), fee: usdt('50.5'), feePaid: usdt('50.5'), insurance: 0n });
    expect(win.userDelta).toBe(usdt('1000') - usdt('50.5'));
    const liq = closeAmounts(p, 9_538_152n, 'liquidation', p.margin);
    expect(liq.userDelta).toBe(-p.margin);
    expect(liq.insurance).toBeGreaterThan(0n);
    expect(liq.userDelta + liq.desk + liq.feePaid + liq.insurance).toBe(0n);
    const gap = closeAmounts(p, 9_000_000n, 'liquidation', p.margin);
    expect(gap.userDelta).toBe(-p.margin);
    expect(gap.feePaid).toBe(0n);
    expect(gap.insurance).toBe(-(usdt('10000') - p.margin));
    expect(gap.userDelta + gap.desk + gap.feePaid + gap.insurance).toBe(0n);
  });

  it('net result: P&L minus both fees, minus what a liquidation gave the fund (the user’s money over the life)', () => {
    // Integration vectors: 10 lots of 0.001 BTC, 10x at 60,000.00; open fee 0.01 × 60,000 × 0.0005 = 0.3.
    const p: LeverPositionUnits = { side: 'long', lots: 10n, entry: price('60000.00'), margin: usdt('60'), terms: BTC };
    const openFee = tradeFee(p.lots, p.entry, BTC);
    expect(openFee).toBe(usdt('0.3'));
    const net = (c: ReturnType<typeof closeAmounts>) =>
      closedNet({ pnl: c.pnl, openFee, closeFee: c.feePaid, insurance: c.insurance });
    // Take-profit at 61,000: +10 − 0.3 − 0.305 = +9.395.
    const tp = closeAmounts(p, price('61000.00'), 'take_profit', p.margin);
    expect(net(tp)).toBe(usdt('9.395'));
    // A loss closed by the user: −5 − 0.3 − 0.2975 = −5.5975.
    const loss = closeAmounts(p, price('59500.00'), 'user', p.margin);
    expect(net(loss)).toBe(-usdt('5.5975'));
    // Liquidated with 70 of margin (10 added) at 53,266.33: the margin and the open fee are gone, −70.3, though
    // P&L and fees alone come to −67.903032 (2.396968 of margin left went to the fund).
    const topped = { ...p, margin: usdt('70') };
    const liq = closeAmounts(topped, price('53266.33'), 'liquidation', topped.margin);
    expect(liq.insurance).toBe(usdt('2.396968'));
    expect(net(liq)).toBe(-usdt('70.3'));
    // A short at 100x gapped past its LP to 61,000: P&L −10, but the user loses the 6 of margin and the open fee.
    const short: LeverPositionUnits = { ...p, side: 'short', margin: usdt('6') };
    const gap = closeAmounts(short, price('61000.00'), 'liquidation', short.margin);
    expect(gap).toMatchObject({ pnl: -usdt('10'), feePaid: 0n, insurance: -usdt('4') });
    expect(net(gap)).toBe(-usdt('6.3'));
    for (const c of [tp, loss, liq, gap]) expect(net(c)).toBe(c.userDelta - openFee);
  });

  it('close legs always balance and the user never loses more than it can', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 100_000, max: 20_000_000 }),
        fc.integer({ min: 100_000, max: 20_000_000 }),
        fc.constantFrom<'user' | 'take_profit' | 'stop_loss' | 'liquidation'>(
          'user',
          'take_profit',
          'stop_loss',
          'liquidation',
        ),
        fc.integer({ min: 0, max: 1_000_000_000 }),
        (side, lots, entry, exit, reason, extra) => {
          const margin = initialMargin(BigInt(lots), BigInt(entry), 10, BTC);
          const p = { side, lots: BigInt(lots), entry: BigInt(entry), margin, terms: BTC };
          const canLose = margin + BigInt(extra);
          const c = closeAmounts(p, BigInt(exit), reason, canLose);
          expect(c.userDelta + c.desk + c.feePaid + c.insurance).toBe(0n);
          expect(-c.userDelta).toBeLessThanOrEqual(canLose);
          expect(c.feePaid).toBeLessThanOrEqual(c.fee);
          expect(c.desk).toBe(-c.pnl);
          // A liquidation happens at a loss; there it takes the whole margin (or all the user can lose).
          if (reason === 'liquidation' && c.pnl <= 0n)
            expect(-c.userDelta).toBeGreaterThanOrEqual(margin < canLose ? margin : canLose);
          return true;
        },
      ),
    );
  });

  it('stops: TP on the profit side, SL on the loss side and not beyond LP', () => {
    expect(stopProblem('long', 100n, 90n, 110n, 95n)).toBeNull();
    expect(stopProblem('long', 100n, 90n, 100n, null)).toBe('leverTakeProfitSide');
    expect(stopProblem('long', 100n, 90n, null, 101n)).toBe('leverStopLossSide');
    expect(stopProblem('long', 100n, 90n, null, 90n)).toBe('leverStopLossBeyondLiquidation');
    expect(stopProblem('short', 100n, 110n, 90n, 105n)).toBeNull();
    expect(stopProblem('short', 100n, 110n, 101n, null)).toBe('leverTakeProfitSide');
    expect(stopProblem('short', 100n, 110n, null, 110n)).toBe('leverStopLossBeyondLiquidation');
  });

  it('ROE, margin ratio and distance read as percentages toward zero', () => {
    expect(percentText({ units: -1n, scale: 0 }, { units: 3n, scale: 0 })).toBe('-33.33');
    expect(percentText({ units: 2n, scale: 0 }, { units: 3n, scale: 0 })).toBe('66.66');
    const p = { side: 'short' as const, lots: 1n, entry: 10_000_000n, terms: UNIT };
    const upnl = unrealisedPnlExact(p, 10_100_000n); // −1,000
    expect(roeText(upnl, usdt('5000'), UNIT)).toBe('-20.00');
    expect(marginRatioText(maintenanceMarginExact(1n, 10_100_000n, UNIT), usdt('5000'), upnl, UNIT)).toBe('10.10');
    expect(liquidationDistanceText('short', 10_000_000n, 10_500_000n, 2)).toBe('5.00');
    expect(liquidationDistanceText('long', 10_000_000n, null, 2)).toBeNull();
  });
});

describe('partial close (RULES "Partial close")', () => {
  // 7 lots of 0.001 BTC at 64,250.01 with 7x: notional 449.75007, IM 64.25001, open fee 0.224875035 → 0.224876;
  // 10.000001 added, so the margin 74.250011 does not divide by 7.
  const entry = price('64250.01');
  const opened = {
    lots: 7n,
    initialMargin: initialMargin(7n, entry, 7, BTC),
    addedMargin: usdt('10.000001'),
    openFee: tradeFee(7n, entry, BTC),
  };

  it('3 of 7 lots: the part takes ⌊M × 3/7⌋, the rest keeps the fraction, both add up to the whole', () => {
    expect(opened.initialMargin).toBe(usdt('64.25001'));
    expect(opened.openFee).toBe(usdt('0.224876'));
    const { part, rest } = splitPosition(opened, 3n);
    // 74.250011 × 3/7 = 31.8214332857… → 31.821433 to the user; ⌊64.25001 × 3/7⌋ = 27.535718 of it is initial
    // margin, so 4.285715 is added margin: one unit above ⌊10.000001 × 3/7⌋ = 4.285714, because the margin is split
    // as one amount (two roundings apart would pay the user 31.821432, one unit short of ⌊M × 3/7⌋).
    expect(part).toEqual({
      lots: 3n,
      initialMargin: usdt('27.535718'),
      addedMargin: usdt('4.285715'),
      openFee: usdt('0.096375'), // ⌊0.224876 × 3/7⌋ = ⌊0.0963754…⌋
    });
    expect(rest).toEqual({
      lots: 4n,
      initialMargin: usdt('36.714292'),
      addedMargin: usdt('5.714286'),
      openFee: usdt('0.128501'),
    });
    expect(part.initialMargin + part.addedMargin).toBe(proRataDown(usdt('74.250011'), 3n, 7n));
  });

  it('3 of 7 lots closed at 65,000: the part’s P&L and the close fee on its own notional; the rest’s LP recomputed', () => {
    const exit = price('65000.00');
    const long = partialClose({ ...opened, side: 'long', entry, terms: BTC }, 3n, exit);
    // P&L 0.003 × (65,000 − 64,250.01) = 2.24997; fee 0.003 × 65,000 × 0.0005 = 0.0975.
    expect(long.amounts).toEqual({
      pnl: usdt('2.24997'),
      fee: usdt('0.0975'),
      feePaid: usdt('0.0975'),
      userDelta: usdt('2.15247'),
      desk: -usdt('2.24997'),
      insurance: 0n,
    });
    // The rest: (0.004 × 64,250.01 − 42.428578) / (0.004 × 0.995) = 53,912.427… → 53,912.42 (the whole's LP too).
    expect(long.restLiquidationPrice).toBe(price('53912.42'));
    expect(isolatedLiquidationPrice({ side: 'long', lots: 7n, entry, margin: usdt('74.250011'), terms: BTC })).toBe(
      price('53912.42'),
    );
    const short = partialClose({ ...opened, side: 'short', entry, terms: BTC }, 3n, exit);
    expect(short.amounts).toMatchObject({
      pnl: -usdt('2.24997'),
      feePaid: usdt('0.0975'),
      userDelta: -usdt('2.34747'),
    });
    // (257.00004 + 42.428578) / (0.004 × 1.005) = 74,484.730… → 74,484.74 (rounded up for a short).
    expect(short.restLiquidationPrice).toBe(price('74484.74'));
    // The part is closed by its owner, however far the price went: at most its margin share is lost (isolated).
    const gap = partialClose({ ...opened, side: 'long', entry, terms: BTC }, 3n, price('40000.00'));
    expect(gap.amounts.userDelta).toBe(-usdt('31.821433'));
    expect(gap.amounts.userDelta + gap.amounts.desk + gap.amounts.feePaid + gap.amounts.insurance).toBe(0n);
  });

  it('refuses what is no partial close: no lots, all lots, more than held', () => {
    expect(() => splitPosition(opened, 0n)).toThrow(RangeError);
    expect(() => splitPosition(opened, 7n)).toThrow(RangeError);
    expect(() => splitPosition(opened, 8n)).toThrow(RangeError);
  });

  it('afterParts replays the initial margin and open fee from the open, whatever margin was added meanwhile', () => {
    const first = splitPosition(opened, 3n).rest;
    const second = splitPosition(first, 1n);
    expect(afterParts(opened, [3n])).toEqual({ ...first, addedMargin: 0n });
    expect(afterParts(opened, [3n, 1n])).toEqual({ ...second.rest, addedMargin: 0n });
    // Added margin changes neither: the shares of IM and open fee depend on the lots alone.
    expect(afterParts({ ...opened, addedMargin: 0n }, [3n, 1n])).toEqual(afterParts(opened, [3n, 1n]));
    expect(afterParts(opened, [])).toEqual({ ...opened, addedMargin: 0n });
    expect(afterParts(opened, [3n, 4n])).toBeNull();
    expect(afterParts(opened, [0n])).toBeNull();
  });

  it('property: parts and rest add up to the whole through any sequence of parts; nothing created or lost', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2n, max: 100_000n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 10n }),
        fc.array(fc.bigInt({ min: 1n, max: 100_000n }), { minLength: 1, maxLength: 8 }),
        (lots, initial, added, fee, cuts) => {
          const whole: PositionShares = { lots, initialMargin: initial, addedMargin: added, openFee: fee };
          const parts: PositionShares[] = [];
          let left = whole;
          for (const cut of cuts) {
            if (left.lots < 2n) break;
            const k = 1n + (cut % (left.lots - 1n));
            const { part, rest } = splitPosition(left, k);
            const margin = left.initialMargin + left.addedMargin;
            // The part's margin is ⌊M × k / n⌋ exactly: the user receives it rounded down, by under one unit.
            const partMargin = part.initialMargin + part.addedMargin;
            expect(partMargin * left.lots <= margin * k).toBe(true);
            expect((partMargin + 1n) * left.lots > margin * k).toBe(true);
            for (const s of [part, rest]) {
              for (const v of [s.initialMargin, s.addedMargin, s.openFee]) expect(v >= 0n).toBe(true);
            }
            parts.push(part);
            left = rest;
          }
          const sum = (pick: (s: PositionShares) => bigint) => parts.reduce((a, s) => a + pick(s), pick(left));
          expect(sum((s) => s.lots)).toBe(whole.lots);
          expect(sum((s) => s.initialMargin)).toBe(whole.initialMargin);
          expect(sum((s) => s.addedMargin)).toBe(whole.addedMargin);
          expect(sum((s) => s.openFee)).toBe(whole.openFee);
          // The replay from the open agrees with the splits made (added margin aside).
          const replayed = afterParts(
            whole,
            parts.map((s) => s.lots),
          );
          expect(replayed).toEqual({ ...left, addedMargin: 0n });
          return true;
        },
      ),
    );
  });

  it('property: a part’s close balances its legs, and never loses more than its margin share (isolated)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.bigInt({ min: 2n, max: 2_000n }),
        fc.bigInt({ min: 1n, max: 1_999n }),
        fc.bigInt({ min: 100_000n, max: 20_000_000n }),
        fc.bigInt({ min: 100_000n, max: 20_000_000n }),
        fc.constantFrom(1, 3, 7, 10, 100),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (side, lots, cut, entryUnits, exit, leverage, added) => {
          const k = 1n + (cut % (lots - 1n));
          const p = {
            side,
            entry: entryUnits,
            terms: BTC,
            lots,
            initialMargin: initialMargin(lots, entryUnits, leverage, BTC),
            addedMargin: added,
            openFee: tradeFee(lots, entryUnits, BTC),
          };
          const { split, amounts } = partialClose(p, k, exit);
          const c = amounts;
          expect(c.userDelta + c.desk + c.feePaid + c.insurance).toBe(0n);
          expect(-c.userDelta <= split.part.initialMargin + split.part.addedMargin).toBe(true);
          expect(c.pnl).toBe(pnlUnits({ side, lots: k, entry: entryUnits, terms: BTC }, exit));
          expect(c.fee).toBe(tradeFee(k, exit, BTC));
          return true;
        },
      ),
    );
  });
});

describe('money that backs cross positions stays (RULES "Cross margin")', () => {
  // 10 lots of BTC (Q = 0.01) long at 60,000 with 10x: IM = 600 USDT, held in the cross wallet.
  const long = { side: 'long' as const, lots: 10n, entry: price('60000.00'), terms: BTC, leverage: 10 };
  const im = usdt('60');
  const wallet = usdt('100') + im; // 100 USDT free besides the margin

  it('at the entry mark exactly the free part may leave; one minor unit more is refused', () => {
    const at = { ...long, mark: long.entry };
    expect(crossMarginFree(wallet, 6, [at])).toBe(usdt('100'));
    expect(crossMarginBacked(wallet, usdt('100'), 6, [at])).toBe(false);
    expect(crossMarginBacked(wallet, usdt('100') + 1n, 6, [at])).toBe(true);
  });

  it('a loss reduces what may leave, by exactly the loss', () => {
    // Mark 59,000: UPNL = 0.01 × (−1,000) = −10 USDT.
    const losing = { ...long, mark: price('59000.00') };
    expect(crossMarginFree(wallet, 6, [losing])).toBe(usdt('90'));
    expect(crossMarginBacked(wallet, usdt('90'), 6, [losing])).toBe(false);
    expect(crossMarginBacked(wallet, usdt('90') + 1n, 6, [losing])).toBe(true);
  });

  it('a short loses when the mark rises; a loss beyond the free part leaves nothing to move', () => {
    const short = { ...long, side: 'short' as const, mark: price('80000.00') }; // UPNL −200
    expect(crossMarginFree(wallet, 6, [short])).toBe(-usdt('100'));
    expect(crossMarginBacked(wallet, 1n, 6, [short])).toBe(true);
  });

  it('a gain counts toward the equity (the ledger still caps a transfer at the available balance)', () => {
    const winning = { ...long, mark: price('61000.00') }; // UPNL +10
    expect(crossMarginFree(wallet, 6, [winning])).toBe(usdt('110'));
  });

  it('no cross position: nothing is backed, whatever the amount', () => {
    expect(crossMarginFree(usdt('5'), 6, [])).toBe(usdt('5'));
    expect(crossMarginBacked(usdt('5'), usdt('1000'), 6, [])).toBe(false);
  });

  it('IM is exact: a third of a unit is not rounded away before the comparison', () => {
    // 1 lot (Q = 0.001) at 0.01 with 3x: notional 0.00001 USDT = 10 units, IM = 3.33… units.
    const tiny = { side: 'long' as const, lots: 1n, entry: 1n, terms: BTC, leverage: 3, mark: 1n };
    // wallet 4 units: 4 − 3.33… = 0.66… → 0 whole units may leave; with 5 units, exactly 1.
    expect(crossMarginFree(4n, 6, [tiny])).toBe(0n);
    expect(crossMarginBacked(4n, 1n, 6, [tiny])).toBe(true);
    expect(crossMarginFree(5n, 6, [tiny])).toBe(1n);
    expect(crossMarginBacked(5n, 1n, 6, [tiny])).toBe(false);
  });

  it('sums over several positions of different leverages and sides', () => {
    const a = { ...long, mark: price('59000.00') }; // IM 60, UPNL −10
    const b = { ...long, side: 'short' as const, leverage: 20, mark: price('59000.00') }; // IM 30, UPNL +10
    expect(crossMarginFree(usdt('200'), 6, [a, b])).toBe(usdt('110'));
  });

  it('property: amount ≤ free exactly when wallet − amount + Σ UPNL ≥ Σ IM (cross-multiplied, no division)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.constantFrom(1, 2, 3, 5, 7, 10, 100),
        fc.integer({ min: 1, max: 500 }),
        fc.bigInt({ min: 1n, max: 10_000_000n }),
        fc.bigInt({ min: 1n, max: 10_000_000n }),
        fc.constantFrom('long' as const, 'short' as const),
        (wallet, amount, leverage, lots, entry, mark, side) => {
          const p = { side, lots: BigInt(lots), entry, mark, terms: BTC, leverage };
          // Times leverage × 10^6: wallet and amount have 6 decimals, Q × price 3 + 2 = 5.
          const sign = side === 'long' ? 1n : -1n;
          const q = BigInt(lots);
          const lhs = BigInt(leverage) * (wallet - amount + 10n * sign * q * (mark - entry));
          const rhs = 10n * q * entry;
          return crossMarginBacked(wallet, amount, 6, [p]) === lhs < rhs;
        },
      ),
    );
  });
});

describe('take-profit and stop-loss by ROE', () => {
  const roe = (text: string) => ({ units: BigInt(text.replace('.', '')), scale: text.split('.')[1]?.length ?? 0 });

  it('turns an ROE into the price on the side it belongs to', () => {
    const entry = price('100000.00');
    expect(priceAtRoe('long', 'take_profit', entry, 10, roe('50'), 2)).toBe(price('105000.00'));
    expect(priceAtRoe('short', 'take_profit', entry, 10, roe('50'), 2)).toBe(price('95000.00'));
    expect(priceAtRoe('long', 'stop_loss', entry, 100, roe('20'), 2)).toBe(price('99800.00'));
    expect(priceAtRoe('short', 'stop_loss', entry, 100, roe('20'), 2)).toBe(price('100200.00'));
    expect(roeAtPriceText('long', entry, price('105000.00'), 10, 2)).toBe('50.00');
    expect(roeAtPriceText('short', entry, price('100200.00'), 100, 2)).toBe('-20.00');
  });

  it('rounds toward the entry, so the ROE set is never beyond the one asked for', () => {
    // 100,000.01 × 10% / 3 = 3,333.3336...: 3,333.33 from the entry on either side.
    const entry = price('100000.01');
    expect(priceAtRoe('long', 'take_profit', entry, 3, roe('10'), 2)).toBe(price('103333.34'));
    expect(priceAtRoe('short', 'take_profit', entry, 3, roe('10'), 2)).toBe(price('96666.68'));
    expect(roeAtPriceText('long', entry, price('103333.34'), 3, 2)).toBe('9.99');
  });

  it('has no price for a distance under one tick, a zero ROE or a stop at or below zero', () => {
    expect(priceAtRoe('long', 'take_profit', price('1.00'), 100, roe('0.5'), 2)).toBeNull();
    expect(priceAtRoe('long', 'take_profit', price('100.00'), 10, roe('0'), 2)).toBeNull();
    expect(priceAtRoe('long', 'stop_loss', price('100.00'), 1, roe('100'), 2)).toBeNull();
  });

  it('is the tightest tick: one tick further would pass the ROE', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 100n, max: 10_000_000_000n }),
        fc.constantFrom(1, 2, 5, 10, 20, 50, 100),
        fc.bigInt({ min: 1n, max: 50_000n }),
        fc.constantFrom('long' as const, 'short' as const),
        fc.constantFrom('take_profit' as const, 'stop_loss' as const),
        (entry, leverage, roeHundredths, side, kind) => {
          const p = priceAtRoe(side, kind, entry, leverage, { units: roeHundredths, scale: 2 }, 2);
          if (p === null) return;
          const distance = p > entry ? p - entry : entry - p;
          // ROE% × entry = leverage × distance × 100, all at two decimals of percent: compare exactly.
          const reached = (d: bigint) => BigInt(leverage) * d * 10_000n;
          expect(reached(distance) <= roeHundredths * entry).toBe(true);
          expect(reached(distance + 1n) > roeHundredths * entry).toBe(true);
          expect(p > entry === ((side === 'long') === (kind === 'take_profit'))).toBe(true);
        },
      ),
    );
  });
});
