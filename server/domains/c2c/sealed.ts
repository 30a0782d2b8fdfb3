import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { CardVault, SealedData } from '../bank-cards';
import { withC2c } from './tables';

/**
 * The C2C payment details sealed under the data key (ads' methods, orders' chosen method), for `data-key rotate` and
 * `data-key check`: the rotation must move them to the new key in its own transaction, with the bank cards, or they
 * no longer open afterwards.
 */
export async function resealC2cPayDetails(trx: Kysely<Database>, from: CardVault, to: CardVault): Promise<number> {
  const ads = await withC2c(trx)
    .selectFrom('c2c_ads')
    .select(['id', 'merchant_id', 'pay_methods_enc'])
    .orderBy('id')
    .execute();
  for (const ad of ads) {
    const plain = from.open('c2c_pay_methods', ad.merchant_id, ad.pay_methods_enc);
    await withC2c(trx)
      .updateTable('c2c_ads')
      .set({ pay_methods_enc: to.seal('c2c_pay_methods', ad.merchant_id, plain) })
      .where('id', '=', ad.id)
      .execute();
  }
  const orders = await withC2c(trx)
    .selectFrom('c2c_orders')
    .select(['id', 'merchant_id', 'pay_info_enc'])
    .orderBy('id')
    .execute();
  for (const order of orders) {
    const plain = from.open('c2c_pay_info', order.merchant_id, order.pay_info_enc);
    await withC2c(trx)
      .updateTable('c2c_orders')
      .set({ pay_info_enc: to.seal('c2c_pay_info', order.merchant_id, plain) })
      .where('id', '=', order.id)
      .execute();
  }
  return ads.length + orders.length;
}

/** Opens every sealed C2C value with `vault`; returns the ones that do not open (`c2c_ads 3`, `c2c_orders 7`). */
export async function checkC2cPayDetails(
  db: Kysely<Database>,
  vault: CardVault,
): Promise<{ total: number; failed: string[] }> {
  const failed: string[] = [];
  const ads = await withC2c(db).selectFrom('c2c_ads').select(['id', 'merchant_id', 'pay_methods_enc']).execute();
  for (const ad of ads) {
    try {
      vault.open('c2c_pay_methods', ad.merchant_id, ad.pay_methods_enc);
    } catch {
      failed.push(`c2c_ads ${ad.id}`);
    }
  }
  const orders = await withC2c(db).selectFrom('c2c_orders').select(['id', 'merchant_id', 'pay_info_enc']).execute();
  for (const order of orders) {
    try {
      vault.open('c2c_pay_info', order.merchant_id, order.pay_info_enc);
    } catch {
      failed.push(`c2c_orders ${order.id}`);
    }
  }
  return { total: ads.length + orders.length, failed };
}

/** The C2C payment details as `data-key rotate` and `check` move and open them. */
export const c2cSealedData: SealedData = {
  label: 'C2C payment detail(s)',
  reseal: resealC2cPayDetails,
  check: checkC2cPayDetails,
};
