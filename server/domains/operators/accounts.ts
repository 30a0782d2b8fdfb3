import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { isOpsRole, OPS_NAME_RE, OPS_ROLES, type OpsRole } from '../../../protocol/ops-console';
import { recordAudit } from '../../platform/audit';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import type { PasswordHasher } from '../account';
import { assertDataKey, type CardVault } from '../bank-cards';
import type { OperatorPrincipal } from './principal';
import { sealTotpSecret } from './secrets';
import type { OperatorsTable } from './tables';
import { withOperators } from './tables';
import { newTotpSecret, totpUri } from './totp';

/**
 * Operator accounts (`npm run ops -- operators ...`): created with a password (argon2id, like users') and a TOTP
 * secret (sealed under the data key), given roles, disabled, given a new TOTP secret. Each change is audited in its
 * own transaction, with who made it (OPS_OPERATOR or the OS user of the CLI, see platform/audit.ts).
 */

export interface OperatorServices {
  database: DatabaseHandle;
  now: () => number;
  hasher: PasswordHasher;
  /** The data key's vault (DATA_KEY or DATA_DIR/data.key): it seals the TOTP secrets. */
  vault: CardVault;
}

/** Who makes a change (the audit log's operator); defaults to OPS_OPERATOR or the OS user. */
export interface ChangeOptions {
  by?: string;
}

export type OperatorRow = Selectable<OperatorsTable>;

export type { OperatorPrincipal } from './principal';

export interface OperatorSummary extends OperatorPrincipal {
  disabled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
}

export type Refused = { ok: false; problem: string };

/** Operator passwords are longer than users': they open every user's data. */
export const OPERATOR_PASSWORD_MIN = 12;

/** The stored role list, as known roles in the table's order (unknown words are dropped). */
export const rolesOf = (stored: string): OpsRole[] => {
  const words = new Set(stored.split(','));
  return OPS_ROLES.filter((r) => words.has(r));
};

/** `support,reviewer` → the roles; every word must be a role, at least one. */
export function parseRoles(text: string): { ok: true; roles: OpsRole[] } | Refused {
  const words = text
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  const unknown = words.filter((w) => !isOpsRole(w));
  if (unknown.length > 0)
    return { ok: false, problem: `unknown role ${unknown.join(', ')} (roles: ${OPS_ROLES.join(', ')})` };
  if (words.length === 0) return { ok: false, problem: `give at least one role of ${OPS_ROLES.join(', ')}` };
  return { ok: true, roles: OPS_ROLES.filter((r) => words.includes(r)) };
}

/** A password to hand out once: 120 random bits in 20 characters that survive copying (no look-alikes). */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(40);
  let out = '';
  // Rejection sampling keeps every character equally likely (56 does not divide 256).
  for (const b of bytes) {
    if (out.length === 20) break;
    if (b < 224) out += alphabet[b % 56];
  }
  while (out.length < 20) out += alphabet[randomBytes(1)[0]! % 56];
  return out;
}

const principalOf = (row: Pick<OperatorRow, 'id' | 'name' | 'roles'>): OperatorPrincipal => ({
  id: row.id,
  name: row.name,
  roles: rolesOf(row.roles),
});

export const findOperator = (db: Kysely<Database>, name: string) =>
  withOperators(db)
    .selectFrom('operators')
    .selectAll()
    .where('name', '=', name.trim().toLowerCase())
    .executeTakeFirst();

export interface CreatedOperator {
  ok: true;
  operator: OperatorPrincipal;
  /** The password (generated unless one was given): shown once, never stored in the clear. */
  password: string;
  generated: boolean;
  /** The TOTP secret (base32) and its otpauth:// URI, for the authenticator app: shown once. */
  secret: string;
  uri: string;
}

/** Creates an operator; `password` when given (OPS_PASSWORD), else a generated one. */
export async function createOperator(
  s: OperatorServices,
  input: { name: string; roles: readonly OpsRole[]; password?: string | undefined },
  options: ChangeOptions = {},
): Promise<CreatedOperator | Refused> {
  const name = input.name.trim().toLowerCase();
  if (!OPS_NAME_RE.test(name)) {
    return { ok: false, problem: 'a name is 2 to 32 of a-z, 0-9, dot, dash, underscore, starting with a letter' };
  }
  if (input.roles.length === 0) return { ok: false, problem: `give at least one role of ${OPS_ROLES.join(', ')}` };
  const given = input.password;
  if (given !== undefined && given.length < OPERATOR_PASSWORD_MIN) {
    return { ok: false, problem: `the password needs at least ${OPERATOR_PASSWORD_MIN} characters` };
  }
  if (given !== undefined && given.length > 128) return { ok: false, problem: 'the password is longer than 128' };
  const password = given ?? generatePassword();
  const secret = newTotpSecret();
  const passwordHash = await s.hasher.hash(password);
  const roles = OPS_ROLES.filter((r) => input.roles.includes(r));
  const at = s.now();
  const created = await writeTransaction(s.database, async (trx) => {
    // Sealed only under the database's data key (held shared on PostgreSQL, so a key rotation waits for this).
    await assertDataKey(trx, s.vault, s.database.kind === 'postgres');
    if (await findOperator(trx, name)) return null;
    const row = await withOperators(trx)
      .insertInto('operators')
      .values({
        name,
        password_hash: passwordHash,
        // The secret is sealed with the row's id (below), which the insert makes.
        totp_secret_enc: '',
        totp_last_step: null,
        roles: roles.join(','),
        disabled_at: null,
        created_at: at,
        last_login_at: null,
      })
      .returning(['id', 'name', 'roles'])
      .executeTakeFirstOrThrow();
    await withOperators(trx)
      .updateTable('operators')
      .set({ totp_secret_enc: sealTotpSecret(s.vault, row.id, secret) })
      .where('id', '=', row.id)
      .execute();
    await recordAudit(trx, {
      action: 'operator.add',
      subjectType: 'operator',
      subjectId: row.id,
      detail: { name, roles },
      ...(options.by ? { operator: options.by } : {}),
      at,
    });
    return row;
  });
  if (!created) return { ok: false, problem: `an operator named ${name} exists already` };
  return {
    ok: true,
    operator: principalOf(created),
    password,
    generated: given === undefined,
    secret,
    uri: totpUri(name, secret),
  };
}

