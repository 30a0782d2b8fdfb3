import { Observable, type OperatorFunction } from 'rxjs';

export type FrameRequest = (callback: () => void) => number;
export type FrameCancel = (handle: number) => void;

/**
 * The app's one frame loop (DESIGN "Realtime"): every live view (streams through latestPerFrame, the quote cells'
 * writer, the positions' figures) asks it for the next frame, and it asks the browser once. Everything due runs in
 * one animation-frame callback, in the order asked, so a frame's writes land together and there is one rAF per
 * frame however many views are live. A callback asked for while the frame runs waits for the next one.
 */
/** The browser's report of an uncaught error (the console and the error event), where there is one. */
const reportUncaught = (error: unknown): void =>
  typeof globalThis.reportError === 'function' ? globalThis.reportError(error) : console.error(error);

export function createFrameLoop(
  reportFrameError: (error: unknown) => void = reportUncaught,
  browserRequest: (run: () => void) => number = (run) => requestAnimationFrame(() => run()),
  browserCancel: (handle: number) => void = (handle) => cancelAnimationFrame(handle),
): { nextFrame: FrameRequest; cancelFrame: FrameCancel } {
  const due = new Map<number, () => void>();
  let lastHandle = 0;
  let asked: number | undefined;
  const run = () => {
    asked = undefined;
    const callbacks = [...due.values()];
    due.clear();
    for (const callback of callbacks) {
      // One view's failure stays its own: the others of this frame still run, and each keeps asking for frames
      // (a view whose callback never ran would hold its handle and never ask again). The error is reported, not lost.
      try {
        callback();
      } catch (error) {
        reportFrameError(error);
      }
    }
  };
  return {
    nextFrame(callback) {
      lastHandle += 1;
      due.set(lastHandle, callback);
      asked ??= browserRequest(run);
      return lastHandle;
    },
    cancelFrame(handle) {
      due.delete(handle);
      if (due.size === 0 && asked !== undefined) {
        browserCancel(asked);
        asked = undefined;
      }
    },
  };
}

const appLoop = createFrameLoop();
/** The next frame of the app's one loop. */
export const nextFrame: FrameRequest = appLoop.nextFrame;
export const cancelFrame: FrameCancel = appLoop.cancelFrame;

/**
 * At most one value per animation frame: the newest one. A view fed through this renders once a frame however
 * fast prices arrive (DESIGN "Realtime"), and a hidden tab, whose frames stop, renders nothing at all.
 */
export function latestPerFrame<T>(
  request: FrameRequest = nextFrame,
  cancel: FrameCancel = cancelFrame,
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
