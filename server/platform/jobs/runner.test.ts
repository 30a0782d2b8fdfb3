import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalLeases } from './leases';
import { type Job, JobRunner, leaseTtl } from './runner';

/** Two "processes" sharing one lease store, driven round by round (no timers). */
function cluster(now: () => number) {
  const leases = new LocalLeases(now);
  const errors: string[] = [];
  const make = (owner: string) => new JobRunner({ leases, owner, onError: (job) => errors.push(`${owner}:${job}`) });
  return { a: make('a'), b: make('b'), leases, errors };
}

function countingJob(name: string, runs: string[], owner: string, scope: Job['scope'] = 'cluster'): Job {
  return { name, scope, everyMs: 1000, run: ({ leading }) => void (leading && runs.push(owner)) };
}

describe('job runner', () => {
  it('runs a cluster job in exactly one process, however often both try', async () => {
    let now = 0;
    const { a, b } = cluster(() => now);
    const runs: string[] = [];
    a.register(countingJob('settle', runs, 'a'));
    b.register(countingJob('settle', runs, 'b'));
    for (let i = 0; i < 10; i++) {
      await Promise.all([a.runOnce('settle'), b.runOnce('settle')]);
      now += 1000;
    }
    expect(runs).toEqual(Array(10).fill('a'));
    expect(a.isLeading('settle')).toBe(true);
    expect(b.isLeading('settle')).toBe(false);
  });

  it('hands a cluster job over when its process stops renewing (a crash), and at once on a clean stop', async () => {
    let now = 0;
    const { a, b } = cluster(() => now);
    const runs: string[] = [];
    const job = countingJob('accrue', runs, 'a');
    a.register(job);
    b.register(countingJob('accrue', runs, 'b'));
    await a.runOnce('accrue');
    // a "crashes": it stops running rounds. Until its lease lapses b stays out.
    now += leaseTtl(job) - 1;
    await b.runOnce('accrue');
    now += 2;
    await b.runOnce('accrue');
    expect(runs).toEqual(['a', 'b']);
    // b stops cleanly: its last round runs and the lease is free at once for a.
    await b.close();
    await a.runOnce('accrue');
    expect(runs).toEqual(['a', 'b', 'b', 'a']);
  });

  it('runs process jobs everywhere, and never overlaps a slow round with the next', async () => {
    const { a, b } = cluster(() => 0);
    const runs: string[] = [];
    a.register(countingJob('relay', runs, 'a', 'process'));
    b.register(countingJob('relay', runs, 'b', 'process'));
    await Promise.all([a.runOnce('relay'), b.runOnce('relay')]);
    expect(runs.sort()).toEqual(['a', 'b']);

    let release: () => void = () => {};
    let started = 0;
    a.register({
      name: 'slow',
      scope: 'process',
      everyMs: 1000,
      run: () => {
        started += 1;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    const first = a.runOnce('slow');
    const second = a.runOnce('slow');
    await Promise.resolve();
    expect(started).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(started).toBe(1);
  });

  it('reports a failing round and keeps the job', async () => {
    const { a, errors } = cluster(() => 0);
    let calls = 0;
    a.register({
      name: 'flaky',
      scope: 'cluster',
      everyMs: 1000,
      run: () => {
        calls += 1;
        if (calls === 1) throw new Error('database busy');
      },
    });
    await a.runOnce('flaky');
    await a.runOnce('flaky');
    expect(calls).toBe(2);
    expect(errors).toEqual(['a:flaky']);
  });

  it('lets a following process clean up when the job asks for it', async () => {
    const { a, b } = cluster(() => 0);
    const seen: Array<[string, boolean]> = [];
    for (const [runner, owner] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      runner.register({
        name: 'record',
        scope: 'cluster',
        everyMs: 1000,
        runWhenFollowing: true,
        run: ({ leading }) => void seen.push([owner, leading]),
      });
    }
    await a.runOnce('record');
    await b.runOnce('record');
    expect(seen).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  describe('a round longer than the lease', () => {
    afterEach(() => vi.useRealTimers());

    it('keeps its lease while it runs, so no other process starts the job meanwhile', async () => {
      vi.useFakeTimers();
      const { a, b } = cluster(() => Date.now());
      let finish: () => void = () => {};
      const seen: string[] = [];
      a.register({
        name: 'settle',
        scope: 'cluster',
        everyMs: 1000,
        run: (round) =>
          new Promise<void>((resolve) => {
            seen.push(`a:${round.leading}`);
            finish = () => {
              seen.push(`a still leading: ${round.stillLeading()}`);
              resolve();
            };
          }),
      });
      b.register(countingJob('settle', seen, 'b'));
      const slow = a.runOnce('settle');
      await vi.advanceTimersByTimeAsync(0);
      // Three lease lifetimes pass inside one round: the renewals keep b out.
      await vi.advanceTimersByTimeAsync(leaseTtlOf(1000) * 3);
      await b.runOnce('settle');
      finish();
      await slow;
      expect(seen).toEqual(['a:true', 'a still leading: true']);
    });

    it('tells the round when a renewal fails, and does not run a last round on close without the lease', async () => {
      vi.useFakeTimers();
      let grant = true;
      const leases = { acquire: async () => grant, release: async () => {} };
      const runner = new JobRunner({ leases, owner: 'a' });
      const rounds: boolean[] = [];
      let finish: () => void = () => {};
      runner.register({
        name: 'accrue',
        scope: 'cluster',
        everyMs: 1000,
        run: (round) =>
          new Promise<void>((resolve) => {
            finish = () => {
              rounds.push(round.stillLeading());
              resolve();
            };
          }),
      });
      const slow = runner.runOnce('accrue');
      await vi.advanceTimersByTimeAsync(0);
      grant = false;
      await vi.advanceTimersByTimeAsync(leaseTtlOf(1000));
      finish();
      await slow;
      expect(rounds).toEqual([false]);
      await runner.close();
      expect(rounds).toEqual([false]);
    });
  });
});

/** The ttl the runner uses for a job run every `everyMs`. */
const leaseTtlOf = (everyMs: number) => leaseTtl({ name: 'x', scope: 'cluster', everyMs, run: () => {} });
