// @vitest-environment node
import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionState } from '../../streams/socket';
import { invalidateOnAccountEvents } from './account-events';
import { keys } from './keys';
import { createQueryClient } from './query';

// The notice of a fired price alert loads when the first one comes: here a stand-in that records what it was handed.
const alertFired = vi.hoisted(() => vi.fn(async () => {}));
vi.mock('../features/alerts/notice', () => ({ alertFired }));

function setup() {
  const events = new Subject<unknown>();
  const state = new BehaviorSubject<ConnectionState>('connecting');
  const client = createQueryClient();
  const seed = [
    keys.verification,
    keys.deposits,
    keys.withdrawals,
    keys.withdrawal(3),
    keys.withdrawal(4),
    keys.withdrawInfo('USDT'),
    keys.assets(),
    keys.assets('coin'),
    keys.bankCards,
    keys.instruments,
  ];
  for (const key of seed) client.setQueryData(key, 1);
  const stale = () =>
    seed.filter((key) => client.getQueryState(key)?.isInvalidated).map((key) => key.join('/'));
  const stop = invalidateOnAccountEvents(client, { event: () => events, state$: state });
  return { events, state, client, stale, stop };
}

describe('account events invalidate the data they change', () => {
  it('a verification review: the verification state', () => {
    const { events, stale } = setup();
    events.next({ kind: 'verification', data: { level: 'basic', state: 'verified', reason: null } });
    expect(stale()).toEqual(['identity/realName']);
  });

  it('a deposit: the deposit records and the balances', () => {
    const { events, stale } = setup();
    events.next({ kind: 'deposit', data: { id: 1, state: 'passed', reason: null } });
    expect(stale()).toEqual(['funding/deposits', 'wallet/list/all', 'wallet/list/coin']);
  });

  it('a withdrawal: its records, that one withdrawal, the withdraw limits and the balances', () => {
    const { events, stale } = setup();
    events.next({ kind: 'withdrawal', data: { id: 3, state: 'rejected', reason: 'x' } });
    expect(stale()).toEqual([
      'funding/withdrawals/list',
      'funding/withdrawals/detail/3',
      'funding/withdrawInfo/USDT',
      'wallet/list/all',
      'wallet/list/coin',
    ]);
  });

  it('a reconnect: everything events keep current; nothing after stop', () => {
    const { state, stale, stop, events } = setup();
    state.next('connected');
    expect(stale()).toEqual([
      'identity/realName',
      'funding/deposits',
      'funding/withdrawals/list',
      'funding/withdrawals/detail/3',
      'funding/withdrawals/detail/4',
      'funding/withdrawInfo/USDT',
      'wallet/list/all',
      'wallet/list/coin',
    ]);
    stop();
    events.next({ kind: 'deposit', data: { id: 1, state: 'passed', reason: null } });
  });

  it('ignores malformed events', () => {
    const { events, stale } = setup();
    events.next({ kind: 'withdrawal', data: { id: 'x' } });
    events.next('junk');
    expect(stale()).toEqual([]);
  });

  it('a fired price alert: hands it to the alerts notice (which refreshes the list), once', async () => {
    alertFired.mockClear();
    const { events, stale } = setup();
    const alert = { id: 7, symbol: 'BTC' };
    events.next({ kind: 'alert', data: alert });
    events.next({ kind: 'deposit', data: { id: 1, state: 'passed', reason: null } });
    await vi.waitFor(() => expect(alertFired).toHaveBeenCalledWith(alert));
    expect(alertFired).toHaveBeenCalledTimes(1);
    expect(stale()).toEqual(['funding/deposits', 'wallet/list/all', 'wallet/list/coin']);
  });
});
