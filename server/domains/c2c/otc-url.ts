import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import { readSetting, writeSetting } from '../../platform/settings';

/** Where C2C lives (set/get_otc_url): the app's own pages unless an operator set an outside URL. */
export const OTC_URL_KEY = 'c2c.otc_url';
export const INTERNAL_OTC_URL = '/pages/assets/c2c/index';

export async function otcUrl(db: Kysely<Database>): Promise<{ url: string; internal: boolean }> {
  const outside = await readSetting(db, OTC_URL_KEY);
  return outside ? { url: outside, internal: false } : { url: INTERNAL_OTC_URL, internal: true };
}

/** Sets (or with null clears) the outside C2C URL; https only; audited with the previous value. */
export async function setOtcUrl(db: Kysely<Database>, url: string | null, operator?: string): Promise<void> {
  if (url !== null) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('not a URL');
    }
    if (parsed.protocol !== 'https:') throw new Error('the C2C URL must use https');
  }
  const previous = (await readSetting(db, OTC_URL_KEY)) ?? '';
  await writeSetting(db, {
    key: OTC_URL_KEY,
    value: url ?? '',
    action: 'c2c_otc_url.set',
    detail: { previous, value: url ?? '' },
    operator,
  });
}
