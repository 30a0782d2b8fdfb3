import { z } from 'zod/mini';
import { call, emptyResponse, none } from './call-spec';
import { optionalTextField, recordIdField } from './fields';
import { decimalString, symbolField } from './market';
import { hexHash } from './price-record';

/**
 * Price alerts (RULES.md "Price alerts"): the user names an instrument, a side and a price; the server checks every
 * recorded tick of that instrument after the alert was created and fires it once, on the first tick at or above
 * (`above`) or at or below (`below`) its price, naming that tick. An alert created on the wrong side of the current
 * price fires on the next tick. Alerts never move money.
 */

export const ALERT_SIDES = ['above', 'below'] as const;
export type AlertSide = (typeof ALERT_SIDES)[number];
/** `active` until its tick comes, then `fired` for good. */
export const ALERT_STATES = ['active', 'fired'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** Most active alerts one user may keep: enough for a watch list, few enough that checking them stays cheap. */
export const MAX_ACTIVE_ALERTS = 50;
/** Most fired alerts alerts/list gives (newest first) besides every active one. */
export const FIRED_ALERTS_LISTED = 50;

/** The recorded tick that fired an alert, with the price record's batch that seals it (RULES "Common ground"). */
export const alertTick = z.object({
  seq: z.number().check(z.int()),
  ts: z.number().check(z.int()),
  price: decimalString,
  /** The price record's batch sealing the tick and that batch's hash (market/chain/record re-checks it); null if unsealed. */
  batch_id: z.nullable(z.number().check(z.int(), z.positive())),
  hash: z.nullable(hexHash),
});
export type AlertTick = z.infer<typeof alertTick>;

export const priceAlert = z.object({
  id: z.number().check(z.int()),
  symbol: z.string(),
  /** The currency its price is in (the instrument's quote: USDT for coins, USD for stocks). */
  quote: z.string(),
  side: z.enum(ALERT_SIDES),
  /** Exact decimal text on the instrument's price step. */
  price: decimalString,
  state: z.enum(ALERT_STATES),
  created_at: z.number().check(z.int()),
  /** The tick that fired it; null while active. */
  fired: z.nullable(alertTick),
});
export type PriceAlert = z.infer<typeof priceAlert>;

/**
 * alerts/create. `price` is checked by the server against the instrument's step (message keys of the alerts domain);
 * it may be on either side of the current price.
 */
export const createAlertRequest = z.object({
  symbol: symbolField,
  side: z.enum(ALERT_SIDES, { error: 'invalidInput' }),
  price: optionalTextField(40),
});
export const deleteAlertRequest = z.object({ id: recordIdField });
export const alertsResponse = z.array(priceAlert);

/** The user event (and `me:alerts` update) of an alert that fired carries the alert with its tick. */
export { ALERT_FIRED_EVENT } from './account-events';
export const ALERTS_TOPIC = 'alerts' as const;
/** `me:alerts`: the user's alerts at subscription, then each alert as it fires. */
export const alertsTopicMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('snapshot'), alerts: alertsResponse }),
  z.object({ kind: z.literal('fired'), alert: priceAlert }),
]);
export type AlertsTopicMessage = z.infer<typeof alertsTopicMessage>;

export const alertCalls = {
  'alerts/create': call('POST', true, createAlertRequest, priceAlert),
  /** Every active alert of the user, then the newest fired ones (FIRED_ALERTS_LISTED), newest first in each. */
  'alerts/list': call('GET', true, none, alertsResponse),
  'alerts/delete': call('POST', true, deleteAlertRequest, emptyResponse),
} as const;
