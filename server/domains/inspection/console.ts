import { opsInspectionCalls } from '../../../protocol/ops-inspection';
import { type OpsSection, opsSection } from '../operators';
import { type InspectionServices, orderTrace, tracedOrders } from './traces';

/** The console's live inspection (role qa): traced orders, and one order's actors step by step. Read only. */
export function inspectionConsoleSection(s: InspectionServices): OpsSection {
  return opsSection(opsInspectionCalls, {
    'ops/qa/orders': async (input) => ({ items: await tracedOrders(s, input) }),
    'ops/qa/trace': async (input) => orderTrace(s, input.machine, input.order, input.after),
  });
}
