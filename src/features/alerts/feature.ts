import type strings from '../../../locales/en/alerts.json';
import type { Feature } from '../../lib/feature';

/**
 * Price alerts (RULES "Price alerts"): the list of the user's alerts is its one page (reached from Settings); the bell
 * that sets one is mounted by the market list and the chart through public.ts, and the notice of a fired alert is
 * loaded by the shell when one arrives (src/data/account-events.ts).
 */
export const alerts: Feature = {
  namespace: 'alerts',
  pages: [{ path: '/pages/alerts/index', load: () => import('./pages/alerts/index'), auth: true }],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    alerts: typeof strings;
  }
}
