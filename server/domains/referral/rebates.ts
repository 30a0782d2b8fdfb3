import { type Kysely, sql } from 'kysely';
import type { RebateSource } from '../../../protocol/referral';
import { rebateSplit } from '../../../protocol/rules/referral';
import type { BatchRequest, Ledger } from '../../ledger';
import { type LedgerTables, withLedger } from '../../ledger';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import type { Job } from '../../platform/jobs/runner';
import { readSetting } from '../../platform/settings';
import { defaultShare, type ReferralTerms, termsOf } from './partners';
import { type ReferralTables, withReferral } from './tables';

/**
 * Referral rebates (RULES "Referral and partners"): every trading fee a referred user pays into the real book's fee
 * account is split by its referrer's terms (protocol/rules/referral.ts) and credited from the fee account to the
 * referrer's coin account (and a partner's bonus to the invitee's), in the fee's currency. Each fee's row in
 * `referral_rebates` (unique per fee posting) and its ledger entries commit in one transaction, so a fee is rebated
 * exactly once whether a round is repeated after a crash or two processes run it at once; the ledger's request ids
 * (`referral:<posting>`, `referral-bonus:<posting>`) are a second guard. The terms are those in force when the
 * rebate is paid (the job runs every few seconds).
 */

export interface ReferralServices {
  database: DatabaseHandle;
  ledger: Ledger;
  now: () => number;
}

/** The ledger's request ids of a fee's rebate (unique per user, so each applies once). */
export const referralLedgerIds = {
  referrer: (postingId: number) => `referral:${postingId}`,
  invitee: (postingId: number) => `referral-bonus:${postingId}`,
};

/**
 * The entries that carry trading fees, by the request ids the trading modules give them (spot/place.ts `ledgerIds`,
 * lever/submit.ts `leverLedgerIds`). Withdrawal fees and every other income of the fee account are not trading fees.
 * Clients' own ids are always filed under another prefix (`spot:`, `lever:`, `transfer:`), so none can pose as these.
 */
export const TRADING_FEE_ENTRIES: ReadonlyArray<readonly [prefix: string, source: RebateSource]> = [
  ['spot-fill:', 'spot'],
  ['spot-legs:', 'spot'],
  ['lever-fee:', 'lever'],
  ['lever-close:', 'lever'],
];

export const sourceOf = (requestId: string): RebateSource | null =>
  TRADING_FEE_ENTRIES.find(([prefix]) => requestId.startsWith(prefix))?.[1] ?? null;

/** Fees per transaction. */
const BATCH = 200;

export interface RebateOptions {
  stillLeading?: () => boolean;
  batch?: number;
  /** Called inside each batch's transaction after its writes, before commit (the crash test stops a process there). */
  insideBatch?: (n: number) => Promise<void>;
}

export interface RebateResult {
  /** Fees handled (rows written, zero rebates included). */
  fees: number;
  /** Ledger entries posted. */
  entries: number;
}

interface FeeRow {
  posting_id: number;
  amount: number;
  currency: string;
  request_id: string;
  payer_id: number;
  referrer_id: number;
}

/** The real book's fee accounts (one per currency). */
async function feeAccounts(db: Kysely<Database>): Promise<number[]> {
  const rows = await withLedger(db)
    .selectFrom('ledger_accounts')
    .select('id')
    .where('user_id', 'is', null)
    .where('type', '=', 'fees')
    .where('book', '=', 'real')
    .execute();
  return rows.map((r) => r.id);
}

/** The setting migration 0020 wrote: the last fee posting before rebates began (none of those is rebated). */
export const REBATES_AFTER_KEY = 'referral.rebates_after_posting';

async function rebatesAfterPosting(db: Kysely<Database>): Promise<number> {
  const stored = await readSetting(db, REBATES_AFTER_KEY);
  return stored !== undefined && /^\d{1,15}$/.test(stored) ? Number(stored) : 0;
}

/** Trading fees of referred users without a rebate row, oldest first, after `afterId`. */
async function unrebated(db: Kysely<Database>, accounts: number[], afterId: number, limit: number): Promise<FeeRow[]> {
  const rows = await db
    .withTables<LedgerTables & ReferralTables>()
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('referral_rebates as r', 'r.fee_posting_id', 'p.id')
    .select(['p.id as posting_id', 'p.amount', 'a.currency', 'e.request_id', 'e.user_id as payer_id', 'u.referrer_id'])
    .where('p.account_id', 'in', accounts)
    .where('p.id', '>', afterId)
    .where('p.amount', '>', 0)
    .where('u.referrer_id', 'is not', null)
    .where('r.id', 'is', null)
    .where((eb) => eb.or(TRADING_FEE_ENTRIES.map(([prefix]) => eb('e.request_id', 'like', `${prefix}%`))))
    .orderBy('p.id')
    .limit(limit)
    .execute();
  return rows.flatMap((r) =>
    r.referrer_id === null
      ? []
      : [{ ...r, posting_id: Number(r.posting_id), amount: Number(r.amount), referrer_id: r.referrer_id }],
  );
}

