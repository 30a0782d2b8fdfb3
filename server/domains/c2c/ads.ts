import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import {
  C2C_FIATS,
  C2C_PAY_TYPES,
  type C2cAd,
  type C2cFiat,
  type C2cOwnAd,
  type C2cPayMethod,
  type c2cAdListRequest,
  type c2cAdSaveRequest,
} from '../../../protocol/c2c';
import {
  C2C_MAX_FIAT_CENTS,
  C2C_MAX_PRICE_UNITS,
  c2cAvailable,
  fiatCents,
  priceUnits,
} from '../../../protocol/rules/c2c';
import { toUnits } from '../../../protocol/rules/spot';
import { currencyScale, isCurrency, MAX_AMOUNT_UNITS } from '../../ledger';
import { cursorPage } from '../../platform/db/paging';
import type { Database } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { assertDataKey } from '../bank-cards';
import { activeMerchant } from './merchants';
import { adById, adWire, type C2cAdRow, type C2cServices, nicknames, ownAdWire, sealPayMethods } from './services';
import { withC2c } from './tables';

export type C2cAdSaveInput = z.output<typeof c2cAdSaveRequest>;
export type C2cAdListInput = z.output<typeof c2cAdListRequest>;

/** At most this many payment methods per ad (one per type). */
export const MAX_PAY_METHODS = C2C_PAY_TYPES.length;

/** Reads the ad's payment methods (a JSON array of {type, name, account, note}); refuses what is not complete. */
export function parsePayMethods(text: string): C2cPayMethod[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new BusinessError(text.trim() === '' ? 'c2cPayMethodsRequired' : 'c2cPayMethodInvalid', {
      field: 'pay_methods',
    });
  }
  if (!Array.isArray(raw)) throw new BusinessError('c2cPayMethodInvalid', { field: 'pay_methods' });
  if (raw.length === 0) throw new BusinessError('c2cPayMethodsRequired', { field: 'pay_methods' });
  if (raw.length > MAX_PAY_METHODS) throw new BusinessError('c2cPayMethodInvalid', { field: 'pay_methods' });
  const methods: C2cPayMethod[] = [];
  for (const item of raw) {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const text = (key: string) => (typeof entry[key] === 'string' ? (entry[key] as string).trim() : null);
    const type = text('type');
    if (type === null || !(C2C_PAY_TYPES as readonly string[]).includes(type)) {
      throw new BusinessError('c2cPayTypeInvalid', { field: 'pay_methods' });
    }
    const name = text('name');
    const account = text('account');
    const note = text('note') ?? '';
    if (!name || !account || name.length > 64 || account.length > 128 || note.length > 200) {
      throw new BusinessError('c2cPayMethodInvalid', { field: 'pay_methods' });
    }
    if (methods.some((m) => m.type === type)) throw new BusinessError('c2cPayMethodInvalid', { field: 'pay_methods' });
    methods.push({ type: type as C2cPayMethod['type'], name, account, note });
  }
  return methods;
}

/** The numbers of an ad, checked: price units, amount in coin units, limits in cents. */
function adTerms(input: C2cAdSaveInput) {
  if (!isCurrency(input.coin)) throw new BusinessError('currencyUnsupported', { field: 'coin' });
  const price = priceUnits(input.price);
  if (price === null) throw new BusinessError('amountTooPrecise', { field: 'price' });
  if (price <= 0n) throw new BusinessError('amountNotPositive', { field: 'price' });
  if (price > C2C_MAX_PRICE_UNITS) throw new BusinessError('amountTooLarge', { field: 'price' });
  const amount = toUnits(input.amount, currencyScale(input.coin));
  if (amount === null) throw new BusinessError('amountTooPrecise', { field: 'amount' });
  if (amount <= 0n) throw new BusinessError('amountNotPositive', { field: 'amount' });
  if (amount > BigInt(MAX_AMOUNT_UNITS)) throw new BusinessError('amountTooLarge', { field: 'amount' });
  const limit = (field: 'min_fiat' | 'max_fiat') => {
    const cents = fiatCents(input[field]);
    if (cents === null) throw new BusinessError('amountTooPrecise', { field });
    if (cents <= 0n) throw new BusinessError('amountNotPositive', { field });
    if (cents > C2C_MAX_FIAT_CENTS) throw new BusinessError('amountTooLarge', { field });
    return cents;
  };
  const min = limit('min_fiat');
  const max = limit('max_fiat');
  if (min > max) throw new BusinessError('c2cLimitOrder', { field: 'min_fiat' });
  return { price, amount, min, max, methods: parsePayMethods(input.pay_methods) };
}

