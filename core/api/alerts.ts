import { type AlertSide, alertCalls, type PriceAlert } from '../../protocol/alerts';
import { areaApi, type CallOptions, type Refusal, refusal } from './client';

const { callApi, callApiResult } = areaApi(alertCalls);

/** The user's price alerts: every active one, then the newest fired (protocol/alerts.ts); false when the call failed. */
export function fetchAlerts(opts: CallOptions = { loading: false }): Promise<PriceAlert[] | false> {
  return callApi('alerts/list', {}, opts);
}

export type AlertResult = { ok: true; alert: PriceAlert } | Refusal;

/** Sets an alert. Quiet: the sheet shows a refusal beside the field it names instead of a toast. */
export async function createAlert(symbol: string, side: AlertSide, price: string): Promise<AlertResult> {
  const r = await callApiResult('alerts/create', { symbol, side, price }, { quiet: true });
  return r.ok ? { ok: true, alert: r.data } : refusal(r);
}

/** Deletes one of the user's alerts (active or fired); a refusal (gone meanwhile) is toasted. */
export async function deleteAlert(id: number): Promise<boolean> {
  return (await callApiResult('alerts/delete', { id: String(id) })).ok;
}
