import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { C2C_PAY_WINDOW_MS, C2C_STATUSES, type C2cStatus } from '../c2c';
import {
  C2C_ACTIONS,
  C2C_PRICE_SCALE,
  C2C_TRANSITIONS,
  type C2cActor,
  c2cAvailable,
  c2cFiatAmount,
  c2cLimitProblem,
  c2cPayUntil,
  c2cQuantityForFiat,
  c2cStep,
  fiatCents,
  formatFiat,
  formatPrice,
  priceUnits,
} from './c2c';

const BTC = 8;

// What the status table implies, stated here for the assertions (the product reads the table through c2cStep).
/** The actions `role` may take on `order` at `at`: the buttons a screen offers. */
const actionsFor = (order: Parameters<typeof c2cStep>[0], role: C2cActor, at: number) =>
  C2C_ACTIONS.filter((action) => c2cStep(order, action, role, at).ok);
/** 3 completed and 5 cancelled: nothing happens to the order any more. */
const isFinal = (status: C2cStatus) => status === 3 || status === 5;
/** 1 paying, 2 paid and 4 appeal hold the merchant's coins in escrow. */
const holdsEscrow = (status: C2cStatus) => status === 1 || status === 2 || status === 4;
/** Every status but 5 cancelled keeps its quantity taken from the ad. */
const takesFromAd = (status: C2cStatus) => status !== 5;
const USDT = 6;
const price = (text: string) => {
  const units = priceUnits(text);
  if (units === null) throw new Error(text);
  return units;
};

describe('c2c amounts', () => {
  it('charges quantity × price rounded up to the cent', () => {
    // 0.01 BTC at 65,000.50 EUR = 650.005 → 650.01
    expect(c2cFiatAmount(1_000_000n, BTC, price('65000.50'))).toBe(65_001n);
    // exact products do not round: 100 USDT at 0.92 = 92.00
    expect(c2cFiatAmount(100_000_000n, USDT, price('0.92'))).toBe(9_200n);
    // one satoshi at 1 EUR is 0.00000001 EUR: still one whole cent to pay
    expect(c2cFiatAmount(1n, BTC, price('1'))).toBe(1n);
    expect(c2cFiatAmount(0n, BTC, price('1'))).toBe(0n);
    expect(() => c2cFiatAmount(-1n, BTC, price('1'))).toThrow(RangeError);
  });

  it('reads prices and fiat amounts exactly, refusing what is finer than their step', () => {
    expect(priceUnits('65000.5')).toBe(65_000_500_000n);
    expect(priceUnits('0.000001')).toBe(1n);
    expect(priceUnits('0.0000001')).toBeNull();
    expect(priceUnits('1e3')).toBeNull();
    expect(priceUnits('-1')).toBeNull();
    expect(fiatCents('150.5')).toBe(15_050n);
    expect(fiatCents('150.505')).toBeNull();
    expect(formatFiat(15_050n)).toBe('150.50');
    expect(formatPrice(65_000_500_000n)).toBe('65000.50');
    expect(formatPrice(1_234_500n)).toBe('1.2345');
    expect(formatPrice(1n)).toBe('0.000001');
    expect(C2C_PRICE_SCALE).toBe(6);
  });

  it('is never below the exact product and less than one cent above it (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.constantFrom(BTC, USDT, 0, 2),
        (qty, p, scale) => {
          const cents = c2cFiatAmount(qty, scale, p);
          // exact value in units of 10^-(scale + 6); a cent is 10^(scale + 4) of those.
          const exact = qty * p;
          const cent = 10n ** BigInt(scale + C2C_PRICE_SCALE - 2);
          expect(cents * cent >= exact).toBe(true);
          expect(cents * cent - exact < cent).toBe(true);
        },
      ),
    );
  });

  it('finds the largest quantity a fiat budget buys (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.constantFrom(BTC, USDT, 0),
        (budget, p, scale) => {
          const q = c2cQuantityForFiat(budget, scale, p);
          expect(c2cFiatAmount(q, scale, p) <= budget).toBe(true);
          expect(c2cFiatAmount(q + 1n, scale, p) > budget).toBe(true);
        },
      ),
    );
    // 650.01 EUR at 65,000.50 buys 0.01000007 BTC (0.01000008 would cost 650.0105... → 650.02).
    expect(c2cQuantityForFiat(65_001n, BTC, price('65000.50'))).toBe(1_000_007n);
    expect(c2cQuantityForFiat(9_200n, USDT, price('0.92'))).toBe(100_000_000n);
    expect(() => c2cQuantityForFiat(1n, BTC, 0n)).toThrow(RangeError);
  });

  it('checks the limits inclusively', () => {
    expect(c2cLimitProblem(9_999n, 10_000n, 50_000n)).toBe('c2cBelowMin');
    expect(c2cLimitProblem(10_000n, 10_000n, 50_000n)).toBeNull();
    expect(c2cLimitProblem(50_000n, 10_000n, 50_000n)).toBeNull();
    expect(c2cLimitProblem(50_001n, 10_000n, 50_000n)).toBe('c2cAboveMax');
  });

  it('keeps the payment window at 30 minutes of server time and the available amount never negative', () => {
    expect(c2cPayUntil(1_000)).toBe(1_000 + 30 * 60_000);
    expect(C2C_PAY_WINDOW_MS).toBe(1_800_000);
    expect(c2cAvailable(10n, 3n)).toBe(7n);
    expect(c2cAvailable(10n, 12n)).toBe(0n);
  });
});

