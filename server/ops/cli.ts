import type { Kysely } from 'kysely';
import { readConfig } from '../config';
import { ensurePlatformInviteCode } from '../domains/account';
import {
  runDepositAddressCommand,
  runDepositBankCommand,
  runDepositsCommand,
  runFeesCommand,
  runWithdrawalsCommand,
} from '../domains/funding';
import { runKycCommand, runUploadsCommand } from '../domains/identity';
import { isEntryPoint } from '../entry';
import { checkLedger, describeProblems, describeTotals } from '../ledger';
import { migrateToLatest } from '../migrations';
import { runAuditCommand } from '../platform/audit';
import { openDatabase } from '../platform/db/connect';
import type { Database } from '../platform/db/schema';
import { Sessions } from '../platform/security/sessions';

/** `npm run ops -- <command>`: operator tasks against the configured database (same env as the server). */

const HELP = `usage: npm run ops -- <command>

commands:
  invite                              print the platform invite code
  codes [address]                     latest verification codes from the outbox (all, or one
                                      e-mail / phone such as +4915112345678)
  sessions revoke <userId|username>   end every session of a user
  ledger check                        recompute every balance from the postings and every held
                                      amount from the open holds; exit 1 on any difference
  kyc list                            identity verifications waiting for review
  kyc approve <id>                    approve one (the user sees it live)
  kyc reject <id> <reason...>         reject one with a reason shown to the user
  uploads path <id>                   where an uploaded image is stored
  audit [count]                       the newest operator actions (append-only log)
  deposits list                       deposits waiting for review
  deposits approve <id>               credit one to the user's coin account (seen live)
  deposits reject <id> <reason...>    reject one with a reason shown to the user
  withdrawals list                    withdrawals waiting for review
  withdrawals approve <id>            pay one out (frozen amount and fee leave the account)
  withdrawals reject <id> <reason...> reject one; the frozen amount is released
  deposit-address list | set <coin> <chain> <address>
                                      the platform's receiving address per coin and chain
  deposit-bank show | set <details...>
                                      the bank details shown for bank-transfer deposits
  fees list | set <coin> <min_deposit> <min_withdraw> <withdraw_fee>
                                      per-coin minimums and withdrawal fee
  help                                this text

The database is DATABASE_URL when set, else \${DATA_DIR:-./data}/app.db.`;

type Out = (line: string) => void;

async function printCodes(db: Kysely<Database>, address: string | undefined, out: Out): Promise<void> {
  let query = db.selectFrom('code_outbox').selectAll().orderBy('id', 'desc').limit(20);
  if (address) query = query.where('address', '=', address.includes('@') ? address.toLowerCase() : address);
  const rows = await query.execute();
  if (rows.length === 0) out('no codes in the outbox');
  for (const row of rows) {
    out(
      `${new Date(row.created_at).toISOString()}  ${row.code}  ${row.scene.padEnd(8)}  ${row.channel.padEnd(5)}  ${row.address}`,
    );
  }
}

async function revokeSessions(db: Kysely<Database>, who: string | undefined, out: Out): Promise<number> {
  if (!who) {
    out('usage: npm run ops -- sessions revoke <userId|username>');
    return 2;
  }
  const user = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where(/^\d+$/.test(who) ? 'id' : 'username', '=', /^\d+$/.test(who) ? Number(who) : who.toLowerCase())
    .executeTakeFirst();
  if (!user) {
    out(`no user ${who}`);
    return 1;
  }
  const revoked = await new Sessions(db, Date.now).revokeAll(user.id);
  out(`revoked ${revoked} session(s) of user ${user.id} (${user.username})`);
  return 0;
}

async function checkLedgerCommand(db: Kysely<Database>, out: Out): Promise<number> {
  const started = performance.now();
  const report = await checkLedger(db);
  const elapsed = Math.ceil(performance.now() - started);
  out(
    `ledger: ${report.accounts} accounts, ${report.postings} postings, ${report.openHolds} open holds (checked in ${elapsed} ms)`,
  );
  for (const line of describeTotals(report)) out(line);
  const problems = describeProblems(report);
  if (problems.length === 0) {
    out('consistent: balances match postings, held amounts match open holds, every currency sums to zero');
    return 0;
  }
  out(`${problems.length} problem(s):`);
  for (const problem of problems) out(`  ${problem}`);
  return 1;
}

/** Runs one command and returns the process exit code; `out` receives the output lines. */
export async function runOps(
  args: readonly string[],
  db: Kysely<Database>,
  out: Out,
  inviteCode?: string,
): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'invite':
      out(await ensurePlatformInviteCode(db, inviteCode));
      return 0;
    case 'codes':
      await printCodes(db, rest[0], out);
      return 0;
    case 'sessions':
      if (rest[0] === 'revoke') return revokeSessions(db, rest[1], out);
      out(HELP);
      return 2;
    case 'kyc':
      return runKycCommand(rest, db, out);
    case 'uploads':
      return runUploadsCommand(rest, db, out);
    case 'audit':
      return runAuditCommand(rest, db, out);
    case 'deposits':
      return runDepositsCommand(rest, db, out);
    case 'withdrawals':
      return runWithdrawalsCommand(rest, db, out);
    case 'deposit-address':
      return runDepositAddressCommand(rest, db, out);
    case 'deposit-bank':
      return runDepositBankCommand(rest, db, out);
    case 'fees':
      return runFeesCommand(rest, db, out);
    case 'ledger':
      if (rest[0] === 'check') return checkLedgerCommand(db, out);
      out(HELP);
      return 2;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out(HELP);
      return 0;
    default:
      out(`unknown command: ${command}\n\n${HELP}`);
      return 2;
  }
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
