import { BehaviorSubject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionState } from '../../streams/socket';
import { connectionProblem, currentProblem, followConnection, type SocketStatus } from './connection';

/** A socket whose state the test sets, shaped like streams/socket.ts's. */
function fakeSocket(initial: ConnectionState) {
  const state = new BehaviorSubject<ConnectionState>(initial);
  const socket: SocketStatus = {
    state$: state.asObservable(),
    get connectionState() {
      return state.value;
    },
  };
  return { socket, set: (s: ConnectionState) => state.next(s) };
}

describe('the offline state', () => {
  it('is offline without network, unreachable while the socket retries, and nothing otherwise', () => {
    expect(connectionProblem(false, 'connected')).toBe('offline');
    expect(connectionProblem(false, 'reconnecting')).toBe('offline');
    expect(connectionProblem(true, 'reconnecting')).toBe('unreachable');
    // The first attempt (or a login's reconnect) has not failed yet.
    expect(connectionProblem(true, 'connecting')).toBeNull();
    expect(connectionProblem(true, 'connected')).toBeNull();
    expect(connectionProblem(true, 'closed')).toBeNull();
  });

  it("follows the socket's state and the browser's online and offline events, until it stops", () => {
    const { socket, set } = fakeSocket('connected');
    const online = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(true);
    const seen: (string | null)[] = [];
    const stop = followConnection(window, socket, () => seen.push(currentProblem(window, socket)));
    seen.length = 0; // the subscription's first call reports the state it started in

    set('reconnecting');
    set('connected');
    online.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(seen).toEqual(['unreachable', null, 'offline', null]);

    stop();
    set('reconnecting');
    window.dispatchEvent(new Event('offline'));
    expect(seen).toHaveLength(4);
    online.mockRestore();
  });
});