/** An ad row locked for this transaction (PostgreSQL; SQLite's write transaction is exclusive). */
export function lockedAd(s: C2cServices, trx: Kysely<Database>, id: number) {
  return withC2c(trx)
    .selectFrom('c2c_ads')
    .selectAll()
    .where('id', '=', id)
    .$if(s.database.kind === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
}

/**
 * ctc/merchant/ad/save: a merchant publishes an ad, or changes an open one of their own. The part of the amount not
 * yet ordered must be in the merchant's coin account now (it is held order by order, not here). An edit keeps the
 * coin and currency (open orders were placed in them) and cannot go below what orders already took.
 */
export async function saveAd(s: C2cServices, userId: number, input: C2cAdSaveInput): Promise<C2cOwnAd> {
  const merchant = await activeMerchant(s.database.db, userId);
  if (!merchant) throw new BusinessError('c2cNotMerchant');
  const terms = adTerms(input);
  const at = s.now();
  const row = await writeTransaction(s.database, async (trx) => {
    // Sealed only under the database's data key (held shared on PostgreSQL, so a key rotation waits for this save).
    await assertDataKey(trx, s.vault, s.database.kind === 'postgres');
    // Again inside the write: a removal that committed meanwhile closed the merchant's ads and must win.
    if (!(await activeMerchant(trx, userId, s.database.kind === 'postgres'))) throw new BusinessError('c2cNotMerchant');
    let before: C2cAdRow | undefined;
    if (input.id !== undefined) {
      before = await lockedAd(s, trx, input.id);
      if (!before || before.merchant_id !== userId || before.state !== 'open') {
        throw new BusinessError('c2cAdNotFound', { field: 'id' });
      }
      if (before.coin !== input.coin || before.fiat !== input.fiat) {
        throw new BusinessError('c2cAdCoinFixed', { field: before.coin !== input.coin ? 'coin' : 'fiat' });
      }
      if (terms.amount < BigInt(before.taken)) throw new BusinessError('c2cAmountBelowOrdered', { field: 'amount' });
    }
    const open = terms.amount - BigInt(before?.taken ?? 0);
    const account = (await s.ledger.within(trx).balances(userId, 'real')).find(
      (b) => b.type === 'coin' && b.currency === input.coin,
    );
    if (BigInt(account?.available ?? 0) < open) throw new BusinessError('insufficientBalance', { field: 'amount' });
    const values = {
      price: Number(terms.price),
      amount: Number(terms.amount),
      min_fiat: Number(terms.min),
      max_fiat: Number(terms.max),
      pay_types: terms.methods.map((m) => m.type).join(','),
      pay_methods_enc: sealPayMethods(s.vault, userId, terms.methods),
      note: input.note ?? '',
      updated_at: at,
    };
    if (before) {
      return withC2c(trx)
        .updateTable('c2c_ads')
        .set(values)
        .where('id', '=', before.id)
        .where('state', '=', 'open')
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    return withC2c(trx)
      .insertInto('c2c_ads')
      .values({
        ...values,
        merchant_id: userId,
        coin: input.coin,
        fiat: input.fiat,
        taken: 0,
        sold: 0,
        state: 'open',
        created_at: at,
        closed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return ownAdWire(row, merchant.nickname, s.vault);
}

/** ctc/merchant/ad/close: no new orders on the ad; its open orders still finish. Closing twice answers the same. */
export async function closeAd(s: C2cServices, userId: number, id: number): Promise<C2cOwnAd> {
  const { db } = s.database;
  const row = await adById(db, id);
  if (!row || row.merchant_id !== userId) throw new BusinessError('c2cAdNotFound', { field: 'id' });
  const at = s.now();
  const closed =
    row.state === 'closed'
      ? row
      : ((await withC2c(db)
          .updateTable('c2c_ads')
          .set({ state: 'closed', closed_at: at, updated_at: at })
          .where('id', '=', id)
          .where('state', '=', 'open')
          .returningAll()
          .executeTakeFirst()) ?? (await adById(db, id)));
  if (!closed) throw new BusinessError('c2cAdNotFound', { field: 'id' });
  const names = await nicknames(db, [userId]);
  return ownAdWire(closed, names.get(userId) ?? '', s.vault);
}

/** ctc/merchant/ads: the merchant's own ads, newest first, with their payment details. */
export async function ownAds(s: C2cServices, userId: number): Promise<{ ads: C2cOwnAd[] }> {
  const { db } = s.database;
  const rows = await withC2c(db)
    .selectFrom('c2c_ads')
    .selectAll()
    .where('merchant_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  const names = await nicknames(db, [userId]);
  return { ads: rows.map((row) => ownAdWire(row, names.get(userId) ?? '', s.vault)) };
}

/**
 * ctc/product/list: open ads with coins left, best (lowest) price first, ties oldest first. The cursor is the last ad
 * of the previous page: the next page starts after it in the same order.
 */
export async function listAds(
  db: Kysely<Database>,
  input: C2cAdListInput,
): Promise<{ ads: C2cAd[]; next_before_id: number | null }> {
  const limit = input.limit ?? 20;
  const cursor = input.before_id === undefined ? undefined : await adById(db, input.before_id);
  const rows = await withC2c(db)
    .selectFrom('c2c_ads')
    .selectAll()
    .where('state', '=', 'open')
    .whereRef('taken', '<', 'amount')
    .$if(input.coin !== undefined, (qb) => qb.where('coin', '=', input.coin ?? ''))
    .$if(input.fiat !== undefined, (qb) => qb.where('fiat', '=', input.fiat ?? ''))
    .$if(cursor !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('price', '>', cursor?.price ?? 0),
          eb.and([eb('price', '=', cursor?.price ?? 0), eb('id', '>', cursor?.id ?? 0)]),
        ]),
      ),
    )
    .orderBy('price', 'asc')
    .orderBy('id', 'asc')
    .limit(limit + 1)
    .execute();
  const { page } = cursorPage(rows, limit);
  const names = await nicknames(
    db,
    page.map((r) => r.merchant_id),
  );
  return {
    ads: page.map((row) => adWire(row, names.get(row.merchant_id) ?? '')),
    next_before_id: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** ctc/product/all: the coins and currencies that have open ads with coins left (the list page's filters). */
export async function markets(db: Kysely<Database>): Promise<{ coins: string[]; fiats: C2cFiat[] }> {
  const rows = await withC2c(db)
    .selectFrom('c2c_ads')
    .select(['coin', 'fiat'])
    .distinct()
    .where('state', '=', 'open')
    .whereRef('taken', '<', 'amount')
    .execute();
  const coins = [...new Set(rows.map((r) => r.coin))].sort();
  const fiats = C2C_FIATS.filter((f) => rows.some((r) => r.fiat === f));
  return { coins, fiats };
}

/** ctc/product/info: one ad, open or closed. */
export async function adInfo(db: Kysely<Database>, id: number): Promise<C2cAd> {
  const row = await adById(db, id);
  if (!row) throw new BusinessError('c2cAdNotFound', { field: 'id' });
  const names = await nicknames(db, [row.merchant_id]);
  return adWire(row, names.get(row.merchant_id) ?? '');
}

/** Whether the ad still offers this many units (read under the ad's lock). */
export const adOffers = (ad: C2cAdRow, units: bigint) => c2cAvailable(BigInt(ad.amount), BigInt(ad.taken)) >= units;
