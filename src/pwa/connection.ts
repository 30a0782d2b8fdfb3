import type { ConnectionState, RealtimeSocket } from '../../streams/socket';

/**
 * What the shell says about the connection (issue 15 "a clear offline state"): the device has no network
 * (`offline`), or it has but the server does not answer (`unreachable`: the tab's socket is retrying, which is also
 * what a shell started by the service worker while the server is down sees). The socket is the app's line to the
 * server for everything live, and it already retries with backoff, so its state is the judge, not extra probes.
 */
export type ConnectionProblem = 'offline' | 'unreachable' | null;

/** The part of the tab's socket (streams/socket.ts) the banner follows. */
export type SocketStatus = Pick<RealtimeSocket, 'state$' | 'connectionState'>;

export function connectionProblem(online: boolean, socket: ConnectionState): ConnectionProblem {
  if (!online) return 'offline';
  // 'connecting' is the first attempt (or a login's reconnect): nothing has failed yet.
  return socket === 'reconnecting' ? 'unreachable' : null;
}

/** The problem now: the browser's `navigator.onLine` and the socket's state. */
export const currentProblem = (win: Window, socket: SocketStatus): ConnectionProblem =>
  connectionProblem(win.navigator.onLine, socket.connectionState);

/**
 * Calls `changed` when either source may have changed (the browser's online/offline events, the socket's state).
 * Plain listeners rather than RxJS combinators: this runs in the shell every route loads, where each operator counts.
 */
export function followConnection(win: Window, socket: SocketStatus, changed: () => void): () => void {
  const subscription = socket.state$.subscribe(() => changed());
  win.addEventListener('online', changed);
  win.addEventListener('offline', changed);
  return () => {
    subscription.unsubscribe();
    win.removeEventListener('online', changed);
    win.removeEventListener('offline', changed);
  };
}
