import type { Kysely } from 'kysely';
import { recordAudit } from './audit';
import { handleOf } from './db/connect';
import type { Database } from './db/schema';
import { writeTransaction } from './db/transaction';

/**
 * Platform settings (`platform_settings`: one text value per key), read by the products for their terms in force and
 * written only by operators' commands, each change audited with its previous value in the same transaction.
 */

export async function readSetting(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('platform_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export interface SettingChange {
  key: string;
  value: string;
  /** The audit action, e.g. 'lever_terms.set'. */
  action: string;
  /** What the audit log keeps of the change (the previous and the new value). */
  detail: Record<string, unknown>;
  operator?: string | undefined;
  now?: (() => number) | undefined;
}

/** Stores a setting and its audit record in one transaction. */
export async function writeSetting(db: Kysely<Database>, change: SettingChange): Promise<void> {
  const at = (change.now ?? Date.now)();
  await writeTransaction(handleOf(db), async (trx) => {
    await trx.deleteFrom('platform_settings').where('key', '=', change.key).execute();
    await trx.insertInto('platform_settings').values({ key: change.key, value: change.value }).execute();
    await recordAudit(trx, {
      action: change.action,
      subjectType: 'platform_setting',
      subjectId: change.key,
      detail: change.detail,
      ...(change.operator ? { operator: change.operator } : {}),
      at,
    });
  });
}

/**
 * A place the app links to that an operator may move outside (customer service, C2C): the app's own page unless an
 * outside https address is set.
 */
export interface OutsideUrl {
  key: string;
  /** The app's own page. */
  internal: string;
  /** The audit action of a change. */
  action: string;
}

export async function readOutsideUrl(
  db: Kysely<Database>,
  place: OutsideUrl,
): Promise<{ url: string; internal: boolean }> {
  const outside = await readSetting(db, place.key);
  return outside ? { url: outside, internal: false } : { url: place.internal, internal: true };
}

/** Sets (or with null clears) the outside address of `place`: https only; audited with the previous value. */
export async function writeOutsideUrl(
  db: Kysely<Database>,
  place: OutsideUrl,
  url: string | null,
  operator?: string,
): Promise<void> {
  if (url !== null) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('not a URL');
    }
    if (parsed.protocol !== 'https:') throw new Error('the address must use https');
  }
  const previous = (await readSetting(db, place.key)) ?? '';
  await writeSetting(db, {
    key: place.key,
    value: url ?? '',
    action: place.action,
    detail: { previous, value: url ?? '' },
    operator,
  });
}
