import { z } from 'zod';
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
  order: z.number().int(),
  user_id: z.number().int(),
  actors: z.number().int(),
  steps: z.number().int(),
  last_at: z.number().int(),
});
export type TracedOrder = z.infer<typeof tracedOrder>;

/** ops/qa/orders: the traced orders of a user (id, e-mail or phone), of one order, or the newest of all. */
export const tracedOrdersRequest = z.object({
  user: z.string().trim().max(254, { error: 'invalidInput' }).optional(),
  machine: z.enum(TRACED_MACHINES, { error: 'invalidInput' }).optional(),
  order: recordIdField.optional(),
});

export const tracedActor = z.object({
  actor: z.string(),
  steps: z.array(
    traceStep.extend({
      /** The server's row id: the console asks for what came after the last one it has. */
      id: z.number().int(),
      received_at: z.number().int(),
    }),
  ),
});
export type TracedActor = z.infer<typeof tracedActor>;

/** ops/qa/trace: every kept step of one order's actors, or those after `after` (the console's live view). */
export const orderTraceRequest = z.object({
  machine: z.enum(TRACED_MACHINES, { error: 'invalidInput' }),
  order: recordIdField,
  after: z
    .string()
    .regex(/^\d{1,10}$/, { error: 'invalidInput' })
    .transform(Number)
    .refine((n) => n <= RECORD_ID_MAX, { error: 'invalidInput' })
    .optional(),
});

export const opsInspectionCalls = {
  'ops/qa/orders': opsCall('GET', 'qa', tracedOrdersRequest, z.object({ items: z.array(tracedOrder) })),
  'ops/qa/trace': opsCall(
    'GET',
    'qa',
    orderTraceRequest,
    z.object({ order: tracedOrder.nullable(), actors: z.array(tracedActor) }),
  ),
} as const;
