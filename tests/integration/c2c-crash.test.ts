import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { C2C_ORDER_EVENT } from '../../protocol/c2c';
import { addMerchant, addOrder, c2cServices, expireC2cOrders, saveAd, withC2c } from '../../server/domains/c2c';
import { withChat } from '../../server/domains/chat';
import { withLedger } from '../../server/ledger';
import { checkLedger, describeProblems } from '../../server/ledger/consistency';
import { Ledger } from '../../server/ledger/ledger';
import { migrateToLatest } from '../../server/migrations';
import { openSqlite } from '../../server/platform/db/connect';
import { insertUser } from '../../server/testing';

const here = path.dirname(fileURLToPath(import.meta.url));
const ORDERS = 10;

/**
 * kill -9 in the middle of a C2C expiry round (RULES "C2C": an unpaid order cancels itself at 30 minutes and its
 * escrow returns, once): the expiry runs as its own process on a SQLite file and is killed inside the fourth order's
 * transaction, after three committed. What committed stays, the killed order leaves no trace, and the next round
 * expires exactly the rest, each order once (one release of its escrow, one event per side, one chat line).
 */
describe('c2c expiry killed mid-round', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-c2c-crash-'));
  const file = path.join(dir, 'app.db');
  const handle = openSqlite(file);
  afterAll(async () => {
    await handle.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the committed expiries, loses the killed one whole, and the next round expires exactly the rest', async () => {
    await migrateToLatest(handle);
    const ledger = new Ledger(handle);
    const createdAt = Date.UTC(2026, 10, 20, 12);
    const s = c2cServices({ database: handle, ledger, now: () => createdAt, dataKey: randomBytes(32) });
    const merchantId = await insertUser(handle);
    expect((await addMerchant(handle.db, String(merchantId), 'Crash Merchant', { operator: 'test' })).ok).toBe(true);
    await ledger.credit({
      userId: merchantId,
      requestId: 'seed',
      kind: 'deposit',
      currency: 'USDT',
      amount: 10_000_000_000,
      from: 'deposits_clearing',
      to: 'coin',
    });
    const ad = await saveAd(s, merchantId, {
      coin: 'USDT',
      fiat: 'EUR',
      price: '0.92',
      amount: '10000',
      min_fiat: '10',
      max_fiat: '1000',
      pay_methods: JSON.stringify([{ type: 'sepa', name: 'Crash Merchant', account: 'DE00 1234', note: '' }]),
      note: undefined,
    });
    const orders = [];
    for (let i = 0; i < ORDERS; i++) {
      const buyerId = await insertUser(handle);
      orders.push(await addOrder(s, buyerId, { ad_id: ad.id, quantity: '100', pay_type: 'sepa', request_id: `o${i}` }));
    }
    const at = orders[0]?.pay_until ?? 0;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'c2c-expiry-child.ts'), file, String(at), '4'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += chunk;
        if (out.includes('inside 4')) resolve();
      });
      void exited.then((how) => reject(new Error(`expiry exited before its fourth order: ${how}\n${out}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const statuses = async () =>
      (
        await withC2c(handle.db).selectFrom('c2c_orders').select(['status', 'cancel_reason']).orderBy('id').execute()
      ).map((r) => `${r.status}${r.cancel_reason ? `:${r.cancel_reason}` : ''}`);
    const adRow = () =>
      withC2c(handle.db).selectFrom('c2c_ads').select(['taken']).where('id', '=', ad.id).executeTakeFirstOrThrow();
    const merchantCoin = async () =>
      (await ledger.balances(merchantId)).find((b) => b.type === 'coin' && b.currency === 'USDT');
    const escrows = async () =>
      (await ledger.holds(merchantId)).filter((h) => h.kind === 'c2c_escrow').map((h) => h.state);
    // Three orders committed their expiry; the killed one and the rest are still paying with their coins held.
    expect(await statuses()).toEqual([...Array(3).fill('5:expired'), ...Array(7).fill('1')]);
    expect((await adRow()).taken).toBe(7 * 100_000_000);
    expect(await merchantCoin()).toMatchObject({ balance: 10_000_000_000, held: 7 * 100_000_000 });
    expect((await escrows()).sort()).toEqual([...Array(7).fill('open'), ...Array(3).fill('voided')]);
    expect(describeProblems(await checkLedger(handle.db))).toEqual([]);

    const money = { database: handle, ledger, now: () => at };
    expect(await expireC2cOrders(money, { at })).toBe(7);
    expect(await expireC2cOrders(money, { at })).toBe(0);
    expect(await statuses()).toEqual(Array(ORDERS).fill('5:expired'));
    expect((await adRow()).taken).toBe(0);
    expect(await merchantCoin()).toMatchObject({ balance: 10_000_000_000, held: 0 });
    expect(await escrows()).toEqual(Array(ORDERS).fill('voided'));
    // Each order expired once: one release entry, one event per side after the one of its creation, one chat line.
    const voids = await withLedger(handle.db)
      .selectFrom('ledger_entries')
      .select('request_id')
      .where('request_id', 'like', 'c2c-return:%')
      .execute();
    expect(voids).toHaveLength(ORDERS);
    const events = await handle.db
      .selectFrom('user_events')
      .select('payload')
      .where('kind', '=', C2C_ORDER_EVENT)
      .execute();
    const expiredEvents = events.filter((e) => (JSON.parse(e.payload) as { status: number }).status === 5);
    expect(expiredEvents).toHaveLength(2 * ORDERS);
    const lines = await withChat(handle.db)
      .selectFrom('chat_messages')
      .select('conversation_id')
      .where('text', '=', 'c2c.event.expired')
      .execute();
    expect(new Set(lines.map((l) => l.conversation_id)).size).toBe(ORDERS);
    expect(lines).toHaveLength(ORDERS);
    expect(describeProblems(await checkLedger(handle.db))).toEqual([]);
  });
});
