import path from 'node:path';
import type { Kysely } from 'kysely';
import { readConfig } from '../../config';
import type { Database } from '../../platform/db/schema';
import type { OpsCommand } from '../../platform/ops/commands';
import { uploadsDirOf, withUploads } from '../uploads';
import { approveVerification, listPendingVerifications, type PendingVerification, rejectVerification } from './review';

// The review lives in review.ts (the console calls it too); its functions are still reachable through this file.
export {
  approveVerification,
  listPendingVerifications,
  MAX_REASON,
  type PendingVerification,
  type ReviewOptions,
  type ReviewResult,
  rejectVerification,
} from './review';

/**
 * Operator commands of identity verifications (`npm run ops -- kyc ...`, the review itself is review.ts) and operator
 * access to uploaded files (`npm run ops -- uploads path <id>`).
 */

type Out = (line: string) => void;

const KYC_USAGE = 'usage: npm run ops -- kyc list | kyc approve <id> | kyc reject <id> <reason...>';

const parseId = (raw: string | undefined): number | null => (raw && /^[1-9]\d{0,11}$/.test(raw) ? Number(raw) : null);

function describe(p: PendingVerification): string[] {
  const head = `#${p.id}  ${p.level.padEnd(8)}  user ${p.userId} (${p.username})  submitted ${new Date(p.createdAt).toISOString()}`;
  if (p.level === 'basic') {
    return [head, `      ${p.country}  ${p.name}  ID ${p.idNumber}`, `      ${p.address}`];
  }
  return [
    head,
    `      photos: front ${p.front}, back ${p.back}, holding ${p.hold}  (npm run ops -- uploads path <id>)`,
  ];
}

/** `kyc list | approve <id> | reject <id> <reason...>`; returns the exit code. */
export async function runKycCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, rawId, ...words] = args;
  if (sub === 'list') {
    const pending = await listPendingVerifications(db);
    if (pending.length === 0) out('no verifications waiting for review');
    for (const p of pending) for (const line of describe(p)) out(line);
    return 0;
  }
  if (sub !== 'approve' && sub !== 'reject') {
    out(KYC_USAGE);
    return 2;
  }
  const id = parseId(rawId);
  if (id === null) {
    out(KYC_USAGE);
    return 2;
  }
  const result =
    sub === 'approve' ? await approveVerification(db, id) : await rejectVerification(db, id, words.join(' '));
  if (!result.ok) {
    out(result.problem);
    return 1;
  }
  out(`verification ${id} (${result.level}, user ${result.userId}) is now ${result.state}`);
  return 0;
}

/** `uploads path <id>`: where an upload's file is, for an operator to open. */
export async function runUploadsCommand(
  args: readonly string[],
  db: Kysely<Database>,
  out: Out,
  uploadsDir: string = uploadsDirOf(readConfig().dataDir),
): Promise<number> {
  const [sub, rawId] = args;
  const id = parseId(rawId);
  if (sub !== 'path' || id === null) {
    out('usage: npm run ops -- uploads path <id>');
    return 2;
  }
  const row = await withUploads(db)
    .selectFrom('uploads')
    .select(['file_name', 'user_id', 'mime', 'size', 'deleted_at', 'attached_to'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) {
    out(`no upload ${id}`);
    return 1;
  }
  if (row.deleted_at !== null) {
    out(`upload ${id} was removed by its owner`);
    return 1;
  }
  out(path.join(uploadsDir, row.file_name));
  out(`  user ${row.user_id}, ${row.mime}, ${row.size} bytes${row.attached_to ? `, used by ${row.attached_to}` : ''}`);
  return 0;
}

/** The identity module's operator commands (uploads belong to verifications today). */
export const identityOps: OpsCommand[] = [
  {
    name: 'kyc',
    help: [
      ['kyc list', 'identity verifications waiting for review'],
      ['kyc approve <id>', 'approve one (the user sees it live)'],
      ['kyc reject <id> <reason...>', 'reject one with a reason shown to the user'],
    ],
    run: (words, { db, out }) => runKycCommand(words, db, out),
  },
  {
    name: 'uploads',
    help: [['uploads path <id>', 'where an uploaded image is stored']],
    run: (words, { db, out }) => runUploadsCommand(words, db, out),
  },
];
