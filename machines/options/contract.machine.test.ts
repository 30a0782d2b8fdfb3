// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { createServerClock } from '../../core/clock';
import type { OptionContract } from '../../protocol/options';
import {
  type ContractEvent,
  type ContractPhase,
  type ContractSnapshot,
  contractView,
  NO_ANSWER,
  optionContractMachine,
  standingAt,
  submitContractWith,
} from './contract.machine';
import {
  contract,
  counter,
  draft,
  ENTRY_TS,
  EXPIRED,
  EXPIRY,
  exitTick,
  SERVER_NOW,
  optionContractWalks as walks,
} from './contract.model';

/**
 * Model-based: every shortest path and every simple path through the contract machine (states serialised by value,
 * so the walk ends), replayed on a live actor whose call the test answers, asserting at each step what the user sees
 * (contractView: status line, up/down enabled, the verification prompt, the countdown) and that the live actor is
 * where the model is. Then the countdown on server time with a device clock minutes off.
 */

/** What each state shows, whatever path led there. */
const EXPECTED: Record<
  ContractPhase,
  { submitWhenFresh: boolean; busy: boolean; prompt: boolean; secondsLeft: number | null; settled: boolean }
> = {
  choosing: { submitWhenFresh: true, busy: false, prompt: false, secondsLeft: null, settled: false },
  submitting: { submitWhenFresh: false, busy: true, prompt: false, secondsLeft: null, settled: false },
  verifying: { submitWhenFresh: false, busy: false, prompt: true, secondsLeft: null, settled: false },
  waiting: { submitWhenFresh: false, busy: false, prompt: false, secondsLeft: null, settled: false },
  running: { submitWhenFresh: true, busy: false, prompt: false, secondsLeft: 20, settled: false },
  settling: { submitWhenFresh: true, busy: false, prompt: false, secondsLeft: 0, settled: false },
  won: { submitWhenFresh: true, busy: false, prompt: false, secondsLeft: null, settled: true },
  lost: { submitWhenFresh: true, busy: false, prompt: false, secondsLeft: null, settled: true },
  flat: { submitWhenFresh: true, busy: false, prompt: false, secondsLeft: null, settled: true },
  refunded: { submitWhenFresh: true, busy: false, prompt: false, secondsLeft: null, settled: true },
  cancelled: { submitWhenFresh: true, busy: false, prompt: false, secondsLeft: null, settled: true },
};

function assertView(snapshot: ContractSnapshot): void {
  const value = snapshot.value as { contract: ContractPhase; prices: 'fresh' | 'stale' };
  const view = contractView(snapshot, SERVER_NOW);
  const expected = EXPECTED[value.contract];
  expect(view.phase).toBe(value.contract);
  expect(view.labelKey).toBe(`options.phase.${value.contract}`);
  expect(view.busy).toBe(expected.busy);
  expect(view.promptVerify).toBe(expected.prompt);
  expect(view.settled).toBe(expected.settled);
  expect(view.secondsLeft).toBe(expected.secondsLeft);
  // Stale prices disable up and down (DESIGN "Realtime"); nothing else about the contract changes.
  expect(view.submitEnabled).toBe(expected.submitWhenFresh && value.prices === 'fresh');
  expect(view.blockedByStalePrices).toBe(expected.submitWhenFresh && value.prices === 'stale');
  if (view.settled) expect(view.contract?.state).toBe(value.contract);
  if (value.contract === 'won') expect(view.contract?.exit?.seq).toBe(99);
  if (value.contract === 'choosing' && snapshot.context.error)
    expect(['Insufficient balance', NO_ANSWER]).toContain(view.error);
}

/** A live actor whose call never settles by itself and whose timers never fire (the test delivers both). */
function liveActor(serverNow: () => number = () => SERVER_NOW, start?: OptionContract) {
  const submits: unknown[] = [];
  const machine = optionContractMachine.provide({
    actors: {
      submitContract: submitContractWith((request) => {
        submits.push(request);
        return new Promise(() => {});
      }),
    },
  });
  const actor = createActor(machine, {
    input: { makeId: counter(), serverNow, ...(start ? { contract: start } : {}) },
  });
  actor.start();
  return { actor, submits };
}

