// @vitest-environment node
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  accountEvents,
  type FundingChange,
  fundingChanges,
  type VerificationChange,
  verificationChanges,
} from './account-events';
import type { ConnectionState } from './socket';
import { RealtimeSocket } from './socket';
import { FakeSocket } from './testing';

function fakeSource() {
  const events = new Subject<unknown>();
  const state = new BehaviorSubject<ConnectionState>('connecting');
  const names: string[] = [];
  return {
    source: {
      event: (name: string) => {
        names.push(name);
        return events;
      },
      state$: state,
    },
    events,
    state,
    names,
  };
}

describe('account events', () => {
  it('passes well-formed `account` events and drops the rest', () => {
    const { source, events, names } = fakeSource();
    const got: unknown[] = [];
    accountEvents(source).subscribe((e) => got.push(e));
    expect(names).toEqual(['account']);
    events.next({ kind: 'verification', data: { level: 'basic', state: 'verified', reason: null } });
    events.next('junk');
    events.next({ data: 1 });
    events.next({ kind: 'deposit', data: null });
    expect(got).toEqual([
      { kind: 'verification', data: { level: 'basic', state: 'verified', reason: null } },
      { kind: 'deposit', data: null },
    ]);
  });

  it('turns verification events into changes and asks for a resync after each reconnect', () => {
    const { source, events, state } = fakeSource();
    const got: VerificationChange[] = [];
    verificationChanges(source).subscribe((c) => got.push(c));
    state.next('connected');
    events.next({ kind: 'verification', data: { level: 'advanced', state: 'rejected', reason: 'blurred' } });
    events.next({ kind: 'verification', data: { level: 'nope', state: 'verified' } });
    events.next({ kind: 'other', data: {} });
    state.next('reconnecting');
    state.next('connected');
    expect(got).toEqual([
      { kind: 'resync' },
      { kind: 'changed', level: 'advanced', state: 'rejected', reason: 'blurred' },
      { kind: 'resync' },
    ]);
  });

  it('turns deposit and withdrawal events into changes with their id, and resyncs after each reconnect', () => {
    const { source, events, state } = fakeSource();
    const got: FundingChange[] = [];
    fundingChanges(source).subscribe((c) => got.push(c));
    state.next('connected');
    events.next({ kind: 'deposit', data: { id: 4, state: 'passed', reason: null } });
    events.next({ kind: 'withdrawal', data: { id: 9, state: 'rejected', reason: 'limit' } });
    events.next({ kind: 'withdrawal', data: { id: 'x' } });
    events.next({ kind: 'verification', data: { level: 'basic', state: 'verified', reason: null } });
    state.next('reconnecting');
    state.next('connected');
    expect(got).toEqual([
      { kind: 'resync' },
      { kind: 'deposit', id: 4 },
      { kind: 'withdrawal', id: 9 },
      { kind: 'resync' },
    ]);
  });

  it('RealtimeSocket.event hands one server event to every observer, through one socket listener', () => {
    const fake = new FakeSocket();
    const socket = new RealtimeSocket({ createSocket: () => fake, visibility: null });
    const a: unknown[] = [];
    const b: unknown[] = [];
    const subA = socket.event('account').subscribe((e) => a.push(e));
    socket.event('account').subscribe((e) => b.push(e));
    fake.open();
    fake.serverEmit('account', { kind: 'x', data: 1 });
    subA.unsubscribe();
    fake.serverEmit('account', { kind: 'y', data: 2 });
    expect(a).toEqual([{ kind: 'x', data: 1 }]);
    expect(b).toEqual([
      { kind: 'x', data: 1 },
      { kind: 'y', data: 2 },
    ]);
    // No subscribe message: these are not topics.
    expect(fake.subscribes()).toEqual([]);
    socket.close();
  });
});
