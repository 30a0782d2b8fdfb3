import * as Comlink from 'comlink';
import { type PositionsApi, PositionsCompute, type PositionsUpdate, positionsApi } from './positions-compute';

export type {
  BookTotals,
  CrossWallets,
  InstrumentScale,
  LiquidationWarning,
  MarkInput,
  PositionFigures,
  PositionsUpdate,
} from './positions-compute';
export { DANGER_LIQUIDATION_PERCENT, NEAR_LIQUIDATION_PERCENT } from './positions-compute';

/**
 * The positions worker as the app calls it: the same methods as positions-compute, each resolving with a
 * PositionsUpdate (only the positions whose figures changed, the ids gone, both books' totals). Calls are answered
 * in the order they are made, so a view can apply each update as it arrives.
 */
export type PositionsClient = {
  [K in keyof PositionsApi]: (...args: Parameters<PositionsApi[K]>) => Promise<PositionsUpdate>;
} & {
  /** Ends the worker; the client must not be called again. */
  dispose(): void;
};

/** Starts the worker. The `new Worker(new URL(...))` form is written literally: Vite only bundles it that way. */
export function createPositionsWorker(): PositionsClient {
  const worker = new Worker(new URL('./positions.worker.ts', import.meta.url), { type: 'module' });
  return connectPositions(worker, () => worker.terminate());
}

/**
 * A client over any Comlink endpoint (the worker, or a MessagePort in a test). The proxy is kept here for the
 * client's life: a dropped proxy can be collected and its calls lost.
 */
export function connectPositions(endpoint: Comlink.Endpoint, close: () => void = () => {}): PositionsClient {
  const remote = Comlink.wrap<PositionsApi>(endpoint);
  let disposed = false;
  return {
    setInstruments: (instruments, quoteScale) => remote.setInstruments(instruments, quoteScale),
    setWallets: (wallets) => remote.setWallets(wallets),
    setPositions: (positions) => remote.setPositions(positions),
    upsert: (position) => remote.upsert(position),
    remove: (ids) => remote.remove(ids),
    applyMarks: (marks) => remote.applyMarks(marks),
    snapshot: () => remote.snapshot(),
    dispose() {
      if (disposed) return;
      disposed = true;
      remote[Comlink.releaseProxy]();
      close();
    },
  };
}

/**
 * The same client on the calling thread (tests, or a browser without module workers). Results are cloned as
 * postMessage would clone them, so nothing the caller keeps is shared with the state behind it.
 */
export function createInThreadPositions(compute: PositionsCompute = new PositionsCompute()): PositionsClient {
  const api = positionsApi(compute);
  const call = async (result: () => PositionsUpdate) => structuredClone(result());
  return {
    setInstruments: (instruments, quoteScale) => call(() => api.setInstruments(instruments, quoteScale)),
    setWallets: (wallets) => call(() => api.setWallets(wallets)),
    setPositions: (positions) => call(() => api.setPositions(positions)),
    upsert: (position) => call(() => api.upsert(position)),
    remove: (ids) => call(() => api.remove(ids)),
    applyMarks: (marks) => call(() => api.applyMarks(marks)),
    snapshot: () => call(() => api.snapshot()),
    dispose() {},
  };
}
