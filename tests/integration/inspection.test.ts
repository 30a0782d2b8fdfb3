import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACE_ACTOR_MAX, TRACE_KEEP_MS, type TraceStep } from '../../protocol/inspection';
import { opsInspectionCalls } from '../../protocol/ops-inspection';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault } from '../../server/domains/bank-cards';
import { pruneTraces } from '../../server/domains/inspection';
import type { OperatorServices } from '../../server/domains/operators';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { MarketSimulator } from '../../server/market/simulator';
import { apiChecks } from './api-checks';
import { consoleClient } from './console-checks';
import { appPerSuite, DATABASES, TEST_HASH_COST, type TestApp, uniqueEmail } from './harness';

/**
 * Live inspection over the real app on every database: a user's app reports the steps of its order actors (only for
 * its own orders, each step once, the newest few hundred per actor, for a day), and an operator with role qa finds a
 * user's traced orders and follows one order's actors after a cursor. Nobody else can add to or read a timeline.
 */
const PASSWORD = 'correct horse battery';

describe.each(DATABASES)('order actor traces on %s', (kind) => {
  let t: TestApp;
  let s: OperatorServices;
  const dataKey = new Uint8Array(randomBytes(32));
  const T0 = Date.now();
  const sim = new MarketSimulator({
    seed: 'inspection',
    now: () => T0,
    backfillDays: 0,
    alwaysOpen: true,
    stepMs: 1_000,
    instruments: INSTRUMENTS.filter((i) => i.symbol === 'BTC'),
  });
  const feed = new MarketFeed(sim, () => T0);
  appPerSuite(
    kind,
    (app) => {
      t = app;
    },
    { market: { feed, record: false }, dataKey },
  );
  const { ok, refused } = apiChecks(() => t);
  const console = consoleClient(
    () => t,
    () => s,
    { password: PASSWORD, names: 'qa', ipBlock: 41 },
  );
  beforeAll(() => {
    sim.advanceTo(T0);
    s = {
      database: t.handle,
      now: t.clock.now,
      hasher: new PasswordHasher(TEST_HASH_COST),
      vault: new CardVault(dataKey),
    };
  });
  afterAll(() => feed.close());

  let serial = 0;
  /** A new user with one option contract on the simulator book: its session and the contract's id. */
  async function userWithContract() {
    const email = uniqueEmail('inspection');
    const session = await t.registerByEmail(email);
    const contract = await ok(
      'microtrade/submit',
      {
        symbol: 'BTC',
        direction: 'up',
        seconds: '30',
        stake: '10',
        account: 'simulator',
        request_id: `inspect-${++serial}`,
      },
      session.token,
    );
    return { email, token: session.token, userId: session.user.id, contract: contract.id };
  }

  const step = (seq: number, event: string, states: string[]): TraceStep => ({
    seq,
    at: t.clock.now(),
    event,
    states,
  });
  const fields = (order: number, actor: string, steps: TraceStep[], machine = 'option-contract') => ({
    machine,
    order: String(order),
    actor,
    steps: JSON.stringify(steps),
  });
  const stored = async (actor: string) =>
    (
      await t.db
        .withTables<{ actor_traces: { actor: string; seq: number } }>()
        .selectFrom('actor_traces')
        .select('seq')
        .where('actor', '=', actor)
        .orderBy('seq')
        .execute()
    ).map((r) => r.seq);

  it('keeps an order’s steps for an operator with role qa, who follows them after a cursor', async () => {
    const a = await userWithContract();
    const actor = 'actora1b2c3d4';
    await ok(
      'qa/trace',
      fields(a.contract, actor, [
        step(0, 'xstate.init', ['optionContract.contract.choosing', 'optionContract.prices.stale']),
        step(1, 'PRICES_FRESH', ['optionContract.contract.choosing', 'optionContract.prices.fresh']),
        step(2, 'SUBMIT', ['optionContract.contract.submitting', 'optionContract.prices.fresh']),
      ]),
      a.token,
    );
    // The same batch again (a retry) and an overlapping one: each step once.
    await ok(
      'qa/trace',
      fields(a.contract, actor, [
        step(2, 'SUBMIT', ['optionContract.contract.submitting', 'optionContract.prices.fresh']),
        step(3, 'xstate.done.actor.0.optionContract.contract.submitting', ['optionContract.contract.waiting']),
      ]),
      a.token,
    );
    expect(await stored(actor)).toEqual([0, 1, 2, 3]);

    const qa = await console.signedIn(['qa']);
    const orders = await console.ops(opsInspectionCalls, 'ops/qa/orders', { user: a.email }, qa.token);
    expect(orders.type, JSON.stringify(orders)).toBe('ok');
    expect((orders.data as { items: unknown[] }).items).toEqual([
      expect.objectContaining({
        machine: 'option-contract',
        order: a.contract,
        user_id: a.userId,
        actors: 1,
        steps: 4,
      }),
    ]);
    const trace = await console.ops(
      opsInspectionCalls,
      'ops/qa/trace',
      { machine: 'option-contract', order: String(a.contract) },
      qa.token,
    );
    const data = trace.data as {
      actors: { actor: string; steps: { id: number; seq: number; event: string; states: string[] }[] }[];
    };
    expect(data.actors).toHaveLength(1);
    expect(data.actors[0]?.steps.map((x) => x.event)).toEqual([
      'xstate.init',
      'PRICES_FRESH',
      'SUBMIT',
      'xstate.done.actor.0.optionContract.contract.submitting',
    ]);
    expect(data.actors[0]?.steps[1]?.states).toEqual([
      'optionContract.contract.choosing',
      'optionContract.prices.fresh',
    ]);

    // Live: only what came after the last step the console has.
    const last = data.actors[0]?.steps.at(-1)?.id ?? 0;
    await ok(
      'qa/trace',
      fields(a.contract, actor, [step(4, 'CONTRACT_UPDATE', ['optionContract.contract.running'])]),
      a.token,
    );
    const newer = await console.ops(
      opsInspectionCalls,
      'ops/qa/trace',
      { machine: 'option-contract', order: String(a.contract), after: String(last) },
      qa.token,
    );
    expect((newer.data as typeof data).actors.map((x) => x.steps.map((y) => y.event))).toEqual([['CONTRACT_UPDATE']]);

    // Other roles see nothing of it.
    const support = await console.signedIn(['support']);
    const denied = await console.ops(opsInspectionCalls, 'ops/qa/orders', { user: a.email }, support.token);
    expect(denied.type).not.toBe('ok');
  });

  it('refuses steps for another user’s order or under another user’s actor, and junk, changing nothing', async () => {
    const a = await userWithContract();
    const b = await userWithContract();
    await ok('qa/trace', fields(a.contract, 'actorofa0001', [step(0, 'xstate.init', ['x.y'])]), a.token);
    // B names A's contract: not found, as if it did not exist.
    await refused(
      'qa/trace',
      fields(a.contract, 'actorofb0001', [step(0, 'xstate.init', ['x.y'])]),
      b.token,
      'notFound',
      'order',
    );
    // B reuses A's actor id for B's own contract: refused too, so A's timeline gets nothing of B's.
    await refused(
      'qa/trace',
      fields(b.contract, 'actorofa0001', [step(1, 'SUBMIT', ['x.y'])]),
      b.token,
      'notFound',
      'actor',
    );
    // The right order under the wrong machine names another table's row, which is not B's either.
    await refused(
      'qa/trace',
      fields(b.contract, 'actorofb0002', [step(0, 'xstate.init', ['x.y'])], 'ieo-subscription'),
      b.token,
      'notFound',
      'order',
    );
    const junk: Array<[Record<string, string>, string]> = [
      [{ ...fields(b.contract, 'actorofb0003', []), steps: '[]' }, 'steps'],
      [{ ...fields(b.contract, 'actorofb0003', []), steps: '{not json' }, 'steps'],
      [
        {
          ...fields(b.contract, 'actorofb0003', []),
          steps: JSON.stringify([{ seq: -1, at: 0, event: 'X', states: ['a'] }]),
        },
        'steps.0.seq',
      ],
      [
        {
          ...fields(b.contract, 'actorofb0003', []),
          steps: JSON.stringify([{ seq: 0, at: 0, event: '<script>', states: ['a'] }]),
        },
        'steps.0.event',
      ],
      [{ ...fields(b.contract, 'actorofb0003', [step(0, 'X', ['a'])]), machine: 'rocket' }, 'machine'],
      [{ ...fields(b.contract, 'Actor!', [step(0, 'X', ['a'])]) }, 'actor'],
      [{ ...fields(b.contract, 'actorofb0003', [step(0, 'X', ['a'])]), order: '99999999999' }, 'order'],
      [
        {
          ...fields(
            b.contract,
            'actorofb0003',
            Array.from({ length: 51 }, (_, i) => step(i, 'X', ['a'])),
          ),
        },
        'steps',
      ],
    ];
    for (const [body, field] of junk) await refused('qa/trace', body, b.token, 'invalidInput', field);
    expect(await stored('actorofb0001')).toEqual([]);
    expect(await stored('actorofb0002')).toEqual([]);
    expect(await stored('actorofb0003')).toEqual([]);
    expect(await stored('actorofa0001')).toEqual([0]);
    // Without a session nothing is kept either.
    const anonymous = await t.call('qa/trace', fields(a.contract, 'actorofa0001', [step(5, 'X', ['a'])]));
    expect(anonymous.body.type).not.toBe('ok');
    expect(await stored('actorofa0001')).toEqual([0]);
  });

  it('keeps the newest steps of a flapping actor, and none after a day', async () => {
    const a = await userWithContract();
    const actor = 'flapping0001';
    const total = TRACE_ACTOR_MAX + 20;
    for (let from = 0; from < total; from += 50) {
      const batch = Array.from({ length: Math.min(50, total - from) }, (_, i) =>
        step(from + i, (from + i) % 2 ? 'PRICES_STALE' : 'PRICES_FRESH', ['optionContract.prices.fresh']),
      );
      await ok('qa/trace', fields(a.contract, actor, batch), a.token);
    }
    const seqs = await stored(actor);
    expect(seqs).toHaveLength(TRACE_ACTOR_MAX);
    expect(seqs[0]).toBe(total - TRACE_ACTOR_MAX);
    expect(seqs.at(-1)).toBe(total - 1);

    t.clock.advance(TRACE_KEEP_MS + 1);
    const fresh = 'freshactor01';
    await ok('qa/trace', fields(a.contract, fresh, [step(0, 'xstate.init', ['a.b'])]), a.token);
    expect(await pruneTraces({ database: t.handle, now: t.clock.now })).toBeGreaterThanOrEqual(TRACE_ACTOR_MAX);
    expect(await stored(actor)).toEqual([]);
    expect(await stored(fresh)).toEqual([0]);
  });
});
