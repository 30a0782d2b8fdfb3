import type { Kysely } from 'kysely';
import { OPS_ROLES } from '../../../protocol/ops-console';
import { readConfig } from '../../config';
import { handleOf } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import type { CommandOptions, OpsCommand, Out } from '../../platform/ops/commands';
import { PasswordHasher } from '../account';
import { assertDataKey, CardVault, DataKeyMismatchError, loadDataKey } from '../bank-cards';
import {
  createOperator,
  disableOperator,
  enableOperator,
  listOperators,
  type OperatorServices,
  parseRoles,
  resetOperatorTotp,
  setOperatorRoles,
} from './accounts';

/**
 * `npm run ops -- operators ...`: the support console's operator accounts. Every change is audited (the CLI's user,
 * OPS_OPERATOR or the OS user, is who made it). Passwords and TOTP secrets are printed once, when made, and never
 * again: the database keeps only the password's argon2 hash and the secret sealed under the data key.
 */

const USAGE = [
  'usage: npm run ops -- operators add <name> --roles <roles>   (OPS_PASSWORD, when set, is the password)',
  '       npm run ops -- operators list',
  '       npm run ops -- operators roles <name> <roles>',
  '       npm run ops -- operators disable <name> | enable <name>',
  '       npm run ops -- operators reset-totp <name>',
  `roles: a comma-separated list of ${OPS_ROLES.join(', ')} (admin may do everything)`,
];

const when = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString());

function printSecret(out: Out, name: string, secret: string, uri: string): void {
  out(`TOTP secret (base32): ${secret}`);
  out(`authenticator URI:    ${uri}`);
  out(
    `add it to ${name}'s authenticator app now (scan the URI as a QR code, or type the secret): it is not shown again`,
  );
}

/** Runs one `operators` command against `s`; returns the exit code. */
export async function runOperatorsCommand(
  words: readonly string[],
  options: CommandOptions,
  s: OperatorServices,
  out: Out,
  env: { password?: string | undefined } = {},
): Promise<number> {
  const [sub, name, rolesText, ...rest] = words;
  const usage = () => {
    for (const line of USAGE) out(line);
    return 2;
  };
  if (sub === 'list' && !name) {
    const rows = await listOperators(s.database.db);
    if (rows.length === 0) out('no operators yet: npm run ops -- operators add <name> --roles <roles>');
    for (const r of rows) {
      out(
        `${r.name.padEnd(20)} ${r.roles.join(',').padEnd(24)} ${r.disabled ? 'disabled' : 'active  '}  created ${when(r.createdAt)}  last login ${when(r.lastLoginAt)}`,
      );
    }
    return 0;
  }
  if (sub === 'add' && name && rolesText === undefined) {
    if (options.roles === undefined) return usage();
    const roles = parseRoles(options.roles);
    if (!roles.ok) {
      out(roles.problem);
      return 1;
    }
    const created = await createOperator(s, { name, roles: roles.roles, password: env.password });
    if (!created.ok) {
      out(created.problem);
      return 1;
    }
    out(`operator ${created.operator.name} added with roles ${created.operator.roles.join(', ')}`);
    if (created.generated) out(`password: ${created.password}   (shown once: hand it over safely)`);
    else out('password: the one in OPS_PASSWORD');
    printSecret(out, created.operator.name, created.secret, created.uri);
    return 0;
  }
  if (sub === 'roles' && name && rolesText !== undefined && rest.length === 0) {
    const roles = parseRoles(rolesText);
    if (!roles.ok) {
      out(roles.problem);
      return 1;
    }
    const result = await setOperatorRoles(s, name, roles.roles);
    if (!result.ok) {
      out(result.problem);
      return 1;
    }
    out(`${result.operator.name} now has the roles ${result.operator.roles.join(', ')}`);
    return 0;
  }
  if ((sub === 'disable' || sub === 'enable') && name && rolesText === undefined) {
    const result = sub === 'disable' ? await disableOperator(s, name) : await enableOperator(s, name);
    if (!result.ok) {
      out(result.problem);
      return 1;
    }
    out(
      sub === 'disable'
        ? `${result.operator.name} is disabled; their console sessions have ended`
        : `${result.operator.name} may sign in again`,
    );
    return 0;
  }
  if (sub === 'reset-totp' && name && rolesText === undefined) {
    const result = await resetOperatorTotp(s, name);
    if (!result.ok) {
      out(result.problem);
      return 1;
    }
    out(`${result.operator.name} has a new TOTP secret; the old authenticator entry no longer works`);
    printSecret(out, result.operator.name, result.secret, result.uri);
    return 0;
  }
  return usage();
}

/**
 * The services of the CLI: the data key as the server reads it (DATA_KEY or DATA_DIR/data.key), which must be the
 * database's (the server refuses to start with another one, and secrets sealed under a wrong key would never open).
 */
async function cliServices(db: Kysely<Database>): Promise<OperatorServices> {
  const config = readConfig();
  const { key } = loadDataKey({ dataKey: config.dataKey, dataDir: config.dataDir });
  const vault = new CardVault(key);
  await assertDataKey(db, vault);
  return { database: handleOf(db), now: Date.now, hasher: new PasswordHasher(), vault };
}

/** The operators module's commands. */
export const operatorOps: OpsCommand[] = [
  {
    name: 'operators',
    options: ['roles'],
    help: [
      ['operators add <name> --roles <roles>', 'a support console operator (prints password and TOTP secret once)'],
      ['operators list', 'the operators, their roles and last logins'],
      ['operators roles <name> <roles>', `replace the roles (${OPS_ROLES.join(', ')})`],
      ['operators disable|enable <name>', 'refuse an operator (ends their sessions) or let them in again'],
      ['operators reset-totp <name>', 'a new TOTP secret (a lost phone); ends their sessions'],
    ],
    run: async (words, { db, out }, options = {}) => {
      try {
        return await runOperatorsCommand(words, options, await cliServices(db), out, {
          password: process.env.OPS_PASSWORD || undefined,
        });
      } catch (err) {
        if (!(err instanceof DataKeyMismatchError)) throw err;
        out(err.message);
        return 1;
      }
    },
  },
];
