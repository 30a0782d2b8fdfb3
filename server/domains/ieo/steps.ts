import type { Kysely } from 'kysely';
import { IEO_COIN_SCALE, IEO_ORDER_EVENT, IEO_PAY_CURRENCY } from '../../../protocol/ieo';
import { allot, ieoPayment } from '../../../protocol/rules/ieo';
import { type BatchRequest, currencyScale } from '../../ledger';
import { listCoin } from '../../market';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import type { Job } from '../../platform/jobs/runner';
import { recordUserEvents } from '../../platform/realtime/user-events';
import type { IeoServices } from './apply';
import { ieoLedgerIds } from './pay';
import { type IeoProjectRow, type IeoSubscriptionRow, orderWire } from './projects';
import { withIeo } from './tables';

export interface IeoStepResult {
  allotted: number;
  lapsed: number;
  listed: number;
  unlocked: number;
}

/**
 * Carries out every project step due at `at` (RULES "IEO"), each once: the allotment at the allotment time, the lapse
 * of unpaid allotments when the payment window ends, the listing (payments posted, coins credited locked, the coin on
 * the market at its listing price) and the unlock. Each step is one transaction that marks the project, so a repeated
 * or concurrent round finds it done; the ledger's request ids name the subscription, so no money moves twice.
 */
export async function runIeoSteps(s: IeoServices, options: { at?: number } = {}): Promise<IeoStepResult> {
  const at = options.at ?? s.now();
  const { db } = s.database;
  const result: IeoStepResult = { allotted: 0, lapsed: 0, listed: 0, unlocked: 0 };
  const due = await withIeo(db)
    .selectFrom('ieo_projects')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('allotted_at', 'is', null), eb('allot_at', '<=', at)]),
        eb.and([eb('lapsed_at', 'is', null), eb('pay_until', '<=', at)]),
        eb.and([eb('listed_at', 'is', null), eb('list_at', '<=', at)]),
        eb.and([eb('unlocked_at', 'is', null), eb('unlock_at', '<=', at)]),
      ]),
    )
    .orderBy('id')
    .execute();
  const failures: unknown[] = [];
  for (const project of due) {
    // One project that cannot take a step must not hold back the others: its error is reported after the round.
    try {
      await stepsOf(s, project, at, result);
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `ieo steps: ${failures.length} project(s) failed`);
  return result;
}

async function stepsOf(s: IeoServices, project: IeoProjectRow, at: number, result: IeoStepResult): Promise<void> {
  if (project.allotted_at === null && project.allot_at <= at && (await allotProject(s, project.id, at))) {
    result.allotted += 1;
  }
  if (project.lapsed_at === null && project.pay_until <= at && (await lapseProject(s, project.id, at))) {
    result.lapsed += 1;
  }
  if (project.listed_at === null && project.list_at <= at) {
    // The coin joins the market and the ledger's currencies, together, before anyone is credited it.
    await writeTransaction(s.database, async (trx) => {
      await listCoin(trx, {
        symbol: project.coin,
        name: project.name,
        startPrice: project.listing_price,
        listedAt: project.list_at,
      });
      await s.ledger.within(trx).addCurrency(project.coin, IEO_COIN_SCALE);
    });
    if (await listProject(s, project.id, at)) result.listed += 1;
  }
  if (project.unlocked_at === null && project.unlock_at <= at && (await unlockProject(s, project.id, at))) {
    result.unlocked += 1;
  }
}

