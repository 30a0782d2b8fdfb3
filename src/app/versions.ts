import { STORE_VERSION } from '../state/settings';

/** SPEC 9: the parts disagree on the version; all are kept and shown under About. */
export const VERSIONS = {
  config: '1.9.2',
  app: '2.5.8',
  appCode: 258,
  store: STORE_VERSION,
} as const;
