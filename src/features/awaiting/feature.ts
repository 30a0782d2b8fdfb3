import type strings from '../../../locales/en/awaiting.json';
import type { Feature } from '../../lib/feature';

/**
 * What waits for the user across products (an IEO allotment to pay, a C2C order to pay or to release): no pages of
 * its own, a list other pages show through public.ts, with its strings loaded together with it.
 */
export const awaiting: Feature = {
  namespace: 'awaiting',
  pages: [],
};

declare module '../../lib/i18n' {
  /** This feature's table, so its keys type-check wherever its list translates them. */
  interface FeatureStrings {
    awaiting: typeof strings;
  }
}