/** A project row locked for this transaction (PostgreSQL; SQLite's write transaction is exclusive). */
function lockedProject(s: IeoServices, trx: Kysely<Database>, id: number) {
  return withIeo(trx)
    .selectFrom('ieo_projects')
    .selectAll()
    .where('id', '=', id)
    .$if(s.database.kind === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirstOrThrow();
}

function subscriptionsIn(trx: Kysely<Database>, projectId: number, phase: IeoSubscriptionRow['phase']) {
  return withIeo(trx)
    .selectFrom('ieo_subscriptions')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('phase', '=', phase)
    .orderBy('id')
    .execute();
}

/** Writes each changed subscription and its user event (the private topic), in the step's transaction. */
async function saveAll(
  trx: Kysely<Database>,
  project: IeoProjectRow,
  changed: readonly IeoSubscriptionRow[],
  at: number,
) {
  for (const sub of changed) {
    await withIeo(trx)
      .updateTable('ieo_subscriptions')
      .set({
        allotted: sub.allotted,
        payment: sub.payment,
        phase: sub.phase,
        lock_hold_id: sub.lock_hold_id,
        updated_at: at,
      })
      .where('id', '=', sub.id)
      .execute();
  }
  await recordUserEvents(
    trx,
    changed.map((sub) => ({ userId: sub.user_id, kind: IEO_ORDER_EVENT, data: orderWire(sub, project), at })),
  );
}

async function allotProject(s: IeoServices, id: number, at: number): Promise<boolean> {
  return writeTransaction(s.database, async (trx) => {
    const project = await lockedProject(s, trx, id);
    if (project.allotted_at !== null) return false;
    const subs = await subscriptionsIn(trx, id, 'subscribed');
    const shares = allot({
      supply: BigInt(project.supply),
      cap: BigInt(project.user_cap),
      subscriptions: subs.map((sub) => ({ id: sub.id, asked: BigInt(sub.asked) })),
    });
    const payScale = currencyScale(IEO_PAY_CURRENCY);
    const changed = subs.map((sub): IeoSubscriptionRow => {
      const allotted = shares.get(sub.id) ?? 0n;
      const payment = ieoPayment(allotted, project.ieo_price, IEO_COIN_SCALE, payScale);
      return {
        ...sub,
        allotted: Number(allotted),
        payment: allotted > 0n ? Number(payment) : null,
        phase: allotted > 0n ? 'allotted' : 'failed',
      };
    });
    const demand = subs.reduce((sum, sub) => sum + BigInt(sub.asked), 0n);
    // Only compared with the supply (at most 2^53): a larger sum is stored as the largest exact number.
    const stored = Number(demand > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : demand);
    const marked = { ...project, allotted_at: at, demand: stored };
    await withIeo(trx)
      .updateTable('ieo_projects')
      .set({ allotted_at: at, demand: stored })
      .where('id', '=', id)
      .execute();
    await saveAll(trx, marked, changed, at);
    return true;
  });
}

async function lapseProject(s: IeoServices, id: number, at: number): Promise<boolean> {
  return writeTransaction(s.database, async (trx) => {
    const project = await lockedProject(s, trx, id);
    // The allotment comes first (its time is before the payment window ends); a lapse before it has nothing to do.
    if (project.lapsed_at !== null || project.allotted_at === null) return false;
    await withIeo(trx).updateTable('ieo_projects').set({ lapsed_at: at }).where('id', '=', id).execute();
    // Only rows still unpaid when this runs: a payment that committed first stays paid.
    const lapsed = await withIeo(trx)
      .updateTable('ieo_subscriptions')
      .set({ phase: 'lapsed', updated_at: at })
      .where('project_id', '=', id)
      .where('phase', '=', 'allotted')
      .returningAll()
      .execute();
    const marked = { ...project, lapsed_at: at };
    await recordUserEvents(
      trx,
      lapsed.map((sub) => ({ userId: sub.user_id, kind: IEO_ORDER_EVENT, data: orderWire(sub, marked), at })),
    );
    return true;
  });
}

async function listProject(s: IeoServices, id: number, at: number): Promise<boolean> {
  return writeTransaction(s.database, async (trx) => {
    const project = await lockedProject(s, trx, id);
    if (project.listed_at !== null || project.lapsed_at === null) return false;
    const paid = await subscriptionsIn(trx, id, 'paid');
    const ledger = s.ledger.within(trx);
    const requests: BatchRequest[] = [];
    for (const sub of paid) {
      if (sub.pay_hold_id === null || sub.payment === null || sub.allotted === null) {
        throw new Error(`ieo subscription ${sub.id} paid without its hold`);
      }
      requests.push(
        {
          op: 'postHold',
          userId: sub.user_id,
          requestId: ieoLedgerIds.settle(sub.id),
          holdId: sub.pay_hold_id,
          to: [{ owner: { platform: 'ieo_sales' }, amount: sub.payment }],
        },
        {
          op: 'post',
          userId: sub.user_id,
          requestId: ieoLedgerIds.credit(sub.id),
          kind: 'ieo',
          legs: [
            { owner: { platform: 'ieo_issuance' }, currency: project.coin, amount: -sub.allotted },
            { owner: { userId: sub.user_id, type: 'coin' }, currency: project.coin, amount: sub.allotted },
          ],
        },
      );
    }
    await ledger.settleBatch(requests);
    const changed: IeoSubscriptionRow[] = [];
    for (const sub of paid) {
      // The credited coins stay frozen until the unlock time (RULES "IEO": listed and locked, status 5).
      const lock = await ledger.placeHold({
        userId: sub.user_id,
        requestId: ieoLedgerIds.lock(sub.id),
        kind: 'ieo_lock',
        type: 'coin',
        currency: project.coin,
        amount: sub.allotted ?? 0,
        ref: `ieo ${project.coin} ${sub.id}`,
      });
      changed.push({ ...sub, phase: 'locked', lock_hold_id: lock.holdId });
    }
    await withIeo(trx).updateTable('ieo_projects').set({ listed_at: at }).where('id', '=', id).execute();
    await saveAll(trx, { ...project, listed_at: at }, changed, at);
    return true;
  });
}

async function unlockProject(s: IeoServices, id: number, at: number): Promise<boolean> {
  return writeTransaction(s.database, async (trx) => {
    const project = await lockedProject(s, trx, id);
    if (project.unlocked_at !== null || project.listed_at === null) return false;
    const locked = await subscriptionsIn(trx, id, 'locked');
    const releases: BatchRequest[] = [];
    for (const sub of locked) {
      if (sub.lock_hold_id === null) continue;
      releases.push({
        op: 'voidHold',
        userId: sub.user_id,
        requestId: ieoLedgerIds.unlock(sub.id),
        holdId: sub.lock_hold_id,
      });
    }
    await s.ledger.within(trx).settleBatch(releases);
    await withIeo(trx).updateTable('ieo_projects').set({ unlocked_at: at }).where('id', '=', id).execute();
    await saveAll(
      trx,
      { ...project, unlocked_at: at },
      locked.map((sub) => ({ ...sub, phase: 'unlocked' })),
      at,
    );
    return true;
  });
}

/** The steps as a cluster job: one process at a time, every few seconds (each step is due at its project's time). */
export function ieoStepsJob(s: IeoServices, everyMs = 5_000): Job {
  return {
    name: 'ieo-steps',
    scope: 'cluster',
    everyMs,
    run: async (round) => {
      if (!round.leading) return;
      await runIeoSteps(s);
    },
  };
}
