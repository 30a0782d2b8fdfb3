// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { createServerClock } from '../core/clock';
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

  it('tells each return after a drop, not the first connect', () => {
    const { fake, socket } = setup();
    let returns = 0;
    socket.reconnected$.subscribe(() => {
      returns += 1;
    });
    fake.open();
    expect(returns).toBe(0);
    fake.drop();
    vi.advanceTimersByTime(75);
    expect(returns).toBe(0);
    fake.open();
    expect(returns).toBe(1);
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

describe('private topics', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const accountData = z.object({ kind: z.string(), data: z.unknown() });

  it('subscribes `me:<name>` with an acknowledgement and delivers parsed data in sequence, resyncing on a gap', () => {
    const { fake, socket } = setup();
    fake.open();
    const seen: unknown[] = [];
    socket.privateTopic('account', accountData).subscribe((m) => seen.push([m.kind, m.seq, m.data]));
    expect(fake.subscribes()).toEqual(['me:account']);
    expect(fake.acks.map((a) => [a.event, a.payload])).toEqual([['subscribe', 'me:account']]);
    fake.ack('subscribe', { ok: true, topic: 'me:account' });

    fake.pushPrivate(msg('me:account', 'snapshot', 4, { kind: 'snapshot', data: [] }));
    fake.pushPrivate(msg('me:account', 'update', 5, { kind: 'deposit', data: { id: 1 } }));
    fake.pushPrivate(msg('me:account', 'update', 6, 'not an account event')); // counted, but dropped
    fake.pushPrivate(msg('me:account', 'update', 6, { kind: 'deposit', data: { id: 1 } })); // repeat
    fake.pushPrivate(msg('me:account', 'update', 8, { kind: 'withdrawal', data: { id: 2 } })); // 7 is missing
    expect(socket.resyncs).toBe(1);
    expect(fake.subscribes()).toEqual(['me:account', 'me:account']);
    fake.pushPrivate(msg('me:account', 'snapshot', 8, { kind: 'snapshot', data: [1] }));
    expect(seen).toEqual([
      ['snapshot', 4, { kind: 'snapshot', data: [] }],
      ['update', 5, { kind: 'deposit', data: { id: 1 } }],
      ['snapshot', 8, { kind: 'snapshot', data: [1] }],
    ]);
  });

  it('keeps market and private messages apart', () => {
    const { fake, socket } = setup();
    fake.open();
    const seen: number[] = [];
    socket.privateTopic('account', accountData).subscribe((m) => seen.push(m.seq));
    // A private topic's name on the market event is not taken.
    fake.push(msg('me:account', 'snapshot', 1, { kind: 'x', data: null }));
    fake.pushPrivate(msg('me:account', 'snapshot', 2, { kind: 'x', data: null }));
    expect(seen).toEqual([2]);
  });

  it('remembers a refusal (anonymous socket) and subscribes again after the reconnect of a login', () => {
    const { fake, socket } = setup();
    fake.open();
    socket.privateTopic('account', accountData).subscribe();
    fake.ack('subscribe', { ok: false, topic: 'me:account', error: 'notLoggedIn' });
    expect(socket.refusal('account')).toBe('notLoggedIn');
    socket.reconnectNow();
    fake.open();
    expect(fake.subscribes()).toEqual(['me:account', 'me:account']);
    expect(socket.refusal('account')).toBeUndefined();
    fake.ack('subscribe', { ok: true, topic: 'me:account' });
    expect(socket.refusal('account')).toBeUndefined();
  });

  it('replays private topics after a reconnect and unsubscribes when the last observer leaves', () => {
    const { fake, socket } = setup();
    fake.open();
    const sub = socket.privateTopic('account', accountData).subscribe();
    fake.drop();
    vi.advanceTimersByTime(1_000);
    fake.open();
    expect(fake.subscribes()).toEqual(['me:account', 'me:account']);
    sub.unsubscribe();
    expect(fake.emitted.filter(([e]) => e === 'unsubscribe').map(([, t]) => t)).toEqual(['me:account']);
  });
});

describe('commands', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const ids = () => {
    let n = 0;
    return () => `cmd-id-${++n}`;
  };

  function commandSetup() {
    const fake = new FakeSocket();
    const socket = new RealtimeSocket({ createSocket: () => fake, random: () => 0.5, visibility: null, newId: ids() });
    return { fake, socket };
  }

  it('sends {name, id, args} and resolves with the acknowledgement, its data parsed', async () => {
    const { fake, socket } = commandSetup();
    fake.open();
    const answer = socket.command('chat.send', { text: 'hi' }, { result: z.object({ messageId: z.number() }) });
    expect(fake.commands()).toEqual([{ name: 'chat.send', id: 'cmd-id-1', args: { text: 'hi' } }]);
    fake.ack('command', { ok: true, data: { messageId: 7 } });
    await expect(answer).resolves.toEqual({ ok: true, data: { messageId: 7 } });
  });

  it('passes a refusal on, and calls an answer that breaks the contract badAnswer', async () => {
    const { fake, socket } = commandSetup();
    fake.open();
    const refused = socket.command('chat.send', {});
    fake.ack('command', { ok: false, error: 'notLoggedIn' });
    await expect(refused).resolves.toEqual({ ok: false, error: 'notLoggedIn' });
    const odd = socket.command('chat.send', {}, { result: z.object({ messageId: z.number() }) });
    fake.ack('command', { ok: true, data: { messageId: 'x' } });
    await expect(odd).resolves.toEqual({ ok: false, error: 'badAnswer' });
  });

  it('retries with the same id after a timeout, takes the first answer, and gives up after the last attempt', async () => {
    const { fake, socket } = commandSetup();
    fake.open();
    const answer = socket.command('chat.send', { text: 'a' }, { timeoutMs: 1_000, attempts: 3 });
    vi.advanceTimersByTime(999);
    expect(fake.commands()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(fake.commands()).toEqual([
      { name: 'chat.send', id: 'cmd-id-1', args: { text: 'a' } },
      { name: 'chat.send', id: 'cmd-id-1', args: { text: 'a' } },
    ]);
    // The first attempt's answer arrives late: it counts, and the later one is ignored.
    fake.ack('command', { ok: true, data: 1 }, 0);
    fake.ack('command', { ok: true, data: 2 }, 1);
    await expect(answer).resolves.toEqual({ ok: true, data: 1 });
    vi.advanceTimersByTime(10_000);
    expect(fake.commands()).toHaveLength(2);

    const lost = socket.command('chat.send', { text: 'b' }, { timeoutMs: 1_000, attempts: 2 });
    vi.advanceTimersByTime(2_000);
    await expect(lost).resolves.toEqual({ ok: false, error: 'timeout' });
    expect(fake.commands().slice(2)).toEqual([
      { name: 'chat.send', id: 'cmd-id-2', args: { text: 'b' } },
      { name: 'chat.send', id: 'cmd-id-2', args: { text: 'b' } },
    ]);
  });

  it('waits for the connection before sending, and fails pending commands on close', async () => {
    const { fake, socket } = commandSetup();
    const answer = socket.command('chat.send', {}, { timeoutMs: 5_000 });
    expect(fake.commands()).toEqual([]);
    fake.open();
    expect(fake.commands()).toHaveLength(1);
    const pending = socket.command('chat.send', {});
    socket.close();
    await expect(answer).resolves.toEqual({ ok: false, error: 'closed' });
    await expect(pending).resolves.toEqual({ ok: false, error: 'closed' });
    await expect(socket.command('chat.send', {})).resolves.toEqual({ ok: false, error: 'closed' });
  });
});

describe('server time', () => {
  it('feeds the server time of every message to the clock', () => {
    let now = 10_000;
    const clock = createServerClock({ now: () => now });
    const fake = new FakeSocket();
    const socket = new RealtimeSocket({ createSocket: () => fake, visibility: null, clock });
    fake.open();
    socket.topic('quotes').subscribe();
    now = 10_050;
    fake.push({ topic: 'quotes', kind: 'snapshot', seq: 1, ts: 70_000, data: [] });
    expect(clock.offset()).toBe(59_950);
    now = 10_100;
    fake.pushPrivate({ topic: 'me:account', kind: 'snapshot', seq: 1, ts: 70_080, data: null });
    expect(clock.offset()).toBe(59_980);
    socket.close();
  });
});
