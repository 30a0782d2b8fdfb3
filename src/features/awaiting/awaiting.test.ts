// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { awaitingAt, timeLeft, waitingRecords } from './awaiting';
import { c2cOrder, ieoOrder } from './test-orders';

const NOW = 1_700_000_000_000;
const MIN = 60_000;
const keysAt = (items: ReturnType<typeof waitingRecords>, now: number) => awaitingAt(items, now).map((i) => i.key);

describe('what waits for the user', () => {
  it('is an allotment to pay, a C2C order to pay as buyer and one to release as merchant, nothing else', () => {
    const ieo = ['subscribed', 'failed', 'allotted', 'lapsed', 'paid', 'locked', 'unlocked'] as const;
    const items = waitingRecords(
      ieo.map((phase, i) => ieoOrder(i + 1, phase, NOW + 10 * MIN)),
      [
        c2cOrder(11, 'buyer', 1, NOW - MIN), // to pay
        c2cOrder(12, 'buyer', 2, NOW - MIN), // paid: the merchant's turn
        c2cOrder(13, 'merchant', 1, NOW - MIN), // unpaid: the buyer's turn
        c2cOrder(14, 'merchant', 2, NOW - MIN), // to release
        c2cOrder(15, 'merchant', 4, NOW - MIN), // appeal: the operator's turn
        c2cOrder(16, 'buyer', 3, NOW - MIN),
        c2cOrder(17, 'buyer', 5, NOW - MIN),
      ],
    );
    expect(items.map((i) => `${i.kind}:${i.key}`)).toEqual(['ieoPay:ieo-3', 'c2cPay:c2c-11', 'c2cRelease:c2c-14']);
    expect(items.map((i) => i.deadline)).toEqual([NOW + 10 * MIN, NOW + 29 * MIN, null]);
  });

  it('lists the nearest deadline first, then the releases waiting longest', () => {
    const items = waitingRecords(
      [ieoOrder(1, 'allotted', NOW + 40 * MIN), ieoOrder(2, 'allotted', NOW + 5 * MIN)],
      [
        c2cOrder(21, 'merchant', 2, NOW - 5 * MIN, NOW - MIN),
        c2cOrder(22, 'merchant', 2, NOW - 9 * MIN, NOW - 8 * MIN),
        c2cOrder(23, 'buyer', 1, NOW - 10 * MIN),
      ],
    );
    expect(keysAt(items, NOW)).toEqual(['ieo-2', 'c2c-23', 'ieo-1', 'c2c-22', 'c2c-21']);
  });

  it('leaves out what can no longer be done once its deadline passed on the server clock', () => {
    const items = waitingRecords([ieoOrder(1, 'allotted', NOW + MIN)], [c2cOrder(2, 'buyer', 1, NOW - 29 * MIN)]);
    // Both end at NOW + MIN.
    expect(keysAt(items, NOW)).toEqual(['c2c-2', 'ieo-1']);
    expect(keysAt(items, NOW + MIN - 1)).toEqual(['c2c-2', 'ieo-1']);
    expect(keysAt(items, NOW + MIN)).toEqual([]);
  });

  it('counts the time left in minutes and seconds, hours and whole days in front when there are any', () => {
    expect(timeLeft(30 * MIN)).toEqual({ days: 0, clock: '30:00' });
    expect(timeLeft(59_001)).toEqual({ days: 0, clock: '01:00' });
    expect(timeLeft(3_723_000)).toEqual({ days: 0, clock: '1:02:03' });
    expect(timeLeft(2 * 86_400_000 + 5_000)).toEqual({ days: 2, clock: '0:00:05' });
    expect(timeLeft(-1)).toEqual({ days: 0, clock: '00:00' });
  });
});
