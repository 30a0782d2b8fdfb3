/** The public surface of this module: other code imports it only through this file. */

export { type AlertServices, alertOf, createAlert, deleteAlert, type InstrumentOf, listAlerts } from './alerts';
export { alertHandlers } from './calls';
export { ALERTS_CHECK_MS, alertsJob, type CheckOptions, type CheckResult, checkAlerts, crosses } from './check';
export { alertsDomain } from './domain';
export * from './migrations/0028_alerts';
export { type AlertsDb, type AlertsTables, type PriceAlertRow, withAlerts } from './tables';
export { alertsTopic } from './topic';
