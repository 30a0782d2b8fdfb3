import type { alertCalls } from '../../../protocol/alerts';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { type AlertServices, createAlert, deleteAlert, listAlerts } from './alerts';

/** The alert calls: each reads and changes only the session user's own alerts. */
export function alertHandlers(s: AlertServices): CallHandlers<typeof alertCalls> {
  return {
    'alerts/create': async (input, ctx) => createAlert(s, requireSession(ctx).userId, input),
    'alerts/list': async (_input, ctx) => listAlerts(s, requireSession(ctx).userId),
    'alerts/delete': async (input, ctx) => {
      await deleteAlert(s, requireSession(ctx).userId, input.id);
      return {};
    },
  };
}
