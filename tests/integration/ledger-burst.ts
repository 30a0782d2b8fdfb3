import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntryPoint } from '../../server/entry';
import { isLedgerError } from '../../server/ledger/errors';
import { Ledger } from '../../server/ledger/ledger';
import { type DatabaseHandle, openPostgres, openSqlite } from '../../server/platform/db/connect';

/**
 * A separate process that hammers the ledger, for the crash and cross-process tests:
 *   node --import tsx tests/integration/ledger-burst.ts '<BurstConfig as JSON>'
 * Prints one line per request only after the ledger returned (so after its commit): `ack <requestId>` or
 * `refused <requestId> <key>`. Writes to a pipe are synchronous on Linux, so a printed ack was really sent.
 * Tests start it with `startBurst`.
 */

export interface BurstConfig {
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };
  userId: number;
  prefix: string;
  amount: number;
  /**
   * `drain`: `count` transfers coin -> option, all started at once, then exit.
   * `pingpong`: transfers coin -> option -> coin ... one after another, `count` of them or (0) until killed.
   */
  mode: 'drain' | 'pingpong';
  count: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Starts the script as a child process; `onLine` gets each output line as it arrives. */
export function startBurst(config: BurstConfig, onLine: (line: string) => void): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'ledger-burst.ts'), JSON.stringify(config)],
    {
      cwd: path.join(here, '../..'),
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

/** Runs the script to its end; resolves with its output lines (rejects when it fails). */
export function runBurst(config: BurstConfig): Promise<string[]> {
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const child = startBurst(config, (line) => lines.push(line));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(lines) : reject(new Error(`ledger burst exited with ${code}`))));
  });
}

function open(database: BurstConfig['database']): DatabaseHandle {
  if (database.kind === 'sqlite') return openSqlite(database.file);
  return openPostgres({ connectionString: database.url, options: `-c search_path=${database.schema}`, max: 4 });
}

async function main(config: BurstConfig): Promise<void> {
  const handle = open(config.database);
  const ledger = new Ledger(handle);
  const transfer = async (requestId: string, from: 'coin' | 'option', to: 'coin' | 'option') => {
    try {
      await ledger.transfer({ userId: config.userId, requestId, currency: 'USDT', amount: config.amount, from, to });
      process.stdout.write(`ack ${requestId}\n`);
    } catch (err) {
      if (!isLedgerError(err)) throw err;
      process.stdout.write(`refused ${requestId} ${err.key}\n`);
    }
  };
  if (config.mode === 'drain') {
    await Promise.all(
      Array.from({ length: config.count }, (_, i) => transfer(`${config.prefix}${i}`, 'coin', 'option')),
    );
  } else {
    for (let i = 0; config.count === 0 || i < config.count; i++) {
      await transfer(`${config.prefix}${i}`, i % 2 === 0 ? 'coin' : 'option', i % 2 === 0 ? 'option' : 'coin');
    }
  }
  await handle.db.destroy();
}

if (isEntryPoint(import.meta.url)) await main(JSON.parse(process.argv[2] ?? '{}') as BurstConfig);
