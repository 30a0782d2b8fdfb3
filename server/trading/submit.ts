import type { Kysely } from 'kysely';
import { isLedgerError, type Ledger, type UserAccountType } from '../ledger';
import type { DatabaseHandle } from '../platform/db/connect';
import type { Database } from '../platform/db/schema';
import { writeTransaction } from '../platform/db/transaction';
import { BusinessError } from '../platform/errors';
import type { MessageKey } from '../platform/i18n/messages';
import { recordUserEvent } from '../platform/realtime/user-events';
import { confirmClaimedRequest } from '../platform/request-ids';
import { type PracticeAccount, practiceBalance } from './practice';

/**
 * One submission lifecycle for every product that takes a trade (spot orders, option contracts, lever orders), so
 * that a retry, a refusal and a failure behave the same whichever product the user trades:
 *
 * 1. Idempotency. The product's row keeps the request id and the product's digest of its validated arguments: the
 *    same id with the same arguments answers with that row again and holds nothing more; with other arguments it is
 *    refused (`requestIdReused`). This runs before any check of the market or the funds, since the first request's
 *    own hold may be why the funds would no longer cover it. (The router's claim, platform/request-ids, refuses most
 *    reuse before the product is reached; the row decides for rows written before the claims existed, and the check
 *    in the transaction for two requests racing with one id.)
 * 2. The hold, as the product computed it from its terms and the market, checked against the available funds of
 *    its account (the practice funds granted on first use), then the product's own later checks.
 * 3. In one transaction: the hold placed in the ledger, the request's claim confirmed, the order handed to the
 *    engine (the product's row, waiting for its entry tick from its acceptance time) and the private event that
 *    announces it. A failure anywhere in it leaves nothing: no hold, no row, no confirmed claim.
 * 4. After commit, the engine of this process is told, so that it watches the order at once.
 *
 * Every refusal is a BusinessError whose key is an errors-table key: the envelope carries it as `reason` beside the
 * translated message, and the ledger's own refusals inside the transaction are answered like the early checks.
 */

export interface SubmitServices {
  database: DatabaseHandle;
  ledger: Ledger;
  now: () => number;
}

/** The funds a submission holds, as the product computed them from its arguments, terms and the market. */
export type HoldPlan = {
  currency: string;
  /** Ledger minor units of `currency`. */
  amount: bigint;
  /** What the hold is for, in the product's words (kept with the hold, at most 64 characters). */
  ref: string;
  /** The form field a refusal about the funds points at. */
  field: string;
  /** The refusal when the account cannot cover the hold, where the product words it apart from `insufficientBalance`. */
  short?: MessageKey;
  /** The refusal when nothing at all is available, where the product words that apart (spot). */
  empty?: { key: MessageKey; field: string };
  /** The product's checks that come after the funds in its order of checks (a verified identity, a feed). */
  admit?: () => Promise<void>;
} & ({ book: 'real'; type: UserAccountType } | { book: 'simulator'; type: PracticeAccount });

/** What the transaction gives the product's hand-over. */
export interface PlacedHold<Plan extends HoldPlan = HoldPlan> {
  holdId: number;
  /** The acceptance time: the order's entry tick is the first recorded tick after it. */
  at: number;
  /** The plan the hold was placed by, with whatever the product computed beside it. */
  plan: Plan;
}

/** A product's row as the service needs it: the digest of the arguments it was written for. */
export interface SubmittedRow {
  request_digest: string;
}

/** The product's side of one submission (`Plan`: its hold plan, with what else it computed for its row). */
export interface Submission<Row extends SubmittedRow, Wire, Plan extends HoldPlan = HoldPlan> {
  userId: number;
  /** The client's id of the request (its `request_id`). */
  requestId: string;
  /** The product's digest of the validated arguments, as stored on its row. */
  digest: string;
  /** The ledger's request id of the hold: the product's prefix and the client's id (unique per user). */
  holdRequestId: string;
  /** The product's row that a request with this id wrote, if any. */
  find: (db: Kysely<Database>) => Promise<Row | undefined>;
  /** Computes the hold of a request not seen before; may refuse (no price, a stop on the wrong side). */
  hold: () => Promise<Plan> | Plan;
  /** Hands the order to the engine inside the transaction of its hold: writes the row that waits for its entry tick. */
  handOver: (trx: Kysely<Database>, placed: PlacedHold<Plan>) => Promise<Row>;
  /** The kind of the private event that announces the new row (its data is the row's wire form). */
  event: string;
  toWire: (row: Row) => Wire;
  /** Told after commit of the row this request wrote (the engine's rounds would find it too, a moment later). */
  accepted?: ((row: Row) => void) | undefined;
}

