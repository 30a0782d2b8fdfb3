import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema';
import type { OpsCommand } from './ops/commands';

/**
 * The operators' audit log (`ops_audit`): every review or other operator action, written in the same transaction
 * as the change it records, so the log and the data never disagree. Append-only: there is no code path that
 * updates or deletes a row, and the database refuses both (triggers of migration 0004).
 */

export interface AuditEntry {
  /** What was done, e.g. `kyc.approve`, `kyc.reject`, later `deposit.approve`. */
  action: string;
  /** What it was done to: a table-like noun and the row's id. */
  subjectType: string;
  subjectId: string | number;
  /** Whatever the action needs remembered (the reason of a rejection, the user concerned); stored as JSON. */
  detail?: Record<string, unknown>;
  /** Defaults to `currentOperator()`. */
  operator?: string;
  /** Milliseconds; defaults to now. */
  at?: number;
}

/** Who runs the command: OPS_OPERATOR when set (a shared admin account names its person), else the OS user. */
export function currentOperator(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.OPS_OPERATOR?.trim();
  if (named) return named.slice(0, 64);
  try {
    return os.userInfo().username.slice(0, 64) || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Appends one entry; pass the transaction of the change it records. Returns the entry's id. */
export async function recordAudit(trx: Kysely<Database>, entry: AuditEntry): Promise<number> {
  const row = await trx
    .insertInto('ops_audit')
    .values({
      at: entry.at ?? Date.now(),
      operator: entry.operator ?? currentOperator(),
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: String(entry.subjectId),
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** `audit [n]`: the newest n entries (default 20), newest first. */
export async function runAuditCommand(
  args: readonly string[],
  db: Kysely<Database>,
  out: (line: string) => void,
): Promise<number> {
  const raw = args[0];
  if (raw !== undefined && !/^[1-9]\d{0,3}$/.test(raw)) {
    out('usage: npm run ops -- audit [count]');
    return 2;
  }
  const rows = await db
    .selectFrom('ops_audit')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(raw ? Number(raw) : 20)
    .execute();
  if (rows.length === 0) out('the audit log is empty');
  for (const r of rows) {
    out(
      `${new Date(r.at).toISOString()}  ${r.operator.padEnd(12)}  ${r.action.padEnd(14)}  ${r.subject_type} ${r.subject_id}  ${r.detail}`,
    );
  }
  return 0;
}

/** The audit log's operator command. */
export const auditOps: OpsCommand = {
  name: 'audit',
  help: [['audit [count]', 'the newest operator actions (append-only log)']],
  run: (words, { db, out }) => runAuditCommand(words, db, out),
};
