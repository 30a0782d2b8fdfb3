import type { ieoCalls } from '../../../protocol/ieo';
import { cursorPage } from '../../platform/db/paging';
import { BusinessError } from '../../platform/errors';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { applyIeo, type IeoServices } from './apply';
import { payIeo } from './pay';
import { orderWire, ownOrders, projectById, projectWire, subscribedTotals } from './projects';
import { withIeo } from './tables';

/**
 * IEO calls. Projects are public; a subscription exists only for its owner. No call (and no operator command) sets an
 * allotment: it comes from the subscriptions and the published rule only.
 */
export function ieoHandlers(s: IeoServices): CallHandlers<typeof ieoCalls> {
  const db = s.database.db;
  return {
    'ieo/list': async (input) => {
      const limit = input.limit ?? 20;
      const rows = await withIeo(db)
        .selectFrom('ieo_projects')
        .selectAll()
        .$if(input.before_id !== undefined, (qb) => qb.where('id', '<', input.before_id ?? 0))
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const { page, next_before_id } = cursorPage(rows, limit);
      const totals = await subscribedTotals(
        db,
        page.map((r) => r.id),
      );
      const at = s.now();
      return { projects: page.map((row) => projectWire(row, totals.get(row.id) ?? 0n, at)), next_before_id };
    },
    'ieo/detail': async (input, ctx) => {
      const row = await projectById(db, input.id);
      if (!row) throw new BusinessError('ieoProjectNotFound', { field: 'id' });
      const totals = await subscribedTotals(db, [row.id]);
      const mine = ctx.session
        ? await withIeo(db)
            .selectFrom('ieo_subscriptions')
            .selectAll()
            .where('project_id', '=', row.id)
            .where('user_id', '=', ctx.session.userId)
            .executeTakeFirst()
        : undefined;
      return {
        project: projectWire(row, totals.get(row.id) ?? 0n, s.now()),
        order: mine ? orderWire(mine, row) : null,
      };
    },
    'ieo/apply': (input, ctx) => applyIeo(s, requireSession(ctx).userId, input),
    'ieo/myApply': async (input, ctx) => {
      const limit = input.limit ?? 20;
      const orders = await ownOrders(db, requireSession(ctx).userId, { limit: limit + 1, before_id: input.before_id });
      const { page, next_before_id } = cursorPage(orders, limit);
      return { orders: page, next_before_id };
    },
    'ieo/order': async (input, ctx) => {
      const userId = requireSession(ctx).userId;
      const sub = await withIeo(db)
        .selectFrom('ieo_subscriptions')
        .selectAll()
        .where('id', '=', input.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const project = sub ? await projectById(db, sub.project_id) : undefined;
      if (!sub || !project) throw new BusinessError('ieoOrderNotFound', { field: 'id' });
      return orderWire(sub, project);
    },
    'ieo/pay': (input, ctx) => payIeo(s, requireSession(ctx).userId, input.id),
  };
}