/** Submits one trade: the same lifecycle for every product (see above); answers with the row's wire form. */
export async function submitTrade<Row extends SubmittedRow, Wire, Plan extends HoldPlan>(
  s: SubmitServices,
  sub: Submission<Row, Wire, Plan>,
): Promise<Wire> {
  const earlier = await sub.find(s.database.db);
  if (earlier) return sub.toWire(sameRequest(earlier, sub.digest));
  const plan = await sub.hold();
  await checkFunds(s.ledger, sub.userId, plan);
  await plan.admit?.();
  const { row, fresh } = await placeAndHandOver(s, sub, plan);
  if (fresh) sub.accepted?.(row);
  return sub.toWire(row);
}

/**
 * The answer to a retry, asked before the product judges anything that may have changed since the first request (its
 * settings, the feed, the price): the row an earlier request with this id wrote for these arguments, so a trade the
 * server already made is answered with it; undefined for a request not seen before; refused for other arguments.
 */
export async function answeredBefore<Row extends SubmittedRow>(
  s: Pick<SubmitServices, 'database'>,
  sub: Pick<Submission<Row, unknown>, 'find' | 'digest'>,
): Promise<Row | undefined> {
  const earlier = await sub.find(s.database.db);
  return earlier ? sameRequest(earlier, sub.digest) : undefined;
}

/** The earlier request's row, when it was written for these arguments; another request under the same id is refused. */
function sameRequest<Row extends SubmittedRow>(row: Row, digest: string): Row {
  if (row.request_digest !== digest) throw new BusinessError('requestIdReused');
  return row;
}

async function checkFunds(ledger: Ledger, userId: number, plan: HoldPlan): Promise<void> {
  if (plan.book === 'simulator') await practiceBalance(ledger, userId, plan.type);
  const account = (await ledger.balances(userId, plan.book)).find(
    (b) => b.type === plan.type && b.currency === plan.currency,
  );
  const available = BigInt(account?.available ?? 0);
  if (available === 0n && plan.empty) throw new BusinessError(plan.empty.key, { field: plan.empty.field });
  if (available < plan.amount) throw new BusinessError(plan.short ?? 'insufficientBalance', { field: plan.field });
  // Ledger amounts are safe integers: a hold beyond them could never be covered, but it must not reach Number().
  if (plan.amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new BusinessError('amountTooLarge', { field: plan.field });
}

async function placeAndHandOver<Row extends SubmittedRow, Wire, Plan extends HoldPlan>(
  s: SubmitServices,
  sub: Submission<Row, Wire, Plan>,
  plan: Plan,
): Promise<{ row: Row; fresh: boolean }> {
  const { userId } = sub;
  try {
    return await writeTransaction(s.database, async (trx) => {
      const at = s.now();
      const receipt = await s.ledger.within(trx).placeHold({
        userId,
        requestId: sub.holdRequestId,
        kind: 'order',
        book: plan.book,
        type: plan.type,
        currency: plan.currency,
        amount: Number(plan.amount),
        ref: plan.ref,
      });
      if (receipt.replayed || receipt.holdId === null) {
        // A concurrent request with this id held first (the ledger's request id waited for it): the same request
        // gets its row; other arguments that came to the same hold are still another request.
        const first = await sub.find(trx);
        if (!first) throw new BusinessError('requestIdReused');
        return { row: sameRequest(first, sub.digest), fresh: false };
      }
      // With the effect: a success always leaves its request-id claim confirmed (platform/request-ids).
      await confirmClaimedRequest(trx, userId);
      const row = await sub.handOver(trx, { holdId: receipt.holdId, at, plan });
      await recordUserEvent(trx, { userId, kind: sub.event, data: sub.toWire(row), at });
      return { row, fresh: true };
    });
  } catch (err) {
    if (!isLedgerError(err)) throw err;
    // The funds went between the check and the hold (another order): the same answer as the check's.
    if (err.key === 'insufficientBalance') {
      throw new BusinessError(plan.short ?? 'insufficientBalance', { field: plan.field });
    }
    throw new BusinessError(err.key);
  }
}
