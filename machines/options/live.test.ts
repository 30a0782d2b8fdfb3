// @vitest-environment node
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { OptionContract } from '../../protocol/options';
import type { ContractChange } from '../../streams/options/contracts';
import { contractView, optionContractMachine } from './contract.machine';
import { contract, counter, SERVER_NOW } from './contract.model';
import { type OptionLive, startOptionLive } from './live';

/**
 * The live option book outside React: the contracts stream drives the book machine (one contract machine per open
 * contract of the book, told each newer copy, stopped when it settles out of the list), the gate reaches every
 * machine, the ticket hears each change. Subjects stand for the streams.
 */

function rig() {
  const open$ = new BehaviorSubject<OptionContract[]>([]);
  const changes$ = new Subject<ContractChange>();
  const fresh$ = new BehaviorSubject<boolean>(false);
  const news: ContractChange[] = [];
  const live = startOptionLive('simulator', {
    contracts: { open$, changes$ },
    fresh$,
    contract: optionContractMachine,
    makeId: counter(),
    serverNow: () => SERVER_NOW,
    onChange: (c) => news.push(c),
  });
  return { open$, changes$, fresh$, live, news };
}

const rowOf = (live: OptionLive, id: number) => live.actor.getSnapshot().context.rows[id]?.ref;
const running = (id: number, extra: Partial<OptionContract> = {}) => contract('running', 2, { id, ...extra });

describe('the live option book', () => {
  it("keeps one contract machine per open contract of its own book, in the contract's state", () => {
    const { open$, live } = rig();
    open$.next([running(7), running(8, { account: 'real' }), contract('waiting', 1, { id: 9 })]);
    expect(live.actor.getSnapshot().context.open?.map((c) => c.id)).toEqual([7, 9]);
    const row7 = rowOf(live, 7);
    expect(row7 && contractView(row7.getSnapshot(), SERVER_NOW).phase).toBe('running');
    expect(rowOf(live, 8)).toBeUndefined();
    const row9 = rowOf(live, 9);
    expect(row9 && contractView(row9.getSnapshot(), SERVER_NOW).phase).toBe('waiting');
    open$.next([running(7)]);
    expect(row9?.getSnapshot().status).toBe('stopped');
    expect(rowOf(live, 7)).toBe(row7);
    live.stop();
    expect(row7?.getSnapshot().status).toBe('stopped');
  });

  it('tells a row each newer copy, and leaves the list alone when only the other book changed', () => {
    const { open$, live } = rig();
    const seven = running(7);
    open$.next([seven]);
    const lists = live.actor.getSnapshot().context.open;
    open$.next([seven, running(8, { account: 'real' })]);
    expect(live.actor.getSnapshot().context.open).toBe(lists);
    open$.next([contract('won', 5, { id: 7, exit: { symbol: 'BTC', seq: 99, ts: 1, price: '101' }, payout: '18' })]);
    const row = rowOf(live, 7);
    expect(row && contractView(row.getSnapshot(), SERVER_NOW).phase).toBe('won');
    live.stop();
  });

  it('tells the gate to the ticket and every row; a contract that appears while fresh starts fresh', () => {
    const { open$, fresh$, live } = rig();
    const ticket = live.actor.getSnapshot().context.ticket;
    expect(contractView(ticket.getSnapshot(), SERVER_NOW).submitEnabled).toBe(false);
    fresh$.next(true);
    expect(contractView(ticket.getSnapshot(), SERVER_NOW).submitEnabled).toBe(true);
    open$.next([running(7)]);
    const row = rowOf(live, 7);
    const prices = (r: typeof row) => (r?.getSnapshot().value as { prices?: string } | undefined)?.prices;
    expect(prices(row)).toBe('fresh');
    fresh$.next(false);
    expect(prices(row)).toBe('stale');
    expect(contractView(ticket.getSnapshot(), SERVER_NOW).submitEnabled).toBe(false);
    live.stop();
  });

  it('tells the ticket each change and the page each one once', () => {
    const { changes$, live, news } = rig();
    const seen = running(7);
    changes$.next({ kind: 'contract', contract: seen });
    changes$.next({ kind: 'closed' });
    expect(news).toEqual([{ kind: 'contract', contract: seen }, { kind: 'closed' }]);
    // The ticket bought nothing: a contract with another request id changes nothing in it.
    expect(contractView(live.actor.getSnapshot().context.ticket.getSnapshot(), SERVER_NOW).phase).toBe('choosing');
    live.stop();
  });
});
