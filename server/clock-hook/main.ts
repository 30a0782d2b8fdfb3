import { readConfig } from '../config';
import { isEntryPoint } from '../entry';
import { closeOnSignals, createPriceSource, type ServerWiring, startServer } from '../main';
import { MarketFeed, type MarketSimulator } from '../market';
import { LocalLeases } from '../platform/jobs/leases';
import { ClockHook, HookClock, listenForClockRequests, WatchedLeases } from './hook';

/**
 * The server under the clock hook (CLOCK_HOOK=1, browser tests only; hook.ts): one controllable clock for the app, the
 * job leases, the simulator and the feed, which the driving process moves over IPC. The answers wait for these jobs.
 * An entry of its own, so the production server (main.ts) never imports the hook.
 */

const HOOK_ENGINES = ['options-engine', 'lever-engine', 'spot-engine'];
const HOOK_RECORDER = 'price-record';

/** The wiring of the hook into startServer; `simulator()` is the hooked market's once startServer has built it. */
export function clockHookWiring(): ServerWiring {
  const clock = new HookClock();
  const leases = new WatchedLeases(new LocalLeases(clock.now));
  let simulator: MarketSimulator | undefined;
  return {
    now: clock.now,
    leases,
    market(settings, logger, startSeqs) {
      // One process with its own simulator: a live market has times the hook cannot move.
      if (settings.live) throw new Error('CLOCK_HOOK=1 needs the embedded simulator (MARKET_SOURCE=simulator)');
      // The simulator steps on the market's time, the feed reads the server's.
      const created = createPriceSource(settings, logger, { now: clock.marketNow }, startSeqs);
      simulator = created.simulator;
      return new MarketFeed(created.source, clock.now);
    },
    built(app) {
      // Node stamps every answer's Date header with the real time, and clients read it as the server's time
      // (core/clock.ts): under the hook it must be the hook's time, or a client's samples contradict each other.
      app.server.prependListener('request', (_req, res) => res.setHeader('date', new Date(clock.now()).toUTCString()));
    },
    started(app) {
      if (!simulator) throw new Error('the clock hook needs the market it builds (no market override)');
      const hook = new ClockHook({ clock, market: simulator, leases, engines: HOOK_ENGINES, recorder: HOOK_RECORDER });
      const listening = listenForClockRequests(hook);
      app.log.warn(
        `CLOCK_HOOK=1: the server's clock and market are moved by the process that started it${listening ? '' : ' (no IPC channel: nothing can move them)'}; for tests only, never in production`,
      );
    },
  };
}

if (isEntryPoint(import.meta.url)) {
  const config = readConfig();
  // One process: a shared market (REDIS_URL) has times the hook cannot move.
  if (!config.clockHook || config.redisUrl) {
    throw new Error('server/clock-hook/main.ts needs CLOCK_HOOK=1 and no REDIS_URL (one process, embedded simulator)');
  }
  const server = await startServer(config, {}, clockHookWiring());
  closeOnSignals(server.close);
}
