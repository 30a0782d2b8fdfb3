import type { Kysely } from 'kysely';
import { readConfig } from '../config';
import { accountOps } from '../domains/account';
import { bankCardOps } from '../domains/bank-cards';
import { c2cOps, c2cSealedData } from '../domains/c2c';
import { chatOps } from '../domains/chat';
import { financeOps } from '../domains/finance';
import { fundingOps } from '../domains/funding';
import { helpOps } from '../domains/help';
import { identityOps } from '../domains/identity';
import { ieoOps } from '../domains/ieo';
import { leverOps } from '../domains/lever';
import { marketOps } from '../domains/market';
import { newsOps } from '../domains/news';
import { operatorOps, operatorSealedData } from '../domains/operators';
import { optionOps } from '../domains/options';
import { pollOps } from '../domains/polls';
import { referralOps } from '../domains/referral';
import { spotFeesOps } from '../domains/spot';
import { isEntryPoint } from '../entry';
import { ledgerOps } from '../ledger';
import { loadListedCoins } from '../market';
import { migrateToLatest } from '../migrations';
import { auditOps } from '../platform/audit';
import { openDatabase } from '../platform/db/connect';
import type { Database } from '../platform/db/schema';
import { type OpsCommand, type Out, runCommandLine } from '../platform/ops/commands';
import { runDemo } from './demo';

/** `npm run ops -- <command>`: operator tasks against the configured database (same env as the server). */

/**
 * Commands that two modules share a name of: `fees` lists and sets the funding fees (per coin) and, as `fees spot`,
 * the spot trading terms.
 */
function shared(name: string, parts: readonly { word: string | null; command: OpsCommand }[]): OpsCommand {
  return {
    name,
    help: parts.flatMap((p) => p.command.help),
    run: (words, ctx) => {
      const part = parts.find((p) => p.word === words[0]) ?? parts.find((p) => p.word === null);
      if (!part) return Promise.resolve(2);
      return part.command.run(part.word === null ? words : words.slice(1), ctx);
    },
  };
}

/** Listed in the help; run by the entry point below (it needs the configuration, not only the database). */
const demoHelp: OpsCommand = {
  name: 'demo',
  help: [['demo', 'create (or reuse) a verified demo user with 10,000 USDT and print its login']],
  run: async (_words, { out }) => {
    out('usage: npm run ops -- demo');
    return 2;
  },
};

const fundingFees = fundingOps.find((c) => c.name === 'fees');

/** Every module's operator commands, in the order the help lists them. */
export const COMMANDS: readonly OpsCommand[] = [
  ...accountOps,
  ...ledgerOps,
  ...identityOps,
  auditOps,
  ...fundingOps.filter((c) => c !== fundingFees),
  shared('fees', [
    ...(fundingFees ? [{ word: null, command: fundingFees }] : []),
    { word: 'spot', command: spotFeesOps },
  ]),
  ...bankCardOps([c2cSealedData, operatorSealedData]),
  ...marketOps,
  ...optionOps,
  ...leverOps,
  ...financeOps,
  ...ieoOps,
  ...c2cOps,
  ...helpOps,
  ...newsOps,
  ...pollOps,
  ...chatOps,
  ...referralOps,
  ...operatorOps,
  demoHelp,
];

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
    // Listed coins (IEO listings) are ledger currencies too: the commands must know them as the server does.
    await loadListedCoins(database.db);
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
