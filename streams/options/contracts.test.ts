// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OptionContract, OptionsTopicMessage } from '../../protocol/options';
import { RealtimeSocket } from '../socket';
import { FakeSocket } from '../testing';
import { type ContractChange, createContractStream } from './contracts';

// The merging of topic and poll is tested once, in streams/private-records.test.ts; here only what is options': the
// `me:options` topic and its messages, both books in one list, which contracts are open, and the change the views get.

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

describe('the contract stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads me:options: waiting and running contracts of both books are open, settled ones leave', async () => {
    const fake = new FakeSocket();
    const stream = createContractStream({
      source: new RealtimeSocket({ createSocket: () => fake, visibility: null, clock: null }),
      poll: async () => false,
    });
    fake.open();
    const open: number[][] = [];
    const changes: ContractChange[] = [];
    const subs = [
      stream.changes$.subscribe((c) => changes.push(c)),
      stream.open$.subscribe((list) => open.push(list.map((c) => c.id))),
    ];
    expect(fake.subscribes()).toEqual(['me:options']);
    fake.ack('subscribe', { ok: true, topic: 'me:options' });
    const messages: OptionsTopicMessage[] = [
      { kind: 'snapshot', contracts: [contract(1, 'waiting', 10), contract(2, 'running', 20, 'real')] },
      { kind: 'contract', contract: contract(1, 'running', 30) },
      { kind: 'contract', contract: contract(2, 'won', 40, 'real') },
      { kind: 'contract', contract: contract(1, 'lost', 50) },
    ];
    messages.forEach((data, seq) => {
      fake.pushPrivate({ topic: 'me:options', kind: seq === 0 ? 'snapshot' : 'update', seq, ts: 100 + seq, data });
    });
    expect(open).toEqual([[2, 1], [2, 1], [1], []]);
    expect(changes.map((c) => (c.kind === 'contract' ? `${c.contract.id}:${c.contract.state}` : c.kind))).toEqual([
      '1:waiting',
      '2:running',
      '1:running',
      '2:won',
      '1:lost',
    ]);
    for (const s of subs) s.unsubscribe();
  });
});
