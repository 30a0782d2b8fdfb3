import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { Job } from '../../platform/jobs/runner';
import type { MarketFeed } from '../feed';
import { listings } from '../instruments';
import { loadListedCoins } from './coins';
import type { InstrumentListings, ListedInstrument } from './registry';

/** How often a process looks for coins listed by another one: a new coin reaches its quotes within this. */
export const LISTINGS_POLL_MS = 2_000;

export interface ListingWatcherOptions {
  /** This process's listed coins (default the module's `listings`; a test gives a second process its own). */
  registry?: InstrumentListings;
  everyMs?: number;
}

/**
 * Keeps a running feed serving every listed coin: the ones its process knows when it starts, each one listed in
 * this process afterwards (listCoin registers it; the feed adds it at once), and, through its job, the ones other
 * processes list (the `listed_coins` table, polled). The feed's source walks each from its listing time on.
 */
export class ListingWatcher {
  private readonly registry: InstrumentListings;
  private readonly unsubscribe: () => void;
  readonly everyMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly feed: MarketFeed,
    options: ListingWatcherOptions = {},
  ) {
    this.registry = options.registry ?? listings;
    this.everyMs = options.everyMs ?? LISTINGS_POLL_MS;
    this.unsubscribe = this.registry.onListed((listed) => this.serve(listed));
    for (const listed of this.registry.all()) this.serve(listed);
  }

  /** Every process polls for itself (its own feed and registry): a `process` job. */
  job(): Job {
    return { name: 'market-listings', scope: 'process', everyMs: this.everyMs, run: () => this.poll() };
  }

  /**
   * Registers the table's coins this process does not know yet (the registry's listener adds each to the feed), then
   * makes sure the feed has every coin the registry knows: one that a failed listener left out gets in here.
   */
  async poll(): Promise<void> {
    await loadListedCoins(this.db, this.registry);
    for (const listed of this.registry.all()) this.serve(listed);
  }

  close(): void {
    this.unsubscribe();
  }

  private serve({ instrument, listedAt }: ListedInstrument): void {
    this.feed.addInstrument(instrument, listedAt);
  }
}
