// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { and, not } from 'xstate';
import { c2cOrderMachine } from '../c2c/order.machine';
import { eventName } from '../graph';
import { ieoSubscriptionMachine, SUBSCRIPTION_STEPS } from '../ieo/subscription.machine';
import { leverOrderMachine } from '../lever/order.machine';
import { type Chart, chartOf, guardName, statesOf } from './chart';

const between = (chart: Chart, from: string, to: string) =>
  chart.transitions.find((t) => t.source === `${chart.machine}.${from}` && t.target === `${chart.machine}.${to}`);

describe('chartOf', () => {
  it('reads every state of the C2C order machine, its transitions with guards, and its timers', () => {
    const chart = chartOf(c2cOrderMachine);
    expect(chart.root.children.map((s) => s.key)).toEqual(Object.keys(c2cOrderMachine.root.states));
    // It starts by routing the order it was given to the state its status names.
    expect(chart.root.initial).toBe('c2cOrder.routing');
    expect(between(chart, 'awaitingPayment', 'markingPaid')?.labels).toEqual(['PAY [mayPay]']);
    expect(between(chart, 'awaitingPayment', 'expiring')).toMatchObject({
      labels: ['after untilPayDeadline'],
      timer: true,
    });
    expect(between(chart, 'markingPaid', 'routing')?.labels).toEqual(['payOrder done', 'payOrder error']);
    // The machine's own ORDER is taken in any state.
    expect(chart.transitions.filter((t) => t.source === 'c2cOrder').map((t) => t.labels)).toEqual([
      ['ORDER [isNewsOfThisOrder]'],
    ]);
    expect(chart.root.children.filter((s) => s.kind === 'final').map((s) => s.key)).toEqual(['completed', 'cancelled']);
  });

  it('includes the eventless transitions toDirectedGraph leaves out', () => {
    const chart = chartOf(ieoSubscriptionMachine);
    expect(chart.root.children.map((s) => s.key)).toEqual(['routing', ...SUBSCRIPTION_STEPS]);
    expect(
      chart.transitions.some((t) => t.source === 'ieoSubscription.routing' && t.labels[0]?.startsWith('always')),
    ).toBe(true);
    expect(between(chart, 'allotted', 'paying')?.labels).toEqual(['PAY']);
  });

  it('draws the lever machine as two regions with every state of each', () => {
    const chart = chartOf(leverOrderMachine);
    expect(chart.root.kind).toBe('parallel');
    expect(chart.root.children.map((s) => [s.key, s.kind])).toEqual([
      ['order', 'compound'],
      ['prices', 'compound'],
    ]);
    const ids = statesOf(chart).map((s) => s.id);
    expect(ids).toContain('leverOrder.order.holding');
    expect(ids).toContain('leverOrder.prices.stale');
    expect(between(chart, 'order.holding', 'order.addingMargin')?.labels).toEqual([
      'ADD_MARGIN [pricesFresh & isIsolated]',
    ]);
  });
});

describe('names', () => {
  it('names events and guards readably', () => {
    expect(eventName('xstate.after.recheck.ieoSubscription.allotting')).toBe('after recheck');
    expect(eventName('xstate.done.actor.fetchOrder')).toBe('fetchOrder done');
    expect(eventName('CLOCK')).toBe('CLOCK');
    expect(guardName('pricesFresh')).toBe('pricesFresh');
    expect(guardName({ type: 'isNewsLeaving', params: {} })).toBe('isNewsLeaving');
    expect(guardName(and(['a', not('b')]))).toBe('a & !b');
    expect(guardName(() => true)).toBe('if');
  });
});
