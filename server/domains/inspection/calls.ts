import type { inspectionCalls } from '../../../protocol/inspection';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { type InspectionServices, recordTrace } from './traces';

/** qa/trace: the app reports its order actors' steps (each for one of the caller's own orders). */
export function inspectionHandlers(s: InspectionServices): CallHandlers<typeof inspectionCalls> {
  return {
    'qa/trace': async (input, ctx) => {
      await recordTrace(s, requireSession(ctx).userId, input);
      return {};
    },
  };
}
