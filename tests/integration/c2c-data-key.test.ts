import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataKey, readKeyFile, runDataKeyCommand } from '../../server/domains/bank-cards';
import { addMerchant, c2cSealedData } from '../../server/domains/c2c';
import { parseAmount } from '../../server/ledger/amounts';
import { Ledger } from '../../server/ledger/ledger';
import { apiChecks } from './api-checks';
import { DATABASES, openTestDatabase, startTestApp, type TestApp, uniqueEmail } from './harness';

const SEPA = { type: 'sepa', name: 'Rotation GmbH', account: 'DE89370400440532013000', note: 'Commerzbank' };

/**
 * C2C payment details are sealed under the data key like bank cards: `data-key rotate` moves them in the same
 * transaction, so ads and orders still open under the new key, and `data-key check` opens them too.
 */
describe.each(DATABASES)('c2c payment details and the data key on %s', (kind) => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'c2c-key-'));
    dirs.push(dir);
    return dir;
  };

  it('rotates ads and orders with the bank cards and checks them', async () => {
    const database = await openTestDatabase(kind);
    const dataDir = path.join(tempDir(), 'data');
    const { key: oldKey } = loadDataKey({ dataDir });
    let app: TestApp = await startTestApp(database.handle, { dataKey: oldKey });
    const { ok } = apiChecks(() => app);
    try {
      const merchant = await app.registerByEmail(uniqueEmail('rot-merchant'));
      const buyer = await app.registerByEmail(uniqueEmail('rot-buyer'));
      expect((await addMerchant(app.db, String(merchant.user.id), 'Rotating Merchant', { operator: 'test' })).ok).toBe(
        true,
      );
      const units = parseAmount('BTC', '1');
      if (!units.ok) throw new Error(units.error);
      await new Ledger(database.handle).credit({
        userId: merchant.user.id,
        requestId: 'rot-seed',
        kind: 'deposit',
        currency: 'BTC',
        amount: units.units,
        from: 'deposits_clearing',
        to: 'coin',
      });
      const ad = await ok(
        'ctc/merchant/ad/save',
        {
          coin: 'BTC',
          fiat: 'EUR',
          price: '60000',
          amount: '0.5',
          min_fiat: '10',
          max_fiat: '50000',
          pay_methods: JSON.stringify([SEPA]),
        },
        merchant.token,
      );
      const order = await ok(
        'ctc/order/add',
        { ad_id: String(ad.id), quantity: '0.01', pay_type: 'sepa', request_id: 'rot-order-1' },
        buyer.token,
      );
      expect(order.pay_info).toEqual(SEPA);

      const lines: string[] = [];
      const next = path.join(tempDir(), 'next.key');
      const rotate = await runDataKeyCommand(database.handle, ['rotate', next], (l) => lines.push(l), {
        source: { dataDir },
        sealed: [c2cSealedData],
      });
      expect(rotate, lines.join('\n')).toBe(0);
      expect(lines).toContain('re-encrypted 2 C2C payment detail(s) under the new key');

      await app.close();
      app = await startTestApp(database.handle, { dataKey: readKeyFile(next) });
      expect((await ok('ctc/order/info', { id: String(order.id) }, buyer.token)).pay_info).toEqual(SEPA);
      expect((await ok('ctc/merchant/ads', {}, merchant.token)).ads[0]?.pay_methods).toEqual([SEPA]);

      const out: string[] = [];
      expect(
        await runDataKeyCommand(database.handle, ['check'], (l) => out.push(l), {
          source: { dataDir },
          sealed: [c2cSealedData],
        }),
      ).toBe(0);
      expect(out).toContain('2 of 2 C2C payment detail(s) open with the current key');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
