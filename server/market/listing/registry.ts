import type { Instrument } from '../instrument';

/** A coin listed while the market runs, and when (ms): the simulator starts its walk at its listing price then. */
export interface ListedInstrument {
  instrument: Instrument;
  listedAt: number;
}

export type ListingListener = (listed: ListedInstrument) => void;

/**
 * The coins listed at run time that one process knows, beside the static INSTRUMENTS. The `listed_coins` table is
 * the truth (listCoin writes it, every process loads it at start and polls it, see coins.ts and watcher.ts); this
 * is what the synchronous lookups read: instrumentBySymbol and the running feed. Listeners hear of each coin once,
 * when it is registered.
 */
export class InstrumentListings {
  private readonly bySymbol = new Map<string, ListedInstrument>();
  private readonly listeners = new Set<ListingListener>();

  /** `isStatic`: a symbol of the static list (never listable: its id, scales and history are fixed). */
  constructor(private readonly isStatic: (symbol: string) => boolean) {}

  /**
   * Makes `instrument` known from `listedAt` on and tells the listeners; false when it was known already. Throws
   * for a static symbol, and for a symbol or id known with another instrument (two rows cannot say different things
   * about one coin; the table's unique keys keep that from happening across processes).
   */
  register(instrument: Instrument, listedAt: number): boolean {
    if (this.isStatic(instrument.symbol)) throw new Error(`${instrument.symbol} is a static instrument`);
    const known = this.bySymbol.get(instrument.symbol);
    if (known) {
      if (known.instrument.id !== instrument.id) {
        throw new Error(`${instrument.symbol} is listed already with id ${known.instrument.id}, not ${instrument.id}`);
      }
      return false;
    }
    for (const other of this.bySymbol.values()) {
      if (other.instrument.id === instrument.id) {
        throw new Error(`instrument id ${instrument.id} belongs to ${other.instrument.symbol}`);
      }
    }
    const listed: ListedInstrument = { instrument, listedAt };
    this.bySymbol.set(instrument.symbol, listed);
    // Every listener hears of it even when one fails (a feed must not miss a coin because the ledger threw).
    let failure: unknown;
    for (const listener of [...this.listeners]) {
      try {
        listener(listed);
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
    return true;
  }

  get(symbol: string): ListedInstrument | undefined {
    return this.bySymbol.get(symbol);
  }

  /** Every listed coin, in id order (the order they were listed in). */
  all(): ListedInstrument[] {
    return [...this.bySymbol.values()].sort((a, b) => a.instrument.id - b.instrument.id);
  }

  /** Hears of every coin registered from now on; returns the unsubscribe function. */
  onListed(listener: ListingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
