import type { AuditEntry } from '../../platform/audit';
import { recordAudit } from '../../platform/audit';
import type { DatabaseHandle } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';

/** What reading a console call showed: the audit entry's action, subject and detail (the operator is the caller's). */
export type OpsViewEntry = Required<Pick<AuditEntry, 'action' | 'subjectType' | 'subjectId'>> &
  Pick<AuditEntry, 'detail'>;

/** Sessions remembered at once, and entries per session, before the oldest are forgotten (memory stays bounded). */
const SESSIONS_MAX = 500;
const SEEN_PER_SESSION_MAX = 2000;

/**
 * The audit of console reads that show users' data (a queue, a conversation, an order's trace). The console polls an
 * open screen every 2 s, so one entry per read would bury the decisions under reads of the same thing: a session
 * records each distinct view once (the same action, subject and detail, e.g. the same rows of a queue). Kept in this
 * process's memory: with several processes a view may be recorded once per process, never not at all.
 */
export class OpsViewLog {
  private readonly seen = new Map<number, Set<string>>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly now: () => number,
  ) {}

  async record(session: { id: number; operator: { name: string } }, entry: OpsViewEntry): Promise<void> {
    // A list that showed no row (an empty queue) revealed nothing about anyone: recording it would only bury entries.
    const ids = entry.detail?.ids;
    if (Array.isArray(ids) && ids.length === 0) return;
    const key = JSON.stringify([entry.action, entry.subjectType, String(entry.subjectId), entry.detail ?? {}]);
    let keys = this.seen.get(session.id);
    if (keys?.has(key)) return;
    await writeTransaction(this.database, (trx) =>
      recordAudit(trx, { ...entry, operator: session.operator.name, at: this.now() }),
    );
    if (!keys) {
      keys = new Set();
      this.seen.set(session.id, keys);
      if (this.seen.size > SESSIONS_MAX) this.seen.delete(this.seen.keys().next().value as number);
    }
    if (keys.size >= SEEN_PER_SESSION_MAX) keys.clear();
    keys.add(key);
  }
}
