import { describe, expect, it } from 'vitest';
import { FakeLeaseStore } from './fakes';
import { LeaderLease } from './leader';

const TTL = 60_000;

function lease(store: FakeLeaseStore, id: string, now: () => number) {
  const changes: boolean[] = [];
  const l = new LeaderLease(store, { id, ttlMs: TTL, now, onChange: (leader) => changes.push(leader) });
  return { l, changes };
}

describe('leader lease', () => {
  it('elects one holder, renews it, and hands over after the holder stops renewing', async () => {
    let now = 1_000;
    const store = new FakeLeaseStore(() => now);
    const a = lease(store, 'a', () => now);
    const b = lease(store, 'b', () => now);
    expect(await a.l.start()).toBe(true);
    expect(await b.l.start()).toBe(false);
    expect(store.holder?.id).toBe('a');

    // A renews every ttl/3: B never gets in.
    for (let i = 0; i < 6; i++) {
      now += TTL / 3;
      await a.l.attempt();
      await b.l.attempt();
    }
    expect(a.l.isLeader).toBe(true);
    expect(b.l.isLeader).toBe(false);

    // A dies (no more renewals): B takes over once the lease has expired.
    now += TTL / 3;
    await b.l.attempt();
    expect(b.l.isLeader).toBe(false);
    now += TTL;
    await b.l.attempt();
    expect(b.l.isLeader).toBe(true);
    expect(b.changes).toEqual([true]);

    // A wakes up: its renewal fails and it steps down.
    await a.l.attempt();
    expect(a.l.isLeader).toBe(false);
    expect(a.changes).toEqual([true, false]);
    await a.l.stop();
    await b.l.stop();
  });

  it('releases the lease on stop, so a follower takes over at once', async () => {
    const now = 5_000;
    const store = new FakeLeaseStore(() => now);
    const a = lease(store, 'a', () => now);
    const b = lease(store, 'b', () => now);
    await a.l.start();
    await b.l.start();
    await a.l.stop();
    expect(store.holder).toBeUndefined();
    await b.l.attempt();
    expect(b.l.isLeader).toBe(true);
    await b.l.stop();
  });

  it('steps down when Redis stays unreachable for a ttl, not at the first error', async () => {
    let now = 0;
    const store = new FakeLeaseStore(() => now);
    const errors: unknown[] = [];
    const l = new LeaderLease(store, {
      id: 'a',
      ttlMs: TTL,
      now: () => now,
      onChange: () => {},
      onError: (e) => errors.push(e),
    });
    await l.start();
    store.failing = true;
    now += TTL / 3;
    await l.attempt();
    expect(l.isLeader).toBe(true);
    now += TTL;
    await l.attempt();
    expect(l.isLeader).toBe(false);
    expect(errors.length).toBe(2);
    store.failing = false;
    await l.stop();
  });
});
