/**
 * What index.html's inline first-paint script can call (scripts/first-paint.ts bundles this module as one IIFE naming
 * `__twPaint`): home's market list and a trading tab's price header, drawn from the page's market snapshot before the
 * app's scripts run, and the snapshot's own request for a page that came without one.
 */
export { fetchSnapshot, paintMarket } from './market';
export { paintTab, priceTab } from './trade-tab';
