import type { Kysely } from 'kysely';
import { readConfig } from '../config';
import { DOMAINS } from '../domains';
import { opsCommands } from '../domains/compose';
import { isEntryPoint } from '../entry';
import { loadCurrencies } from '../ledger';
import { loadListedCoins } from '../market';
import { migrateToLatest } from '../migrations';
import { openDatabase } from '../platform/db/connect';
import type { Database } from '../platform/db/schema';
import { type OpsCommand, type Out, runCommandLine } from '../platform/ops/commands';
import { runDemo } from './demo';

/** `npm run ops -- <command>`: operator tasks against the configured database (same env as the server). */

/** Listed in the help; run by the entry point below (it needs the configuration, not only the database). */
const demoHelp: OpsCommand = {
  name: 'demo',
  help: [['demo', 'create (or reuse) a verified demo user with 10,000 USDT and print its login']],
  run: async (_words, { out }) => {
    out('usage: npm run ops -- demo');
    return 2;
  },
};

/** Every domain's operator commands, in the order the help lists them. */
export const COMMANDS: readonly OpsCommand[] = [...opsCommands(DOMAINS), demoHelp];

const FOOTER = 'The database is DATABASE_URL when set, else DATA_DIR/app.db (DATA_DIR defaults to ./data).';

/** Runs one command line and returns the process exit code; `out` receives the output lines. */
export function runOps(args: readonly string[], db: Kysely<Database>, out: Out, inviteCode?: string): Promise<number> {
  return runCommandLine(COMMANDS, args, { db, out, inviteCode }, FOOTER);
}

if (isEntryPoint(import.meta.url)) {
  const config = readConfig();
  const database = openDatabase(config);
  let code = 1;
  try {
    await migrateToLatest(database);
    // Listed coins (IEO listings) are instruments and ledger currencies: the commands must know them as the server does.
    await loadListedCoins(database.db);
    await loadCurrencies(database.db);
    const args = process.argv.slice(2);
    const out = (line: string) => console.log(line);
    // `demo` runs the app in this process (it goes through the /api doors), so it needs the whole configuration.
    code =
      args[0] === 'demo' && args.length === 1
        ? await runDemo(config, database, out)
        : await runOps(args, database.db, out, config.inviteCode);
  } finally {
    await database.db.destroy();
  }
  process.exit(code);
}
