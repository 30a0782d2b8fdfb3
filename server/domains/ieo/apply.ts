import type { z } from 'zod/mini';
import { IEO_COIN_SCALE, IEO_ORDER_EVENT, type ieoApplyRequest } from '../../../protocol/ieo';
import { toUnits } from '../../../protocol/rules/spot';
import type { Ledger } from '../../ledger';
import type { DatabaseHandle } from '../../platform/db/connect';
import { isUniqueViolation } from '../../platform/db/connect';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { recordUserEvent } from '../../platform/realtime/user-events';
import { confirmClaimedRequest } from '../../platform/request-ids';
import { sha256 } from '../../platform/security/digest';
import { orderWire, projectById } from './projects';
import { withIeo } from './tables';

export type IeoApplyInput = z.output<typeof ieoApplyRequest>;

export interface IeoServices {
  database: DatabaseHandle;
  ledger: Ledger;
  now: () => number;
}

/**
 * ieo/apply: one subscription per user and project while its window is open, at most the per-user cap. Nothing is
 * held yet: money moves only when an allotted user pays. A retry with the same request id returns the same order.
 */
export async function applyIeo(s: IeoServices, userId: number, input: IeoApplyInput) {
  const { db } = s.database;
  const project = await projectById(db, input.project_id);
  if (!project) throw new BusinessError('ieoProjectNotFound', { field: 'project_id' });
  const digest = sha256(JSON.stringify([input.project_id, input.quantity]));
  const earlier = await withIeo(db)
    .selectFrom('ieo_subscriptions')
    .selectAll()
    .where('project_id', '=', project.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (earlier) {
    if (earlier.request_id === input.request_id && earlier.request_digest === digest) {
      return orderWire(earlier, project);
    }
    throw new BusinessError('ieoAlreadySubscribed', { field: 'project_id' });
  }
  const at = s.now();
  if (at < project.starts_at || at >= project.ends_at) {
    throw new BusinessError('ieoNotSubscribing', { field: 'project_id' });
  }
  const units = toUnits(input.quantity, IEO_COIN_SCALE);
  if (units === null) throw new BusinessError('amountTooPrecise', { field: 'quantity' });
  if (units <= 0n) throw new BusinessError('amountNotPositive', { field: 'quantity' });
  if (units > BigInt(project.user_cap)) throw new BusinessError('ieoAboveCap', { field: 'quantity' });
  try {
    const row = await writeTransaction(s.database, async (trx) => {
      // Checked again under the project's lock (shared on PostgreSQL; the allotment locks it for update): a
      // subscription that arrives as the window closes is either in the allotment or refused, never left behind.
      const current = await withIeo(trx)
        .selectFrom('ieo_projects')
        .select(['allotted_at', 'ends_at'])
        .where('id', '=', project.id)
        .$if(s.database.kind === 'postgres', (qb) => qb.forShare())
        .executeTakeFirstOrThrow();
      if (current.allotted_at !== null || s.now() >= current.ends_at) {
        throw new BusinessError('ieoNotSubscribing', { field: 'project_id' });
      }
      // With the effect: a success always leaves its request-id claim confirmed (platform/request-ids).
      await confirmClaimedRequest(trx, userId);
      const inserted = await withIeo(trx)
        .insertInto('ieo_subscriptions')
        .values({
          project_id: project.id,
          user_id: userId,
          asked: Number(units),
          allotted: null,
          payment: null,
          phase: 'subscribed',
          pay_hold_id: null,
          lock_hold_id: null,
          request_id: input.request_id,
          request_digest: digest,
          paid_at: null,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordUserEvent(trx, { userId, kind: IEO_ORDER_EVENT, data: orderWire(inserted, project), at });
      return inserted;
    });
    return orderWire(row, project);
  } catch (err) {
    // Two subscriptions sent at once: the unique key keeps one.
    if (isUniqueViolation(err)) throw new BusinessError('ieoAlreadySubscribed', { field: 'project_id' });
    throw err;
  }
}