/** Pays the rebates of every trading fee not rebated yet. */
export async function payRebates(s: ReferralServices, options: RebateOptions = {}): Promise<RebateResult> {
  const { db } = s.database;
  const result: RebateResult = { fees: 0, entries: 0 };
  const accounts = await feeAccounts(db);
  if (accounts.length === 0) return result;
  // One reading of the terms per round: a change by an operator applies from the next round.
  const share = await defaultShare(db);
  const terms = new Map<number, ReferralTerms>();
  const termsFor = async (referrerId: number) => {
    const known = terms.get(referrerId);
    if (known) return known;
    const t = await termsOf(db, referrerId, share);
    terms.set(referrerId, t);
    return t;
  };
  let afterId = await rebatesAfterPosting(db);
  let batches = 0;
  const failures: unknown[] = [];
  for (;;) {
    if (options.stillLeading && !options.stillLeading()) break;
    const fees = await unrebated(db, accounts, afterId, options.batch ?? BATCH);
    if (fees.length === 0) break;
    afterId = fees.at(-1)?.posting_id ?? afterId;
    for (const fee of fees) await termsFor(fee.referrer_id);
    batches += 1;
    const n = batches;
    const inside = options.insideBatch && (() => options.insideBatch?.(n) ?? Promise.resolve());
    try {
      add(result, await payBatch(s, fees, terms, inside));
    } catch (err) {
      // One fee the ledger refuses must not hold back the others: pay them one by one, report the failures after
      // the round (the job logs them; they are tried again next round).
      const before = failures.length;
      for (const fee of fees) {
        try {
          add(result, await payBatch(s, [fee], terms));
        } catch (single) {
          failures.push(single);
        }
      }
      if (failures.length === before) failures.push(err);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `referral rebates: ${failures.length} fee(s) not paid`);
  return result;
}

function add(total: RebateResult, part: RebateResult): void {
  total.fees += part.fees;
  total.entries += part.entries;
}

async function payBatch(
  s: ReferralServices,
  fees: readonly FeeRow[],
  terms: ReadonlyMap<number, ReferralTerms>,
  inside?: () => Promise<void>,
): Promise<RebateResult> {
  return writeTransaction(s.database, async (trx) => {
    // Rounds queue here on PostgreSQL (SQLite's write transaction is exclusive anyway): a round never waits on a row
    // another round claimed while that one waits on an account this one locked.
    if (s.database.kind === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext('referral-rebates'))`.execute(trx);
    const at = s.now();
    const result: RebateResult = { fees: 0, entries: 0 };
    const requests: BatchRequest[] = [];
    for (const fee of fees) {
      const source = sourceOf(fee.request_id);
      const t = terms.get(fee.referrer_id);
      if (source === null || t === undefined) continue;
      const split = rebateSplit(BigInt(fee.amount), t.ratio, t.bonus);
      // The row first: a fee another round rebated meanwhile conflicts here and is left alone.
      const claimed = await withReferral(trx)
        .insertInto('referral_rebates')
        .values({
          fee_posting_id: fee.posting_id,
          source,
          payer_id: fee.payer_id,
          referrer_id: fee.referrer_id,
          currency: fee.currency,
          fee: fee.amount,
          ratio_bp: Number(t.ratio),
          bonus_bp: Number(t.bonus),
          referrer_amount: Number(split.referrer),
          invitee_amount: Number(split.invitee),
          created_at: at,
        })
        .onConflict((oc) => oc.column('fee_posting_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!claimed) continue;
      result.fees += 1;
      const parts = [
        { userId: fee.referrer_id, amount: split.referrer, requestId: referralLedgerIds.referrer(fee.posting_id) },
        { userId: fee.payer_id, amount: split.invitee, requestId: referralLedgerIds.invitee(fee.posting_id) },
      ];
      for (const part of parts) {
        if (part.amount === 0n) continue;
        const amount = Number(part.amount);
        requests.push({
          op: 'post',
          userId: part.userId,
          requestId: part.requestId,
          kind: 'rebate',
          legs: [
            { owner: { platform: 'fees' }, currency: fee.currency, amount: -amount },
            { owner: { userId: part.userId, type: 'coin' }, currency: fee.currency, amount },
          ],
          memo: `referral rebate of fee posting ${fee.posting_id}`,
        });
      }
    }
    // One batch takes every account lock at once, in id order like every other ledger write: no deadlock with trades.
    await s.ledger.within(trx).settleBatch(requests);
    result.entries += requests.length;
    await inside?.();
    return result;
  });
}

/** The rebates as a cluster job: one process at a time, every few seconds. */
export function referralRebatesJob(s: ReferralServices, everyMs = 5_000): Job {
  return {
    name: 'referral-rebates',
    scope: 'cluster',
    everyMs,
    run: async (round) => {
      if (!round.leading) return;
      await payRebates(s, { stillLeading: round.stillLeading });
    },
  };
}
