import type strings from '../../../locales/en/kline.json';
import type { Feature } from '../../lib/feature';

/**
 * One instrument's chart page (trade/kline): the chart with its indicators, the readout of the bar under the
 * crosshair, full screen, buy and sell from the chart, 24 h statistics and recent trades. Its own feature so that its
 * strings and the chart library load with this page only, not with every trading page that shows a market mark.
 */
export const kline: Feature = {
  namespace: 'kline',
  pages: [
    // The page shows the market feature's price and staleness marks, so it loads that table too.
    { path: '/pages/trade/kline', load: () => import('./pages/trade/kline'), borrows: ['market'] },
  ],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its pages translate them. */
  interface FeatureStrings {
    kline: typeof strings;
  }
}