interface Path {
  state: ContractSnapshot;
  steps: { event: { type: string }; state: ContractSnapshot }[];
}

const describePath = (path: Path) =>
  `${path.steps.map((s) => s.event.type.replace('xstate.', '').replace('.optionContract.contract.running', '')).join(' → ') || '(start)'} ⇒ ${JSON.stringify(path.state.value)}`;

function replay(path: Path) {
  // The model's timers are its events: fake timers keep the real one (20 s at SERVER_NOW) from firing on its own.
  vi.useFakeTimers();
  const { actor } = liveActor();
  assertView(actor.getSnapshot());
  for (const step of path.steps) {
    actor.send(step.event as ContractEvent);
    expect(actor.getSnapshot().value).toEqual(step.state.value);
    assertView(actor.getSnapshot());
  }
  actor.stop();
  vi.useRealTimers();
}

describe('option contract machine (model-based)', () => {
  // One walk (contract.model.ts), generated two ways: its shortest paths and all its simple paths.
  const shortest = getShortestPaths(optionContractMachine, walks.shortest) as unknown as Path[];
  const simple = getSimplePaths(optionContractMachine, walks.shortest) as unknown as Path[];

  it('reaches every state of the lifecycle, in both price states', () => {
    const reached = new Set(shortest.map((p) => JSON.stringify(p.state.value)));
    for (const phase of Object.keys(EXPECTED)) {
      for (const prices of ['fresh', 'stale']) expect(reached).toContain(JSON.stringify({ contract: phase, prices }));
    }
  });

  it.each(shortest.map((p) => [describePath(p), p] as const))('shortest path: %s', (_, path) => {
    replay(path);
  });

  // Every simple path replayed on a live actor: seconds of CPU, more on a busy 2-core machine.
  it('walks every simple path', () => {
    expect(simple.length).toBeGreaterThan(shortest.length);
    for (const path of simple) replay(path);
  }, 60_000);
});

describe('request ids', () => {
  it('a retry after no answer reuses the id; a definite answer ends it; a changed draft gets a new one', () => {
    const { actor, submits } = liveActor();
    const ids = () => submits.map((c) => (c as { request_id: string }).request_id);
    actor.send({ type: 'PRICES_FRESH' });
    actor.send({ type: 'SUBMIT', draft });
    actor.send({ type: 'xstate.error.actor.submitContract', error: new Error('offline') } as never);
    expect(contractView(actor.getSnapshot(), SERVER_NOW).error).toBe(NO_ANSWER);
    actor.send({ type: 'SUBMIT', draft });
    actor.send({
      type: 'xstate.done.actor.submitContract',
      output: { ok: false, message: 'ERROR', answered: false },
    } as never);
    actor.send({ type: 'SUBMIT', draft });
    expect(ids()).toEqual(['req-1', 'req-1', 'req-1']);
    actor.send({
      type: 'xstate.done.actor.submitContract',
      output: { ok: false, message: 'Insufficient balance', answered: true },
    } as never);
    actor.send({ type: 'SUBMIT', draft });
    actor.send({ type: 'xstate.error.actor.submitContract', error: new Error('offline') } as never);
    actor.send({ type: 'SUBMIT', draft: { ...draft, direction: 'down' } });
    expect(ids().slice(3)).toEqual(['req-2', 'req-3']);
    actor.stop();
  });

  it('a reconnect while the purchase waits sends it again under the same id', () => {
    const { actor, submits } = liveActor();
    actor.send({ type: 'PRICES_FRESH' });
    actor.send({ type: 'SUBMIT', draft });
    actor.send({ type: 'RECONNECT' });
    expect(submits).toEqual([
      { ...draft, request_id: 'req-1' },
      { ...draft, request_id: 'req-1' },
    ]);
    expect(contractView(actor.getSnapshot(), SERVER_NOW).phase).toBe('submitting');
    actor.stop();
  });

  it('stale prices block submitting', () => {
    const { actor, submits } = liveActor();
    actor.send({ type: 'SUBMIT', draft });
    expect(contractView(actor.getSnapshot(), SERVER_NOW)).toMatchObject({
      phase: 'choosing',
      blockedByStalePrices: true,
    });
    expect(submits).toEqual([]);
    actor.stop();
  });

  it('an update that overtakes the answer counts, and the older answer does not undo it', () => {
    const { actor } = liveActor();
    actor.send({ type: 'PRICES_FRESH' });
    actor.send({ type: 'SUBMIT', draft });
    actor.send({ type: 'CONTRACT_UPDATE', contract: contract('running', 2) });
    actor.send({
      type: 'xstate.done.actor.submitContract',
      output: { ok: true, contract: contract('waiting', 1) },
    } as never);
    expect(contractView(actor.getSnapshot(), SERVER_NOW).phase).toBe('running');
    actor.stop();
  });

  it('a late copy saying running does not restart a countdown that reached settling', () => {
    const { actor } = liveActor(() => SERVER_NOW, contract('running', 2));
    actor.send({ type: EXPIRED } as never);
    actor.send({ type: 'CONTRACT_UPDATE', contract: contract('running', 2) });
    expect(contractView(actor.getSnapshot(), SERVER_NOW).phase).toBe('settling');
    actor.stop();
  });
});

