import type { Kysely, Selectable } from 'kysely';
import {
  IEO_COIN_SCALE,
  IEO_PAY_CURRENCY,
  type IeoOrder,
  type IeoProject,
  type IeoProjectState,
  IPO_STATUS_OF_PHASE,
} from '../../../protocol/ieo';
import { fromUnits } from '../../../protocol/rules/spot';
import { formatAmount } from '../../ledger';
import type { Database } from '../../platform/db/schema';
import type { IeoProjectsTable, IeoSubscriptionsTable } from './tables';
import { withIeo } from './tables';

export type IeoProjectRow = Selectable<IeoProjectsTable>;
export type IeoSubscriptionRow = Selectable<IeoSubscriptionsTable>;

const coinAmount = (units: number | bigint) => fromUnits(BigInt(units), IEO_COIN_SCALE);

/** The list state of SPEC 4 "New-coin subscription" at `at` (see IEO_PROJECT_STATES for the mapping). */
export function projectState(row: IeoProjectRow, at: number): IeoProjectState {
  if (at < row.starts_at) return 'upcoming';
  if (at < row.ends_at) return 'subscribing';
  if (row.allotted_at === null) return 'under_review';
  return (row.demand ?? 0) >= row.supply ? 'sold_out' : 'passed';
}

export function projectWire(row: IeoProjectRow, subscribed: bigint, at: number): IeoProject {
  return {
    id: row.id,
    coin: row.coin,
    name: row.name,
    description: row.description,
    scale: IEO_COIN_SCALE,
    pay_currency: IEO_PAY_CURRENCY,
    ieo_price: row.ieo_price,
    listing_price: row.listing_price,
    total_supply: row.total_supply,
    circulating_supply: row.circulating_supply,
    supply: coinAmount(row.supply),
    user_cap: coinAmount(row.user_cap),
    subscribed: coinAmount(subscribed),
    state: projectState(row, at),
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    allot_at: row.allot_at,
    pay_until: row.pay_until,
    list_at: row.list_at,
    unlock_at: row.unlock_at,
    allotted_at: row.allotted_at,
    listed_at: row.listed_at,
    unlocked_at: row.unlocked_at,
  };
}

export function orderWire(sub: IeoSubscriptionRow, project: IeoProjectRow): IeoOrder {
  const paid = sub.phase === 'paid' || sub.phase === 'locked' || sub.phase === 'unlocked';
  return {
    id: sub.id,
    sn: `I${String(sub.id).padStart(8, '0')}`,
    project_id: project.id,
    coin: project.coin,
    name: project.name,
    description: project.description,
    scale: IEO_COIN_SCALE,
    listing_price: project.listing_price,
    ieo_price: project.ieo_price,
    total_supply: project.total_supply,
    circulating_supply: project.circulating_supply,
    quantity: coinAmount(sub.asked),
    allotment_quantity: sub.allotted === null ? null : coinAmount(sub.allotted),
    pending_quantity: sub.allotted === null ? null : coinAmount(BigInt(sub.asked) - BigInt(sub.allotted)),
    payment: sub.payment === null ? null : formatAmount(IEO_PAY_CURRENCY, sub.payment),
    success_pay: paid && sub.payment !== null ? formatAmount(IEO_PAY_CURRENCY, sub.payment) : null,
    ipo_status: IPO_STATUS_OF_PHASE[sub.phase],
    phase: sub.phase,
    apply_time: sub.created_at,
    allotment_date: project.allot_at,
    pay_date: project.pay_until,
    listing_date: project.list_at,
    lock_date: project.unlock_at,
    paid_at: sub.paid_at,
    request_id: sub.request_id,
  };
}

/** Everything subscribed to each project (asks are capped when subscribing). */
export async function subscribedTotals(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, bigint>> {
  if (ids.length === 0) return new Map();
  const rows = await withIeo(db)
    .selectFrom('ieo_subscriptions')
    .select(['project_id', 'asked'])
    .where('project_id', 'in', ids)
    .execute();
  const totals = new Map<number, bigint>();
  for (const r of rows) totals.set(r.project_id, (totals.get(r.project_id) ?? 0n) + BigInt(r.asked));
  return totals;
}

export function projectById(db: Kysely<Database>, id: number) {
  return withIeo(db).selectFrom('ieo_projects').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The caller's subscriptions with their projects, newest first. */
export async function ownOrders(
  db: Kysely<Database>,
  userId: number,
  query: { limit?: number | undefined; before_id?: number | undefined } = {},
): Promise<IeoOrder[]> {
  const subs = await withIeo(db)
    .selectFrom('ieo_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(query.before_id !== undefined, (qb) => qb.where('id', '<', query.before_id ?? 0))
    .orderBy('id', 'desc')
    .$if(query.limit !== undefined, (qb) => qb.limit(query.limit ?? 0))
    .execute();
  const projectIds = [...new Set(subs.map((s) => s.project_id))];
  const projects = projectIds.length
    ? await withIeo(db).selectFrom('ieo_projects').selectAll().where('id', 'in', projectIds).execute()
    : [];
  const byId = new Map(projects.map((p) => [p.id, p]));
  return subs.flatMap((s) => {
    const project = byId.get(s.project_id);
    return project ? [orderWire(s, project)] : [];
  });
}
