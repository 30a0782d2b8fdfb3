import { Observable, type OperatorFunction } from 'rxjs';

export type FrameRequest = (callback: () => void) => number;
export type FrameCancel = (handle: number) => void;

const browserFrame: FrameRequest = (callback) => requestAnimationFrame(() => callback());
const browserCancel: FrameCancel = (handle) => cancelAnimationFrame(handle);

/**
 * At most one value per animation frame: the newest one. A view fed through this renders once a frame however
 * fast prices arrive (DESIGN "Realtime"), and a hidden tab, whose frames stop, renders nothing at all.
 */
export function latestPerFrame<T>(
  request: FrameRequest = browserFrame,
  cancel: FrameCancel = browserCancel,
): OperatorFunction<T, T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let pending: { value: T } | undefined;
      let handle: number | undefined;
      const flush = () => {
        handle = undefined;
        if (!pending) return;
        const { value } = pending;
        pending = undefined;
        subscriber.next(value);
      };
      const sub = source.subscribe({
        next(value) {
          pending = { value };
          handle ??= request(flush);
        },
        error(err: unknown) {
          subscriber.error(err);
        },
        complete() {
          flush();
          subscriber.complete();
        },
      });
      return () => {
        sub.unsubscribe();
        if (handle !== undefined) cancel(handle);
      };
    });
}