export async function listOperators(db: Kysely<Database>): Promise<OperatorSummary[]> {
  const rows = await withOperators(db).selectFrom('operators').selectAll().orderBy('name').execute();
  return rows.map((r) => ({
    ...principalOf(r),
    disabled: r.disabled_at !== null,
    createdAt: r.created_at,
    lastLoginAt: r.last_login_at,
  }));
}

/**
 * One change of an operator's row, audited with it: `change` returns the columns to set, or a refusal. `endSessions`
 * also ends the operator's console sessions in the same transaction.
 */
async function changeOperator(
  s: OperatorServices,
  rawName: string,
  action: string,
  change: (row: OperatorRow) => { set: Partial<OperatorRow>; detail: Record<string, unknown> } | Refused,
  options: ChangeOptions & { endSessions?: boolean; sealing?: boolean },
): Promise<{ ok: true; operator: OperatorPrincipal } | Refused> {
  const name = rawName.trim().toLowerCase();
  const at = s.now();
  return writeTransaction(s.database, async (trx) => {
    if (options.sealing) await assertDataKey(trx, s.vault, s.database.kind === 'postgres');
    const row = await findOperator(trx, name);
    if (!row) return { ok: false as const, problem: `no operator named ${name}` };
    const decided = change(row);
    if ('ok' in decided) return decided;
    const { id: _id, ...set } = decided.set;
    const updated = await withOperators(trx)
      .updateTable('operators')
      .set(set)
      .where('id', '=', row.id)
      .returning(['id', 'name', 'roles'])
      .executeTakeFirstOrThrow();
    if (options.endSessions) {
      await withOperators(trx)
        .updateTable('operator_sessions')
        .set({ revoked_at: at })
        .where('operator_id', '=', row.id)
        .where('revoked_at', 'is', null)
        .execute();
    }
    await recordAudit(trx, {
      action,
      subjectType: 'operator',
      subjectId: row.id,
      detail: { name, ...decided.detail },
      ...(options.by ? { operator: options.by } : {}),
      at,
    });
    return { ok: true as const, operator: principalOf(updated) };
  });
}

/** Replaces an operator's roles (they count from the operator's next request on). */
export function setOperatorRoles(
  s: OperatorServices,
  name: string,
  roles: readonly OpsRole[],
  options: ChangeOptions = {},
) {
  return changeOperator(
    s,
    name,
    'operator.roles',
    (row) =>
      roles.length === 0
        ? { ok: false, problem: `give at least one role of ${OPS_ROLES.join(', ')}` }
        : {
            set: { roles: OPS_ROLES.filter((r) => roles.includes(r)).join(',') },
            detail: { from: rolesOf(row.roles), to: OPS_ROLES.filter((r) => roles.includes(r)) },
          },
    options,
  );
}

/** Disables an operator: refused at the next request, every console session ended. */
export function disableOperator(s: OperatorServices, name: string, options: ChangeOptions = {}) {
  return changeOperator(
    s,
    name,
    'operator.disable',
    (row) =>
      row.disabled_at !== null
        ? { ok: false, problem: `${row.name} is disabled already` }
        : { set: { disabled_at: s.now() }, detail: {} },
    { ...options, endSessions: true },
  );
}

/** Lets a disabled operator sign in again (with the same password and authenticator). */
export function enableOperator(s: OperatorServices, name: string, options: ChangeOptions = {}) {
  return changeOperator(
    s,
    name,
    'operator.enable',
    (row) =>
      row.disabled_at === null
        ? { ok: false, problem: `${row.name} is not disabled` }
        : { set: { disabled_at: null }, detail: {} },
    options,
  );
}

/** A new TOTP secret (a lost phone): the old authenticator stops working and every console session ends. */
export async function resetOperatorTotp(
  s: OperatorServices,
  name: string,
  options: ChangeOptions = {},
): Promise<{ ok: true; operator: OperatorPrincipal; secret: string; uri: string } | Refused> {
  const secret = newTotpSecret();
  const result = await changeOperator(
    s,
    name,
    'operator.reset_totp',
    (row) => ({ set: { totp_secret_enc: sealTotpSecret(s.vault, row.id, secret), totp_last_step: null }, detail: {} }),
    { ...options, endSessions: true, sealing: true },
  );
  if (!result.ok) return result;
  return { ...result, secret, uri: totpUri(result.operator.name, secret) };
}
