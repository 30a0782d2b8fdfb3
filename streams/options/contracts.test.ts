import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { OptionContract, OptionsTopicMessage } from '../../protocol/options';
import type { ConnectionState, PrivateTopicMessage } from '../socket';
import { ContractBook, type ContractChange, type ContractsSource, createContractStream } from './contracts';

const contract = (
  id: number,
  state: OptionContract['state'],
  updatedAt: number,
  account: OptionContract['account'] = 'simulator',
): OptionContract => ({
  id,
  symbol: 'BTC',
  direction: 'up',
  seconds: 30,
  ratio: '0.80',
  currency: 'USDT',
  stake: '10',
  account,
  state,
  entry: state === 'waiting' ? null : { symbol: 'BTC', seq: 5, ts: 50, price: '100' },
  expiry_ts: state === 'waiting' ? null : 30_050,
  exit: null,
  payout: state === 'lost' ? '0' : state === 'won' ? '18' : null,
  request_id: `r${id}`,
  created_at: id * 10,
  updated_at: updatedAt,
  settled_at: null,
});

/** The socket as this stream sees it: the test plays the server's `me:options` messages and the connection. */
class FakeContractsSource implements ContractsSource {
  readonly state = new BehaviorSubject<ConnectionState>('connected');
  readonly state$ = this.state;
  readonly topic = new Subject<PrivateTopicMessage<unknown>>();
  readonly names: string[] = [];
  private seq = 0;

  privateTopic<T>(name: string, _schema: z.ZodType<T>): Observable<PrivateTopicMessage<T>> {
    this.names.push(name);
    return this.topic as unknown as Observable<PrivateTopicMessage<T>>;
  }

  send(data: OptionsTopicMessage, ts: number): void {
    this.topic.next({ kind: data.kind === 'snapshot' ? 'snapshot' : 'update', seq: this.seq++, ts, data });
  }
}

describe('the contract book', () => {
  it('keeps the newer update per contract and drops repeats and late news', () => {
    const book = new ContractBook();
    expect(book.take(contract(1, 'waiting', 10))).toBe(true);
    expect(book.take(contract(1, 'waiting', 10))).toBe(false);
    expect(book.take(contract(1, 'running', 20))).toBe(true);
    expect(book.take(contract(1, 'waiting', 15))).toBe(false);
    expect(book.open().map((c) => c.state)).toEqual(['running']);
    expect(book.take(contract(1, 'won', 30))).toBe(true);
    expect(book.open()).toEqual([]);
  });

  it('drops open contracts a full list no longer holds, unless they changed after the list was made', () => {
    const book = new ContractBook();
    book.take(contract(1, 'running', 10));
    book.take(contract(2, 'waiting', 50));
    expect(book.takeOpenList([], 40).dropped).toBe(true);
    expect(book.open().map((c) => c.id)).toEqual([2]);
  });
});

describe('the contract stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(polls: (readonly OptionContract[] | false)[]) {
    const source = new FakeContractsSource();
    const poll = vi.fn(async () => polls.shift() ?? false);
    let clock = 1_000;
    const stream = createContractStream({
      source,
      poll,
      pollWhileUpMs: 30_000,
      pollWhileDownMs: 2_000,
      now: () => clock,
    });
    const open: OptionContract[][] = [];
    const changes: ContractChange[] = [];
    const subs = [stream.changes$.subscribe((c) => changes.push(c)), stream.open$.subscribe((o) => open.push(o))];
    return {
      source,
      poll,
      open,
      changes,
      setClock: (t: number) => {
        clock = t;
      },
      stop: () => {
        for (const s of subs) s.unsubscribe();
      },
    };
  }

  const ids = (list: OptionContract[] | undefined) => list?.map((c) => c.id);

  it('subscribes to me:options, merges it with the poll (both books) and drops duplicates', async () => {
    const t = setup([[contract(1, 'waiting', 100), contract(3, 'running', 90, 'real')]]);
    expect(t.source.names).toEqual(['options']);
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(t.open.at(-1))).toEqual([3, 1]);
    // The snapshot repeats contract 1 and 3 and brings 2.
    t.source.send(
      {
        kind: 'snapshot',
        contracts: [contract(1, 'waiting', 100), contract(2, 'running', 120), contract(3, 'running', 90, 'real')],
      },
      130,
    );
    expect(ids(t.open.at(-1))).toEqual([3, 2, 1]);
    // Contract 1 enters, then settles; the same update again is dropped.
    t.source.send({ kind: 'contract', contract: contract(1, 'running', 150) }, 150);
    t.source.send({ kind: 'contract', contract: contract(1, 'won', 200) }, 200);
    t.source.send({ kind: 'contract', contract: contract(1, 'won', 200) }, 201);
    expect(ids(t.open.at(-1))).toEqual([3, 2]);
    expect(t.changes.map((c) => (c.kind === 'contract' ? `${c.contract.id}:${c.contract.state}` : c.kind))).toEqual([
      '1:waiting',
      '3:running',
      '2:running',
      '1:running',
      '1:won',
    ]);
    t.stop();
  });

  it('a poll older than a socket update does not bring a settled contract back', async () => {
    const t = setup([[], [contract(4, 'running', 100)]]);
    await vi.advanceTimersByTimeAsync(0);
    t.source.send({ kind: 'contract', contract: contract(4, 'running', 100) }, 100);
    t.source.send({ kind: 'contract', contract: contract(4, 'lost', 300) }, 300);
    t.setClock(400);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(t.poll).toHaveBeenCalledTimes(2);
    expect(t.open.at(-1)).toEqual([]);
    t.stop();
  });

  it('polls often while the socket is down and reports contracts that closed unseen', async () => {
    const t = setup([[contract(5, 'running', 100)], [], []]);
    t.source.state.next('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(t.open.at(-1))).toEqual([5]);
    t.setClock(5_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(t.poll.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(t.open.at(-1)).toEqual([]);
    expect(t.changes.at(-1)).toEqual({ kind: 'closed' });
    t.stop();
  });

  it('a failed poll changes nothing; an empty first list still tells the view it is loaded', async () => {
    const t = setup([false, []]);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.open).toEqual([]);
    t.source.send({ kind: 'snapshot', contracts: [] }, 10);
    expect(t.open).toEqual([[]]);
    t.stop();
  });
});
