import { describe, expect, it } from 'vitest';
import type { Ledger } from '../ledger';
import type { TickListener } from '../market';
import type { DatabaseHandle } from '../platform/db/connect';
import { EngineLoop } from './engine-loop';
import type { EngineTick } from './tick-window';

/** A feed the test plays ticks on. */
function fakeFeed() {
  const listeners = new Set<TickListener>();
  return {
    listeners,
    onTick: (listener: TickListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A product that writes down what the loop calls it for; `work: false` makes its ticks call for nothing. */
class Recorder extends EngineLoop {
  readonly calls: string[] = [];
  readonly errors: unknown[] = [];
  work = true;
  failRound = false;

  constructor(readonly feed = fakeFeed()) {
    super(
      { name: 'test-engine', instrument: (symbol) => (symbol === 'BTC' ? { priceScale: 2 } : undefined) },
      // The loop itself writes nothing: the database and the ledger are the product's.
      { database: {} as DatabaseHandle, ledger: {} as Ledger, feed, onError: (err) => this.errors.push(err) },
    );
  }

  get isLeading(): boolean {
    return this.leading;
  }

  firstAfter(symbol: string, ts: number): EngineTick | undefined {
    return this.window.firstAfter(symbol, ts);
  }

  queue(work: () => Promise<void>): void {
    this.enqueue(work);
  }

  tick(seq: number, symbol = 'BTC'): void {
    for (const l of this.feed.listeners)
      l({ symbol, instrumentId: 1, ts: seq * 1_000, price: 12_345, qty: 1, side: 'buy', seq });
  }

  run(leading: boolean): Promise<void> | void {
    return this.job().run({ leading, stillLeading: () => leading });
  }

  protected tickWork(tick: EngineTick): (() => Promise<void>) | undefined {
    this.calls.push(`tick ${tick.seq} ${tick.price}`);
    if (!this.work) return undefined;
    return async () => {
      this.calls.push(`tick work ${tick.seq}`);
    };
  }

  protected async leadRound(): Promise<void> {
    this.calls.push('round');
    if (!this.failRound) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
    throw new Error('round failed');
  }

  protected forget(): void {
    this.calls.push('forget');
  }
}

describe('EngineLoop', () => {
  it('keeps every tick of its instruments in the window, leading or not, as decimal text and integer units', () => {
    const t = new Recorder();
    t.tick(1);
    t.tick(2, 'DOGE');
    expect(t.firstAfter('BTC', 0)).toEqual<EngineTick>({
      symbol: 'BTC',
      seq: 1,
      ts: 1_000,
      price: '123.45',
      units: 12_345n,
    });
    expect(t.firstAfter('DOGE', 0)).toBeUndefined();
    // Following: the product hears of no tick.
    expect(t.calls).toEqual([]);
  });

  it('takes the lead in the chain (forgetting first), calls ticks and rounds while leading, forgets on losing it', async () => {
    const t = new Recorder();
    expect(t.isLeading).toBe(false);
    await t.run(true);
    expect(t.isLeading).toBe(true);
    t.tick(1);
    await t.run(true);
    t.tick(2);
    t.run(false);
    expect(t.isLeading).toBe(false);
    t.tick(3);
    await t.idle();
    // Tick 2's work was queued while leading and still runs after the loss: the product's writes are conditional.
    expect(t.calls).toEqual([
      'forget',
      'round',
      'tick 1 123.45',
      'tick work 1',
      'round',
      'tick 2 123.45',
      'forget',
      'tick work 2',
    ]);
  });

  it('runs all work in one chain, in order, and goes on after a failure', async () => {
    const t = new Recorder();
    t.failRound = true;
    const round = t.run(true);
    t.queue(async () => {
      t.calls.push('after the round');
    });
    await round;
    await t.idle();
    expect(t.calls).toEqual(['forget', 'round', 'after the round']);
    expect(t.errors).toEqual([new Error('round failed')]);
  });

  it('queues nothing for a tick the product has no work for, and hears nothing after close', async () => {
    const t = new Recorder();
    t.work = false;
    await t.run(true);
    t.tick(1);
    await t.idle();
    t.close();
    expect(t.isLeading).toBe(false);
    expect(t.feed.listeners.size).toBe(0);
    expect(t.calls).toEqual(['forget', 'round', 'tick 1 123.45', 'forget']);
  });
});
