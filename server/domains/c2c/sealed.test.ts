import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../ledger';
import { writeTransaction } from '../../platform/db/transaction';
import { insertUser, openMemoryDatabase } from '../../testing';
import { CardVault } from '../bank-cards';
import { ownAds, saveAd } from './ads';
import { c2cServices } from './calls';
import { addMerchant } from './merchants';
import { addOrder, orderInfo } from './orders';
import { checkC2cPayDetails, resealC2cPayDetails } from './sealed';
import { withC2c } from './tables';

const SEPA = { type: 'sepa', name: 'Key Test', account: 'DE00 1111 2222', note: '' } as const;

describe('c2c payment details under the data key', async () => {
  const database = await openMemoryDatabase();
  afterAll(() => database.db.destroy());
  const ledger = new Ledger(database);
  const [keyA, keyB] = [randomBytes(32), randomBytes(32)];
  const under = (key: Uint8Array) => c2cServices({ database, ledger, now: () => 1_000_000, dataKey: key });

  it('are sealed per merchant, and a rotation moves ads and orders to the new key together', async () => {
    const merchantId = await insertUser(database);
    const buyerId = await insertUser(database);
    expect((await addMerchant(database.db, String(merchantId), 'Key Merchant')).ok).toBe(true);
    await ledger.credit({
      userId: merchantId,
      requestId: 'seed',
      kind: 'deposit',
      currency: 'USDT',
      amount: 1_000_000_000,
      from: 'deposits_clearing',
      to: 'coin',
    });
    const fields = { coin: 'USDT', fiat: 'EUR', price: '0.9', amount: '500', min_fiat: '10', max_fiat: '100' } as const;
    const ad = await saveAd(under(keyA), merchantId, {
      ...fields,
      pay_methods: JSON.stringify([SEPA]),
      note: undefined,
    });
    const order = await addOrder(under(keyA), buyerId, {
      ad_id: ad.id,
      quantity: '20',
      pay_type: 'sepa',
      request_id: 'k1',
    });
    expect(order.pay_info).toEqual(SEPA);
    // The stored text is ciphertext, and another key does not open it.
    const row = await withC2c(database.db).selectFrom('c2c_ads').select('pay_methods_enc').executeTakeFirstOrThrow();
    expect(row.pay_methods_enc).not.toContain(SEPA.account);
    await expect(ownAds(under(keyB), merchantId)).rejects.toThrow(/cannot be decrypted/);

    const moved = await writeTransaction(database, (trx) =>
      resealC2cPayDetails(trx, new CardVault(keyA), new CardVault(keyB)),
    );
    expect(moved).toBe(2);
    expect(await checkC2cPayDetails(database.db, new CardVault(keyB))).toEqual({ total: 2, failed: [] });
    expect(await checkC2cPayDetails(database.db, new CardVault(keyA))).toEqual({
      total: 2,
      failed: [`c2c_ads ${ad.id}`, `c2c_orders ${order.id}`],
    });
    expect((await ownAds(under(keyB), merchantId)).ads[0]?.pay_methods).toEqual([SEPA]);
    expect((await orderInfo(under(keyB), buyerId, order.id)).pay_info).toEqual(SEPA);
  });
});
