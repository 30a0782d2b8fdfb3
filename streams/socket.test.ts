import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketMessage } from '../protocol/market';
import { backoffDelay, type ConnectionState, RealtimeSocket, type VisibilitySource } from './socket';
import { FakeSocket } from './testing';

function setup(random = () => 0.5) {
  const fake = new FakeSocket();
  let visible = true;
  const listeners = new Set<() => void>();
  const visibility: VisibilitySource = {
    isVisible: () => visible,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const setVisible = (v: boolean) => {
    visible = v;
    for (const l of listeners) l();
  };
  const socket = new RealtimeSocket({
    createSocket: () => fake,
    random,
    backoff: { baseMs: 100, maxMs: 1_000 },
    visibility,
  });
  const states: ConnectionState[] = [];
  socket.state$.subscribe((s) => states.push(s));
  return { fake, socket, states, setVisible };
}

const msg = (topic: string, kind: MarketMessage['kind'], seq: number, data: unknown = []): MarketMessage => ({
  topic,
  kind,
  seq,
  ts: 1,
  data,
});

describe('backoffDelay', () => {
  it('doubles per attempt up to the cap, with jitter between half and the whole step', () => {
    const policy = { baseMs: 100, maxMs: 1_000 };
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, 0, policy))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, 0.999_999, policy))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelay(1_000, 0.5, policy)).toBe(750);
  });
});

describe('RealtimeSocket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('subscribes once per topic however many observe it, and unsubscribes when the last leaves', () => {
    const { fake, socket } = setup();
    fake.open();
    const a = socket.topic('quotes').subscribe();
    fake.push(msg('quotes', 'snapshot', 3));
    const b = socket.topic('trades:BTC').subscribe();
    expect(fake.subscribes()).toEqual(['quotes', 'trades:BTC']);
    a.unsubscribe();
    b.unsubscribe();
    expect(fake.emitted.filter(([e]) => e === 'unsubscribe').map(([, t]) => t)).toEqual(['quotes', 'trades:BTC']);
    expect(socket.registeredTopics()).toEqual([]);
  });

  it('reconnects with backoff after a drop and replays every registered topic', () => {
    const { fake, socket, states } = setup();
    expect(fake.connects).toBe(1);
    socket.topic('quotes').subscribe();
    socket.topic('kline:BTC:1min').subscribe();
    expect(fake.subscribes()).toEqual([]); // not connected yet: nothing sent
    fake.open();
    expect(fake.subscribes()).toEqual(['quotes', 'kline:BTC:1min']);

    fake.drop();
    expect(states.at(-1)).toBe('reconnecting');
    vi.advanceTimersByTime(74); // attempt 0 at jitter 0.5: 75 ms
    expect(fake.connects).toBe(1);
    vi.advanceTimersByTime(1);
    expect(fake.connects).toBe(2);

    // The server refuses once more: the next wait doubles.
    fake.refuse();
    vi.advanceTimersByTime(149);
    expect(fake.connects).toBe(2);
    vi.advanceTimersByTime(1);
    expect(fake.connects).toBe(3);

    fake.open();
    expect(states).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(fake.subscribes()).toEqual(['quotes', 'kline:BTC:1min', 'quotes', 'kline:BTC:1min']);
  });

  it('delivers updates in sequence, drops repeats, and asks for a fresh snapshot on a gap', () => {
    const { fake, socket } = setup();
    fake.open();
    const seen: [string, number][] = [];
    socket.topic('quotes').subscribe((m) => seen.push([m.kind, m.seq]));
    fake.push(msg('quotes', 'update', 1)); // before the snapshot: ignored
    fake.push(msg('quotes', 'snapshot', 5));
    fake.push(msg('quotes', 'update', 6));
    fake.push(msg('quotes', 'update', 6)); // repeat
    fake.push(msg('quotes', 'update', 8)); // 7 is missing
    expect(socket.resyncs).toBe(1);
    expect(fake.subscribes()).toEqual(['quotes', 'quotes']);
    fake.push(msg('quotes', 'update', 9)); // still waiting for the snapshot
    fake.push(msg('quotes', 'snapshot', 9));
    fake.push(msg('quotes', 'update', 10));
    expect(seen).toEqual([
      ['snapshot', 5],
      ['update', 6],
      ['snapshot', 9],
      ['update', 10],
    ]);
  });

  it('ignores messages that break the contract or belong to no registered topic', () => {
    const { fake, socket } = setup();
    fake.open();
    const seen: number[] = [];
    socket.topic('quotes').subscribe((m) => seen.push(m.seq));
    fake.push({ topic: 'quotes', kind: 'snapshot', seq: -1, ts: 1, data: [] });
    fake.push(msg('stocks', 'snapshot', 1));
    fake.push(msg('quotes', 'snapshot', 2));
    expect(seen).toEqual([2]);
  });

  it('resyncs every topic when the tab becomes visible, and reconnects at once if it was down', () => {
    const { fake, socket, setVisible } = setup();
    fake.open();
    socket.topic('quotes').subscribe();
    socket.topic('stocks').subscribe();
    setVisible(false);
    expect(fake.subscribes()).toHaveLength(2);
    setVisible(true);
    expect(fake.subscribes()).toEqual(['quotes', 'stocks', 'quotes', 'stocks']);

    fake.drop();
    for (let i = 0; i < 5; i++) fake.refuse();
    const before = fake.connects;
    setVisible(true);
    expect(fake.connects).toBe(before + 1);
  });

  it('stays down after close and completes its observers', () => {
    const { fake, socket, states } = setup();
    fake.open();
    let completed = false;
    socket.topic('quotes').subscribe({ complete: () => (completed = true) });
    socket.close();
    vi.advanceTimersByTime(60_000);
    expect(completed).toBe(true);
    expect(fake.connects).toBe(1);
    expect(states.at(-1)).toBe('closed');
  });
});
