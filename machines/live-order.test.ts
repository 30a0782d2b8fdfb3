// @vitest-environment node
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { C2cOrder } from '../protocol/c2c';
import type { IeoOrder } from '../protocol/ieo';
import { type C2cOrderEvent, c2cOrderMachine, c2cOrderView } from './c2c/order.machine';
import { SERVER_NOW as C2C_NOW, order as c2cOrder } from './c2c/order.model';
import { ieoSubscriptionMachine, type SubscriptionEvent } from './ieo/subscription.machine';
import { SERVER_NOW as IEO_NOW, order as ieoOrder } from './ieo/subscription.model';
import { CLOCK_STEP_MS, clockSteps, liveOrder, type OffsetSource } from './live-order';

/**
 * The feed an order page's machine invokes (C2C order, IEO subscription): each copy of the order and each step of the
 * server clock, delivered to the machine while it runs and no longer. A Subject stands for the order's stream, a
 * driven offset for the server clock.
 */

function fakeClock(start = 0): OffsetSource & { set(offset: number): void } {
  const offset$ = new BehaviorSubject(start);
  return { offset: () => offset$.value, offset$, set: (offset) => offset$.next(offset) };
}

describe('clock steps', () => {
  it("tells a move of the clock's offset once it reaches the step size, measured from the last one told", () => {
    const clock = fakeClock(1_000);
    const told: number[] = [];
    const sub = clockSteps(clock).subscribe((offset) => told.push(offset));
    clock.set(1_000 + CLOCK_STEP_MS - 1);
    expect(told).toEqual([]);
    clock.set(1_000 + CLOCK_STEP_MS);
    expect(told).toEqual([1_000 + CLOCK_STEP_MS]);
    // 400 ms from the start, but only 150 from the step told: noise.
    clock.set(1_400);
    expect(told).toEqual([1_250]);
    clock.set(900);
    expect(told).toEqual([1_250, 900]);
    sub.unsubscribe();
  });
});

describe('the live feed of an order machine', () => {
  it("brings a C2C order's newer copies to its machine, and ends with the machine", () => {
    const copies$ = new Subject<C2cOrder>();
    const clock = fakeClock();
    const machine = c2cOrderMachine.provide({
      actors: {
        live: liveOrder<C2cOrder, C2cOrderEvent>(() => ({
          copies$,
          clock,
          order: (order) => ({ type: 'ORDER', order }),
          clockStep: () => ({ type: 'CLOCK' }),
        })),
      },
    });
    const actor = createActor(machine, { input: { order: c2cOrder(1), now: () => C2C_NOW } }).start();
    expect(c2cOrderView(actor.getSnapshot(), C2C_NOW).step).toBe('awaitingPayment');
    expect(copies$.observed).toBe(true);
    copies$.next(c2cOrder(2));
    expect(c2cOrderView(actor.getSnapshot(), C2C_NOW).step).toBe('paid');
    actor.stop();
    expect(copies$.observed).toBe(false);
  });

  it("asks for the stream of the machine's own order, and tells an IEO subscription each clock step", () => {
    const copies$ = new Subject<IeoOrder>();
    const clock = fakeClock(0);
    const asked: number[] = [];
    const machine = ieoSubscriptionMachine.provide({
      actors: {
        live: liveOrder<IeoOrder, SubscriptionEvent>((id) => {
          asked.push(id);
          return {
            copies$,
            clock,
            order: (order) => ({ type: 'ORDER', order }),
            clockStep: (offset) => ({ type: 'CLOCK', offset }),
          };
        }),
      },
    });
    const subscription = ieoOrder('subscribed', { id: 42 });
    const actor = createActor(machine, { input: { order: subscription, localNow: () => IEO_NOW, offset: 0 } });
    actor.start();
    expect(asked).toEqual([42]);
    clock.set(100);
    expect(actor.getSnapshot().context.offset).toBe(0);
    clock.set(-5_000);
    expect(actor.getSnapshot().context.offset).toBe(-5_000);
    // The same copy again is a repeat: the machine keeps what it holds.
    copies$.next({ ...subscription });
    expect(actor.getSnapshot().context.order).toBe(subscription);
    actor.stop();
    expect(copies$.observed).toBe(false);
  });
});
