import { describe, expect, it } from 'vitest';
import type { TracedActor } from '../../protocol/ops-inspection';
import { mergeActors } from './live-traces';

const step = (id: number, seq: number, event: string) => ({
  id,
  seq,
  at: 1_700_000_000_000 + seq,
  event,
  states: ['m.s'],
  received_at: 1_700_000_000_000 + id,
});

describe('following an order live', () => {
  it('adds newer steps to their actor once each, in the actor’s order, and new actors after the others', () => {
    const held: TracedActor[] = [{ actor: 'a', steps: [step(1, 0, 'xstate.init'), step(2, 1, 'SUBMIT')] }];
    const merged = mergeActors(held, [
      // A batch that arrived late carries an earlier seq with a later row id; a repeat carries a seq already held.
      { actor: 'a', steps: [step(5, 3, 'CONTRACT_UPDATE'), step(4, 2, 'PRICES_FRESH'), step(6, 1, 'SUBMIT')] },
      { actor: 'b', steps: [step(3, 0, 'xstate.init')] },
    ]);
    expect(merged.map((a) => [a.actor, a.steps.map((s) => s.event)])).toEqual([
      ['a', ['xstate.init', 'SUBMIT', 'PRICES_FRESH', 'CONTRACT_UPDATE']],
      ['b', ['xstate.init']],
    ]);
    expect(held[0]?.steps).toHaveLength(2);
  });
});