describe('c2c transitions', () => {
  const at = 1_000_000;
  const order = (
    status: C2cStatus,
    extra: { pay_until?: number; cancel_reason?: 'buyer' | 'expired' | 'appeal' } = {},
  ) => ({
    status,
    pay_until: extra.pay_until ?? at + 1,
    cancel_reason: extra.cancel_reason ?? null,
  });

  it('lets the buyer pay or cancel while paying, and pay only strictly before pay_until', () => {
    expect(c2cStep(order(1), 'pay', 'buyer', at)).toEqual({ ok: true, to: 2, cancelReason: null });
    expect(c2cStep(order(1, { pay_until: at }), 'pay', 'buyer', at)).toEqual({
      ok: false,
      problem: 'c2cPayWindowClosed',
    });
    expect(c2cStep(order(1, { pay_until: at }), 'cancel', 'buyer', at)).toEqual({
      ok: true,
      to: 5,
      cancelReason: 'buyer',
    });
    expect(c2cStep(order(5, { cancel_reason: 'expired' }), 'pay', 'buyer', at)).toEqual({
      ok: false,
      problem: 'c2cPayWindowClosed',
    });
    expect(c2cStep(order(5, { cancel_reason: 'buyer' }), 'pay', 'buyer', at)).toEqual({
      ok: false,
      problem: 'c2cWrongStatus',
    });
    expect(c2cStep(order(1), 'pay', 'merchant', at)).toEqual({ ok: false, problem: 'c2cWrongStatus' });
  });

  it('expires a paying order at or after pay_until only', () => {
    expect(c2cStep(order(1, { pay_until: at + 1 }), 'expire', 'system', at)).toEqual({ ok: false, problem: 'notDue' });
    expect(c2cStep(order(1, { pay_until: at }), 'expire', 'system', at)).toEqual({
      ok: true,
      to: 5,
      cancelReason: 'expired',
    });
    expect(c2cStep(order(2, { pay_until: at }), 'expire', 'system', at).ok).toBe(false);
  });

  it('releases by the merchant while paid, and in an appeal only by an operator', () => {
    expect(c2cStep(order(2), 'release', 'merchant', at)).toEqual({ ok: true, to: 3, cancelReason: null });
    expect(c2cStep(order(2), 'release', 'buyer', at).ok).toBe(false);
    expect(c2cStep(order(4), 'release', 'merchant', at).ok).toBe(false);
    expect(c2cStep(order(4), 'resolve_release', 'operator', at)).toEqual({ ok: true, to: 3, cancelReason: null });
    expect(c2cStep(order(4), 'resolve_cancel', 'operator', at)).toEqual({ ok: true, to: 5, cancelReason: 'appeal' });
    expect(c2cStep(order(2), 'resolve_release', 'operator', at).ok).toBe(false);
  });

  it('offers each side its buttons', () => {
    expect(actionsFor(order(1), 'buyer', at)).toEqual(['cancel', 'pay']);
    expect(actionsFor(order(1, { pay_until: at }), 'buyer', at)).toEqual(['cancel']);
    expect(actionsFor(order(1), 'merchant', at)).toEqual([]);
    expect(actionsFor(order(2), 'buyer', at)).toEqual(['appeal']);
    expect(actionsFor(order(2), 'merchant', at)).toEqual(['release', 'appeal']);
    expect(actionsFor(order(4), 'merchant', at)).toEqual([]);
  });

  const statusArb = fc.constantFrom(...C2C_STATUSES);
  const actorArb = fc.constantFrom<C2cActor>('buyer', 'merchant', 'operator', 'system');

  it('never leaves a final status, and every move matches the table (property)', () => {
    fc.assert(
      fc.property(
        statusArb,
        fc.constantFrom(...C2C_ACTIONS),
        actorArb,
        fc.integer({ min: -5, max: 5 }),
        (status, action, actor, offset) => {
          const step = c2cStep({ status, pay_until: at + offset }, action, actor, at);
          if (isFinal(status)) expect(step.ok).toBe(false);
          if (step.ok) {
            const rule = C2C_TRANSITIONS.find((r) => r.from === status && r.action === action && r.actor === actor);
            expect(rule?.to).toBe(step.to);
            expect(step.to === 5).toBe(step.cancelReason !== null);
            // Money follows the status: a move out of escrow ends the hold; a cancel gives the ad's coins back.
            expect(holdsEscrow(status)).toBe(true);
            expect(takesFromAd(step.to)).toBe(step.to !== 5);
          }
        },
      ),
    );
  });

  it('reaches every status from paying and ends in 3 or 5 whatever the path (property)', () => {
    const move = fc.record({
      action: fc.constantFrom(...C2C_ACTIONS),
      actor: actorArb,
      offset: fc.integer({ min: -2, max: 2 }),
    });
    fc.assert(
      fc.property(fc.array(move, { maxLength: 12 }), (moves) => {
        let status: C2cStatus = 1;
        const seen: C2cStatus[] = [1];
        for (const m of moves) {
          const step = c2cStep({ status, pay_until: at + m.offset }, m.action, m.actor, at);
          if (step.ok) {
            status = step.to;
            seen.push(status);
          }
        }
        // Statuses only move forward along 1 → 2 → 4 → 3|5, 1 → 5, 2 → 3.
        const order = seen.map((s) => ({ 1: 0, 2: 1, 4: 2, 3: 3, 5: 3 })[s]);
        for (let i = 1; i < order.length; i++) expect((order[i] ?? 0) > (order[i - 1] ?? 0)).toBe(true);
      }),
    );
  });
});
