import { z } from 'zod/mini';
import { RECORD_ID_MAX, recordIdField } from './fields';
import { TRACED_MACHINES, traceStep } from './inspection';
import { opsCall } from './ops-console';

/**
 * The support console's live inspection (role qa): which orders have traces, and the steps of each actor of one
 * order, newest after a cursor so the console can follow an order as it moves.
 */

/** One traced order: which machine, whose, and when it last moved. */
export const tracedOrder = z.object({
  machine: z.enum(TRACED_MACHINES),
  order: z.number().check(z.int()),
  user_id: z.number().check(z.int()),
  actors: z.number().check(z.int()),
  steps: z.number().check(z.int()),
  last_at: z.number().check(z.int()),
});
export type TracedOrder = z.infer<typeof tracedOrder>;

/** ops/qa/orders: the traced orders of a user (id, e-mail or phone), of one order, or the newest of all. */
export const tracedOrdersRequest = z.object({
  user: z.optional(z.string().check(z.trim(), z.maxLength(254, { error: 'invalidInput' }))),
  machine: z.optional(z.enum(TRACED_MACHINES, { error: 'invalidInput' })),
  order: z.optional(recordIdField),
});

export const tracedActor = z.object({
  actor: z.string(),
  steps: z.array(
    z.extend(traceStep, {
      /** The server's row id: the console asks for what came after the last one it has. */
      id: z.number().check(z.int()),
      received_at: z.number().check(z.int()),
    }),
  ),
});
export type TracedActor = z.infer<typeof tracedActor>;

/** ops/qa/trace: every kept step of one order's actors, or those after `after` (the console's live view). */
export const orderTraceRequest = z.object({
  machine: z.enum(TRACED_MACHINES, { error: 'invalidInput' }),
  order: recordIdField,
  after: z.optional(
    z
      .pipe(z.string().check(z.regex(/^\d{1,10}$/, { error: 'invalidInput' })), z.transform(Number))
      .check(z.refine((n) => n <= RECORD_ID_MAX, { error: 'invalidInput' })),
  ),
});

export const opsInspectionCalls = {
  'ops/qa/orders': opsCall('GET', 'qa', tracedOrdersRequest, z.object({ items: z.array(tracedOrder) })),
  'ops/qa/trace': opsCall(
    'GET',
    'qa',
    orderTraceRequest,
    z.object({ order: z.nullable(tracedOrder), actors: z.array(tracedActor) }),
  ),
} as const;
