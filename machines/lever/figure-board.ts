import type { LeverAccount } from '../../protocol/lever';
import { cancelFrame, type FrameCancel, type FrameRequest, nextFrame } from '../../streams/frame';
import type { BookTotals, PositionFigures, PositionsUpdate } from '../../workers/lever/positions';

type Listener = () => void;

/**
 * The worker's figures of one book, published once per animation frame (DESIGN "Realtime"): however many worker
 * updates arrive within a frame, each row's listener is told once, at the frame, and only when its own figures
 * changed; what a row reads between frames is what was last published. A hidden tab, whose frames stop, publishes
 * nothing (and so renders nothing) until it is shown again.
 */
export class FigureBoard {
  private readonly published = new Map<number, PositionFigures>();
  /** Changes since the last frame: new figures, or null for a position gone. */
  private readonly pending = new Map<number, PositionFigures | null>();
  private pendingTotals: BookTotals | null = null;
  private totals: BookTotals | null = null;
  private readonly listeners = new Map<number, Set<Listener>>();
  private readonly totalsListeners = new Set<Listener>();
  private handle: number | undefined;
  private disposed = false;

  constructor(
    readonly account: LeverAccount,
    private readonly request: FrameRequest = nextFrame,
    private readonly cancel: FrameCancel = cancelFrame,
  ) {}

  /** One worker answer, applied in the order they come (the worker answers calls in the order they are made). */
  apply(update: PositionsUpdate): void {
    if (this.disposed) return;
    for (const figures of update.changed) if (figures.account === this.account) this.pending.set(figures.id, figures);
    for (const id of update.removed) this.pending.set(id, null);
    this.pendingTotals = update.totals[this.account];
    this.handle ??= this.request(this.flush);
  }

  get(id: number): PositionFigures | undefined {
    return this.published.get(id);
  }

  getTotals(): BookTotals | null {
    return this.totals;
  }

  subscribe(id: number, listener: Listener): () => void {
    let set = this.listeners.get(id);
    if (!set) {
      set = new Set();
      this.listeners.set(id, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(id);
    };
  }

  subscribeTotals(listener: Listener): () => void {
    this.totalsListeners.add(listener);
    return () => this.totalsListeners.delete(listener);
  }

  dispose(): void {
    this.disposed = true;
    if (this.handle !== undefined) this.cancel(this.handle);
    this.handle = undefined;
  }

  private readonly flush = (): void => {
    this.handle = undefined;
    const told: Listener[] = [];
    for (const [id, figures] of this.pending) {
      if (figures === null) this.published.delete(id);
      else this.published.set(id, figures);
      for (const listener of this.listeners.get(id) ?? []) told.push(listener);
    }
    this.pending.clear();
    if (this.pendingTotals !== null && this.pendingTotals !== this.totals) {
      this.totals = this.pendingTotals;
      for (const listener of this.totalsListeners) told.push(listener);
    }
    this.pendingTotals = null;
    // Listeners run after the board is consistent: a row reading a neighbour's figures sees this frame's.
    for (const listener of told) listener();
  };
}
