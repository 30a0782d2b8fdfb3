import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { type OutsideUrl, readOutsideUrl, writeOutsideUrl } from '../../platform/settings';

/** Where C2C lives (set/get_otc_url): the app's own pages unless an operator set an outside URL. */
export const OTC_URL_KEY = 'c2c.otc_url';
export const INTERNAL_OTC_URL = '/pages/assets/c2c/index';
const OTC: OutsideUrl = { key: OTC_URL_KEY, internal: INTERNAL_OTC_URL, action: 'c2c_otc_url.set' };

export const otcUrl = (db: Kysely<Database>) => readOutsideUrl(db, OTC);

/** Sets (or with null clears) the outside C2C URL; https only; audited with the previous value. */
export const setOtcUrl = (db: Kysely<Database>, url: string | null, operator?: string) =>
  writeOutsideUrl(db, OTC, url, operator);
