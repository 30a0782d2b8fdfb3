import { inspectionCalls, type TracedMachine, type TraceStep } from '../../protocol/inspection';
import { areaApi } from './client';

const { callApi } = areaApi(inspectionCalls);

/**
 * Reports steps of one order actor (qa/trace). Diagnostics: no loading bar, no toast, no login redirect, and a
 * failure is only the steps lost (the order itself never depends on them).
 */
export async function reportTrace(
  machine: TracedMachine,
  order: number,
  actor: string,
  steps: readonly TraceStep[],
): Promise<boolean> {
  const data = await callApi(
    'qa/trace',
    { machine, order: String(order), actor, steps: JSON.stringify(steps) },
    { loading: false, quiet: true },
  );
  return data !== false;
}
