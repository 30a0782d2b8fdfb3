import type { Kysely } from 'kysely';
import { recordAudit } from '../../platform/audit';
import { handleOf, isUniqueViolation } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { findUser } from '../account';
import { withC2c } from './tables';

/** A nickname buyers see: 2 to 32 letters, digits, spaces, dots, dashes or underscores, not blank at the ends. */
export const NICKNAME_RE = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,30}[\p{L}\p{N}._-]$/u;

export interface OperatorOptions {
  /** Who acts (recordAudit's default: OPS_OPERATOR or the OS user). */
  operator?: string | undefined;
  now?: (() => number) | undefined;
}

export type MerchantResult =
  | { ok: true; userId: number; nickname: string }
  | { ok: false; problem: 'no such user' | 'bad nickname' | 'nickname taken' | 'not a merchant' };

/**
 * Makes a user a merchant with a public nickname (or renames one, or takes a removed one back), audited in the same
 * transaction. Nicknames are unique regardless of case.
 */
export async function addMerchant(
  db: Kysely<Database>,
  who: string,
  nickname: string,
  options: OperatorOptions = {},
): Promise<MerchantResult> {
  const name = nickname.trim().replace(/\s+/g, ' ');
  if (!NICKNAME_RE.test(name)) return { ok: false, problem: 'bad nickname' };
  const user = await findUser(db, who);
  if (!user) return { ok: false, problem: 'no such user' };
  const at = (options.now ?? Date.now)();
  try {
    await writeTransaction(handleOf(db), async (trx) => {
      const before = await withC2c(trx)
        .selectFrom('c2c_merchants')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (before) {
        await withC2c(trx)
          .updateTable('c2c_merchants')
          .set({ nickname: name, active: 1, updated_at: at })
          .where('user_id', '=', user.id)
          .execute();
      } else {
        await withC2c(trx)
          .insertInto('c2c_merchants')
          .values({ user_id: user.id, nickname: name, active: 1, created_at: at, updated_at: at })
          .execute();
      }
      await recordAudit(trx, {
        action: 'c2c_merchant.add',
        subjectType: 'user',
        subjectId: user.id,
        detail: { nickname: name, before: before ? { nickname: before.nickname, active: before.active } : null },
        at,
        ...(options.operator ? { operator: options.operator } : {}),
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, problem: 'nickname taken' };
    throw err;
  }
  return { ok: true, userId: user.id, nickname: name };
}

/**
 * Ends a user's merchant status: their open ads close (no new orders); orders under way still finish, since their
 * coins are already in escrow. Audited with the ads it closed.
 */
export async function removeMerchant(
  db: Kysely<Database>,
  who: string,
  options: OperatorOptions = {},
): Promise<MerchantResult & { closedAds?: number }> {
  const user = await findUser(db, who);
  if (!user) return { ok: false, problem: 'no such user' };
  const at = (options.now ?? Date.now)();
  return writeTransaction(handleOf(db), async (trx) => {
    const row = await withC2c(trx)
      .selectFrom('c2c_merchants')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('active', '=', 1)
      .executeTakeFirst();
    if (!row) return { ok: false, problem: 'not a merchant' } as const;
    await withC2c(trx)
      .updateTable('c2c_merchants')
      .set({ active: 0, updated_at: at })
      .where('user_id', '=', user.id)
      .execute();
    const closed = await withC2c(trx)
      .updateTable('c2c_ads')
      .set({ state: 'closed', closed_at: at, updated_at: at })
      .where('merchant_id', '=', user.id)
      .where('state', '=', 'open')
      .returning('id')
      .execute();
    await recordAudit(trx, {
      action: 'c2c_merchant.remove',
      subjectType: 'user',
      subjectId: user.id,
      detail: { nickname: row.nickname, closed_ads: closed.map((r) => r.id) },
      at,
      ...(options.operator ? { operator: options.operator } : {}),
    });
    return { ok: true, userId: user.id, nickname: row.nickname, closedAds: closed.length } as const;
  });
}

/** Every merchant, active first, with their open ads. */
export async function listMerchants(db: Kysely<Database>) {
  const rows = await withC2c(db)
    .selectFrom('c2c_merchants')
    .selectAll()
    .orderBy('active', 'desc')
    .orderBy('user_id')
    .execute();
  const ads = await withC2c(db)
    .selectFrom('c2c_ads')
    .select(['merchant_id'])
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'open')
    .groupBy('merchant_id')
    .execute();
  const open = new Map(ads.map((a) => [a.merchant_id, Number(a.n)]));
  return rows.map((r) => ({
    userId: r.user_id,
    nickname: r.nickname,
    active: r.active === 1,
    openAds: open.get(r.user_id) ?? 0,
    since: r.created_at,
  }));
}

/**
 * The caller's merchant row while they are a merchant. `share` (PostgreSQL, inside a write): holds the row against a
 * removal until the caller's transaction ends, so an ad is never published after its merchant was removed.
 */
export function activeMerchant(db: Kysely<Database>, userId: number, share = false) {
  return withC2c(db)
    .selectFrom('c2c_merchants')
    .selectAll()
    .where('user_id', '=', userId)
    .where('active', '=', 1)
    .$if(share, (q) => q.forShare())
    .executeTakeFirst();
}
