import type { Job } from '../../platform/jobs/runner';
import type { C2cOrderRow } from './services';
import { withC2c } from './tables';
import { type C2cMoneyServices, moveOrder } from './transitions';

/** Orders read per scan; each expires in a transaction of its own. */
const BATCH = 500;

export interface ExpiryOptions {
  /** Server time the windows are judged at (default now). */
  at?: number;
  stillLeading?: () => boolean;
  batch?: number;
  /** Called inside each order's transaction after its writes, before commit (the crash test stops a process there). */
  insideOrder?: (row: C2cOrderRow, n: number) => Promise<void>;
}

/**
 * Cancels every paying order whose window has ended (status 1, pay_until <= at: SPEC 9, RULES "C2C") and returns
 * its escrow to the merchant, one order per transaction. Each is the same conditional move as a user's (moveOrder),
 * so an order the buyer paid or cancelled a moment earlier is left alone, a round repeated after a crash or run by two
 * processes at once expires each order once, and a round killed midway leaves the orders it did not commit paying
 * for the next round. Returns how many orders it expired.
 */
export async function expireC2cOrders(s: C2cMoneyServices, options: ExpiryOptions = {}): Promise<number> {
  const { db } = s.database;
  const at = options.at ?? s.now();
  const now = () => at;
  let afterId = 0;
  let expired = 0;
  const failures: unknown[] = [];
  for (;;) {
    if (options.stillLeading && !options.stillLeading()) break;
    const due = await withC2c(db)
      .selectFrom('c2c_orders')
      .select('id')
      .where('status', '=', 1)
      .where('pay_until', '<=', at)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(options.batch ?? BATCH)
      .execute();
    if (due.length === 0) break;
    afterId = due.at(-1)?.id ?? afterId;
    for (const { id } of due) {
      if (options.stillLeading && !options.stillLeading()) break;
      const n = expired + 1;
      try {
        const { changed } = await moveOrder(
          { ...s, now },
          {
            id,
            action: 'expire',
            actor: 'system',
            ...(options.insideOrder
              ? { inside: (row: C2cOrderRow) => options.insideOrder?.(row, n) ?? Promise.resolve() }
              : {}),
          },
        );
        if (changed) expired += 1;
      } catch (err) {
        // A paid or cancelled order is not an error (moveOrder leaves it); anything else is reported after the round,
        // without holding back the other orders.
        if (err instanceof Error && 'key' in err && err.key === 'c2cWrongStatus') continue;
        failures.push(err);
      }
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `c2c expiry: ${failures.length} order(s) failed`);
  return expired;
}

/** The expiry as a cluster job: one process at a time, every few seconds. */
export function c2cExpiryJob(s: C2cMoneyServices, everyMs = 5_000): Job {
  return {
    name: 'c2c-expiry',
    scope: 'cluster',
    everyMs,
    run: async (round) => {
      if (!round.leading) return;
      await expireC2cOrders(s, { stillLeading: round.stillLeading });
    },
  };
}
