import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Quote } from '../../../protocol/market';
import { ACCOUNT_TYPES } from '../../../protocol/wallet';
import { USER_ACCOUNT_TYPES } from '../../ledger/accounts';
import { parseAmount } from '../../ledger/amounts';
import { Ledger } from '../../ledger/ledger';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import { insertUser, openMemoryDatabase } from '../../testing';
import { assetDetail, ledgerLog, listAssets, transfer, transferHistory, type WalletServices } from './service';

const units = (currency: string, text: string) => {
  const parsed = parseAmount(currency, text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.units;
};

const quote = (symbol: string, last: string, ts: number): Quote => ({
  symbol,
  id: 1,
  last,
  open: last,
  high: last,
  low: last,
  change_pct: '0',
  volume: '0',
  ts,
  seq: 1,
});

async function refusal(call: Promise<unknown>): Promise<{ key: string; field: string | undefined }> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof BusinessError)) throw new Error(`expected a BusinessError, got ${String(err)}`);
  return { key: err.key, field: err.field };
}

describe('wallet service', () => {
  let handle: DatabaseHandle;
  let ledger: Ledger;
  let s: WalletServices;
  let user: number;
  let n = 0;
  const quotes = new Map<string, Quote>([
    ['BTC', quote('BTC', '60000.50', 1_000)],
    ['ETH', quote('ETH', '3000.00', 2_000)],
  ]);
  const credit = (userId: number, currency: string, amount: string, to: 'coin' | 'trust' = 'coin') =>
    ledger.credit({
      userId,
      requestId: `seed-${++n}`,
      kind: 'deposit',
      currency,
      amount: units(currency, amount),
      from: 'deposits_clearing',
      to,
    });

  beforeEach(async () => {
    handle = await openMemoryDatabase();
    ledger = new Ledger(handle);
    s = { ledger, database: handle, feed: { quote: (symbol: string) => quotes.get(symbol) }, guards: [] };
    user = await insertUser(handle);
  });
  afterEach(async () => {
    await handle.db.destroy();
  });

  it('the account types of the protocol are the ledger user account types', () => {
    expect([...ACCOUNT_TYPES]).toEqual([...USER_ACCOUNT_TYPES]);
  });

  it('wallet/list values every balance at the last price, totals per type and overall, and says which price', async () => {
    await credit(user, 'USDT', '100.5');
    await credit(user, 'BTC', '0.5');
    await credit(user, 'ETH', '2', 'trust');
    await credit(user, 'SOL', '3'); // no quote in this feed
    const list = await listAssets(s, user);
    expect(list.accounts.map((a) => a.type)).toEqual(['coin', 'option', 'contract', 'trust']);
    const coin = list.accounts[0];
    expect(coin?.valuation).toBe('30100.75'); // 100.5 + 0.5 × 60000.50
    expect(coin?.unpriced).toBe(true);
    const btc = coin?.rows.find((r) => r.currency === 'BTC');
    expect(btc).toMatchObject({
      available: '0.50000000',
      frozen: '0.00000000',
      total: '0.50000000',
      price: '60000.50',
      price_ts: 1_000,
      price_source: 'last',
      valuation: '30000.25',
      scale: 8,
    });
    expect(coin?.rows.find((r) => r.currency === 'USDT')).toMatchObject({ price: '1', price_source: 'fixed' });
    expect(coin?.rows.find((r) => r.currency === 'SOL')).toMatchObject({ price_source: 'none', valuation: '0' });
    expect(list.accounts[3]?.valuation).toBe('6000');
    expect(list.valuation).toBe('36100.75');
    expect(list.unpriced).toBe(true);
    expect(list.basis).toEqual({ kind: 'last', quote: 'USDT', priced_at: 2_000 });
    // Every currency in every type, zeros included.
    expect(list.accounts[1]?.rows.every((r) => r.total === r.available && /^0\.0+$/.test(r.total))).toBe(true);
  });

  it('wallet/list shows frozen funds (open holds) apart from the available part', async () => {
    await credit(user, 'USDT', '10');
    await ledger.placeHold({
      userId: user,
      requestId: 'hold-1',
      kind: 'withdrawal',
      currency: 'USDT',
      type: 'coin',
      amount: units('USDT', '4'),
    });
    const list = await listAssets(s, user, 'coin');
    expect(list.accounts).toHaveLength(1);
    expect(list.accounts[0]?.rows.find((r) => r.currency === 'USDT')).toMatchObject({
      available: '6.000000',
      frozen: '4.000000',
      total: '10.000000',
      valuation: '10',
    });
  });

  it('wallet/change moves money once per request id and answers with both new balances', async () => {
    await credit(user, 'USDT', '50');
    const input = { currency: 'USDT', from: 'coin', to: 'contract', amount: '20.25', request_id: 'tr-1' } as const;
    const first = await transfer(s, user, input);
    expect(first).toMatchObject({
      replayed: false,
      amount: '20.250000',
      from: { type: 'coin', available: '29.750000' },
      to: { type: 'contract', available: '20.250000' },
    });
    const again = await transfer(s, user, input);
    expect(again).toMatchObject({ replayed: true, entry_id: first.entry_id, from: { available: '29.750000' } });
    expect(await refusal(transfer(s, user, { ...input, amount: '1' }))).toEqual({
      key: 'requestIdReused',
      field: undefined,
    });
  });

  it('wallet/change refuses bad input with the key and the field, and moves nothing', async () => {
    await credit(user, 'USDT', '5');
    const base = { currency: 'USDT', from: 'coin', to: 'option', request_id: 'bad' } as const;
    expect(await refusal(transfer(s, user, { ...base, amount: '0' }))).toEqual({
      key: 'amountNotPositive',
      field: 'amount',
    });
    expect((await refusal(transfer(s, user, { ...base, amount: '0.0000001' }))).key).toBe('amountTooPrecise');
    expect((await refusal(transfer(s, user, { ...base, amount: '5.000001' }))).key).toBe('insufficientBalance');
    expect((await refusal(transfer(s, user, { ...base, currency: 'NOPE', amount: '1' }))).key).toBe(
      'currencyUnsupported',
    );
    expect((await refusal(transfer(s, user, { ...base, to: 'coin', amount: '1' }))).key).toBe('transferSameAccount');
    const list = await listAssets(s, user);
    expect(list.accounts.find((a) => a.type === 'coin')?.valuation).toBe('5');
    expect(list.accounts.find((a) => a.type === 'option')?.valuation).toBe('0');
  });

  it('wallet/legal_log and wallet/hzhistory page newest first with a cursor, only through the user’s own rows', async () => {
    const other = await insertUser(handle);
    await credit(user, 'USDT', '100');
    await credit(other, 'USDT', '100');
    for (let i = 1; i <= 5; i++) {
      await transfer(s, user, { currency: 'USDT', from: 'coin', to: 'trust', amount: `${i}`, request_id: `t${i}` });
      await transfer(s, other, { currency: 'USDT', from: 'coin', to: 'option', amount: '1', request_id: `t${i}` });
    }
    const first = await transferHistory(s, user, { limit: 2 });
    expect(first.items.map((r) => r.amount)).toEqual(['5.000000', '4.000000']);
    expect(first.items[0]).toMatchObject({ currency: 'USDT', from: 'coin', to: 'trust' });
    const second = await transferHistory(s, user, { limit: 2, beforeId: first.next_before_id ?? 0 });
    expect(second.items.map((r) => r.amount)).toEqual(['3.000000', '2.000000']);
    const third = await transferHistory(s, user, { limit: 2, beforeId: second.next_before_id ?? 0 });
    expect(third.items.map((r) => r.amount)).toEqual(['1.000000']);
    expect(third.next_before_id).toBeNull();

    const log = await ledgerLog(s, user, { limit: 3 });
    expect(log.items.map((l) => [l.kind, l.type, l.amount])).toEqual([
      ['transfer', 'trust', '5.000000'],
      ['transfer', 'coin', '-5.000000'],
      ['transfer', 'trust', '4.000000'],
    ]);
    let all = log.items.length;
    let cursor = log.next_before_id;
    while (cursor !== null) {
      const page = await ledgerLog(s, user, { limit: 3, beforeId: cursor });
      all += page.items.length;
      cursor = page.next_before_id;
    }
    expect(all).toBe(11); // the deposit and five transfers of two postings each
    const trustOnly = await ledgerLog(s, user, { limit: 50, type: 'trust' });
    expect(trustOnly.items).toHaveLength(5);
  });

  it('wallet/detail shows one currency across the types with its price and recent changes', async () => {
    await credit(user, 'BTC', '1');
    await transfer(s, user, { currency: 'BTC', from: 'coin', to: 'contract', amount: '0.25', request_id: 'b1' });
    const detail = await assetDetail(s, user, 'BTC');
    expect(detail).toMatchObject({
      currency: 'BTC',
      scale: 8,
      total: '1.00000000',
      price: '60000.50',
      valuation: '60000.5',
    });
    expect(detail.accounts.map((a) => [a.type, a.available])).toEqual([
      ['coin', '0.75000000'],
      ['option', '0.00000000'],
      ['contract', '0.25000000'],
      ['trust', '0.00000000'],
    ]);
    expect(detail.history).toHaveLength(3);
    expect((await assetDetail(s, user, 'BTC', 'contract')).history).toHaveLength(1);
    expect((await refusal(assetDetail(s, user, 'XYZ'))).key).toBe('currencyUnsupported');
  });
});
