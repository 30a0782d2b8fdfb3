import type { Kysely } from 'kysely';
import { readConfig } from '../config';
import { accountOps } from '../domains/account';
import { bankCardOps } from '../domains/bank-cards';
import { fundingOps } from '../domains/funding';
import { identityOps } from '../domains/identity';
import { isEntryPoint } from '../entry';
import { ledgerOps } from '../ledger';
import { migrateToLatest } from '../migrations';
import { auditOps } from '../platform/audit';
import { openDatabase } from '../platform/db/connect';
import type { Database } from '../platform/db/schema';
import { type OpsCommand, type Out, runCommandLine } from '../platform/ops/commands';

/** `npm run ops -- <command>`: operator tasks against the configured database (same env as the server). */

/** Every module's operator commands, in the order the help lists them. */
export const COMMANDS: readonly OpsCommand[] = [
  ...accountOps,
  ...ledgerOps,
  ...identityOps,
  auditOps,
  ...fundingOps,
  ...bankCardOps,
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
    code = await runOps(process.argv.slice(2), database.db, (line) => console.log(line), config.inviteCode);
  } finally {
    await database.db.destroy();
  }
  process.exit(code);
}
