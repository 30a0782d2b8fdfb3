import { describe, expect, it } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { leverOrderMachine } from '../lever/order.machine';
import { MACHINES } from '../registry';
import { chartOf, statesOf } from './chart';
import { activeStateIds } from './current';

describe('activeStateIds', () => {
  it('names the states of a plain, a parallel and a nested value', () => {
    expect(activeStateIds('c2cOrder', 'paid')).toEqual(['c2cOrder.paid']);
    expect(activeStateIds('leverOrder', { order: 'holding', prices: 'fresh' })).toEqual([
      'leverOrder.order.holding',
      'leverOrder.prices.fresh',
    ]);
    expect(activeStateIds('m', { a: { b: 'c' } })).toEqual(['m.a.b.c']);
  });

  it('names, for every state the model-based tests reach in every machine, states the drawing has', () => {
    for (const entry of MACHINES) {
      const drawn = new Set(statesOf(chartOf(entry.machine)).map((s) => s.id));
      for (const walk of Object.values(entry.walks)) {
        for (const path of getShortestPaths(entry.machine, walk as never) as unknown as {
          state: { value: unknown };
        }[]) {
          for (const id of activeStateIds(entry.machine.id, path.state.value)) expect(drawn, entry.id).toContain(id);
        }
      }
    }
  });

  it("names states the chart draws: the initial snapshot's states are in the lever chart", () => {
    const drawn = new Set(statesOf(chartOf(leverOrderMachine)).map((s) => s.id));
    const initial = leverOrderMachine.getInitialSnapshot(
      // Only the snapshot's value is read; the actor's input is not used for it.
      {} as never,
      { makeId: () => 'x' } as never,
    );
    const ids = activeStateIds(leverOrderMachine.id, initial.value);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(drawn).toContain(id);
  });
});
