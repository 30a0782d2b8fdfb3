import type { Ledger } from '../ledger';
import type { MarketFeed } from '../market';
import type { DatabaseHandle } from '../platform/db/connect';
import type { Job } from '../platform/jobs/runner';
import type { EngineLoop, EngineOptions } from './engine-loop';

/** What a product engine is started from: the app's database, ledger, clock and log, and the feed if there is one. */
export interface EngineHost {
  database: DatabaseHandle;
  ledger: Ledger;
  feed: MarketFeed | undefined;
  now: () => number;
  log: { error(details: { err: unknown }, message: string): void };
}

/** A started engine: the cluster job that runs it and the stop for the app's close. */
export interface StartedEngine<E extends EngineLoop> {
  engine: E;
  jobs: readonly Job[];
  close: () => void;
}

/**
 * Starts a product's engine (spot, options, lever) the one way they all start: orders are accepted by every process,
 * the engine acts only where the job runner gives it its lease. Without a feed there are no ticks, so no engine
 * (undefined); `label` names its errors in the log; `create` adds what only its product needs (lever: the last price).
 */
export function startProductEngine<E extends EngineLoop>(
  host: EngineHost,
  label: string,
  create: (options: EngineOptions & { feed: MarketFeed }) => E,
): StartedEngine<E> | undefined {
  const { feed } = host;
  if (!feed) return undefined;
  const engine = create({
    database: host.database,
    ledger: host.ledger,
    feed,
    now: host.now,
    onError: (err) => host.log.error({ err }, label),
  });
  return { engine, jobs: [engine.job()], close: () => engine.close() };
}