describe('the countdown runs on server time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * A device clock 7 minutes ahead of the server (and another 5 minutes behind): the server clock learns the offset
   * from one round trip, and the countdown shows what is left on the server's clock, not the device's.
   */
  it.each([
    ['7 minutes ahead', 7 * 60_000],
    ['5 minutes behind', -5 * 60_000],
  ])('with the device clock %s', (_, skew) => {
    vi.useFakeTimers();
    const serverTime = () => ENTRY_TS + 10_000 + (Date.now() - start);
    const start = Date.now();
    // The device's idea of now: the server's time plus its error.
    const device = () => serverTime() + skew;
    const clock = createServerClock({ now: device });
    // A request sent at device time s, answered (stamped by the server) and received 40 ms later.
    const sent = device();
    vi.advanceTimersByTime(40);
    clock.observeRoundTrip(serverTime() - 20, sent);
    expect(Math.abs(clock.offset() + skew)).toBeLessThanOrEqual(20);

    const { actor } = liveActor(clock.serverNow, contract('running', 2));
    const view = () => contractView(actor.getSnapshot(), clock.serverNow());
    // 30 s period, entered 10 040 ms ago on the server's clock: 20 s left (rounded up), whatever the device says.
    expect(view()).toMatchObject({ phase: 'running', secondsLeft: 20 });
    expect(Math.abs((view().remainingMs ?? 0) - (EXPIRY - serverTime()))).toBeLessThanOrEqual(20);
    // Had the device clock been used, it would show 0 (ahead) or 5 minutes too many (behind).
    vi.advanceTimersByTime(15_000);
    expect(view()).toMatchObject({ phase: 'running', secondsLeft: 5 });
    // At E on the server's clock (within the estimate's 20 ms), the machine stops counting and waits for the result.
    vi.advanceTimersByTime(5_000);
    expect(view()).toMatchObject({ phase: 'settling', secondsLeft: 0 });
    actor.send({
      type: 'CONTRACT_UPDATE',
      contract: contract('won', 3, { exit: exitTick, payout: '18', settled_at: EXPIRY + 400 }),
    });
    expect(view()).toMatchObject({ phase: 'won', settled: true, secondsLeft: null });
    actor.stop();
  });

  it('a contract that arrives after its expiry goes straight to settling', () => {
    vi.useFakeTimers();
    const { actor } = liveActor(() => EXPIRY + 2_000, contract('running', 2));
    vi.advanceTimersByTime(0);
    expect(contractView(actor.getSnapshot(), EXPIRY + 2_000).phase).toBe('settling');
    actor.stop();
  });
});

describe('the live standing of a running contract', () => {
  it('compares the current last price with the entry price, exactly', () => {
    const up = contract('running', 2);
    expect(standingAt(up, '100.01')).toBe('winning');
    expect(standingAt(up, '99.99')).toBe('losing');
    expect(standingAt(up, '100.00')).toBe('even');
    expect(standingAt({ ...up, direction: 'down' }, '99.5')).toBe('winning');
    expect(standingAt(contract('waiting', 1), '101')).toBeNull();
    expect(standingAt(up, null)).toBeNull();
  });
});
