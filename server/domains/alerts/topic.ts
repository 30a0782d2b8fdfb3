import {
  ALERT_FIRED_EVENT,
  ALERTS_TOPIC,
  type AlertsTopicMessage,
  alertsTopicMessage,
  priceAlert,
} from '../../../protocol/alerts';
import type { PrivateTopic } from '../../platform/realtime/private-topics';
import { type AlertServices, listAlerts } from './alerts';

/** The private `alerts` topic: the user's alerts, then each one as it fires (with the tick that fired it). */
export function alertsTopic(s: Pick<AlertServices, 'database'>): PrivateTopic<AlertsTopicMessage> {
  return {
    name: ALERTS_TOPIC,
    schema: alertsTopicMessage,
    summary: 'Price alerts: all of them, then each alert as it fires, naming the recorded tick that fired it.',
    snapshot: async (userId) => ({ kind: 'snapshot', alerts: await listAlerts(s, userId) }),
    events: [ALERT_FIRED_EVENT],
    fromEvent: (_kind, data) => ({ kind: 'fired', alert: priceAlert.parse(data) }),
  };
}
