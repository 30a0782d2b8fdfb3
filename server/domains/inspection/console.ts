import { opsInspectionCalls } from '../../../protocol/ops-inspection';
import { type OpsSection, opsSection } from '../operators';
import { type InspectionServices, orderTrace, tracedOrders } from './traces';

/**
 * The console's live inspection (role qa): traced orders, and one order's actors step by step. Read only; which users'
 * orders an operator looked at is audited (once per session each).
 */
export function inspectionConsoleSection(s: InspectionServices): OpsSection {
  return opsSection(
    opsInspectionCalls,
    {
      'ops/qa/orders': async (input) => ({ items: await tracedOrders(s, input) }),
      'ops/qa/trace': async (input) => orderTrace(s, input.machine, input.order, input.after),
    },
    [],
    {
      'ops/qa/orders': (input, result) => ({
        action: 'qa.orders_view',
        subjectType: 'actor_traces',
        subjectId: input.user ?? '*',
        detail: { orders: result.items.map((o) => `${o.machine}:${o.order}`) },
      }),
      'ops/qa/trace': (input) => ({
        action: 'qa.trace_view',
        subjectType: 'actor_traces',
        subjectId: `${input.machine}:${input.order}`,
      }),
    },
  );
}
