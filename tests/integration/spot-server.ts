import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../../server/config';
import { isEntryPoint } from '../../server/entry';
import { closeOnSignals, startServer } from '../../server/main';
import { MarketFeed } from '../../server/market/feed';
import { INSTRUMENTS } from '../../server/market/instruments';
import { MarketSimulator } from '../../server/market/simulator';

/**
 * The real server (server/main.ts startServer) as a separate process, for the spot crash test:
 *   node --import tsx tests/integration/spot-server.ts '<SpotServerConfig as JSON>'
 * with DATA_DIR, PORT and INVITE_CODE in its environment like `npm start`. The market is the seeded simulator with a
 * fast step; its live start is given, so a restarted server continues the very same series of ticks and sequence
 * numbers (what the shared feed does for several processes: server/market/shared). Prints `listening <url>` once it
 * accepts requests.
 */

export interface SpotServerConfig {
  seed: string;
  /** Live start of the simulator, on the minute grid (the same for every start on one data dir). */
  liveStart: number;
  stepMs: number;
  symbols: string[];
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts the server as a child process; `onLine` gets each line it prints to stdout. */
export function startSpotServer(
  config: SpotServerConfig,
  env: Record<string, string>,
  onLine: (line: string) => void,
): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env };
  // One process is the whole cluster here: no shared market, no Redis leases.
  delete childEnv.REDIS_URL;
  delete childEnv.DATABASE_URL;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'spot-server.ts'), JSON.stringify(config)],
    {
      cwd: path.join(here, '../..'),
      env: childEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  return child;
}

async function main(config: SpotServerConfig): Promise<void> {
  const simulator = new MarketSimulator({
    seed: config.seed,
    liveStart: config.liveStart,
    stepMs: config.stepMs,
    backfillDays: 0,
    alwaysOpen: true,
    instruments: INSTRUMENTS.filter((i) => config.symbols.includes(i.symbol)),
    maxCatchUpSteps: Number.POSITIVE_INFINITY,
  });
  // Silently up to now (no listener yet): a restarted server goes on with the next ticks of the same series, with
  // the next sequence numbers, and the ticks of the time it was down are never published (the feed was down).
  simulator.advanceTo(Date.now());
  const server = await startServer(readConfig(), {
    market: { feed: new MarketFeed(simulator) },
    hashCost: { memoryCost: 256, timeCost: 1 },
    staticDir: false,
    limits: {
      codePerIp: { max: 100_000, windowMs: 3_600_000 },
      loginPerIp: { max: 100_000, windowMs: 3_600_000 },
    },
  });
  closeOnSignals(server.close);
  process.stdout.write(`listening ${server.url}\n`);
}

if (isEntryPoint(import.meta.url)) await main(JSON.parse(process.argv[2] ?? '{}') as SpotServerConfig);
