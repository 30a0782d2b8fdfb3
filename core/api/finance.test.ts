import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApi } from './client';
import { buyFinanceProduct, fetchFinanceConfig, fetchFinanceOrders, redeemFinanceOrder } from './finance';

// The envelope rules are core/api/client.test.ts's; here only what is finance's: which path each family uses, the
// fields sent, and which failures count as answered (a retried purchase must reuse its id when none came).

const ok = (data: unknown) =>
  new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data }), {
    headers: { 'content-type': 'application/json' },
  });
const fail = (message: string, field?: string) =>
  new Response(JSON.stringify({ type: 'error', code: 0, message, ...(field ? { field } : {}) }), {
    headers: { 'content-type': 'application/json' },
  });

const sent: { path: string; method: string; form: Record<string, string> }[] = [];
let answer: (path: string) => Response | Promise<Response>;

beforeEach(() => {
  sent.length = 0;
  configureApi({ text: (key) => (key === 'offline' ? 'No connection' : '') });
  vi.stubGlobal('fetch', async (input: Request) => {
    const url = new URL(input.url);
    const form = Object.fromEntries(
      input.method === 'GET' ? url.searchParams : new URLSearchParams(await input.clone().text()),
    );
    const path = url.pathname.replace('/api/', '');
    sent.push({ path, method: input.method, form });
    return answer(path);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('finance calls', () => {
  it('reads each family from its own path', async () => {
    answer = () => ok({ products: [], default_penalty: { kind: 'ratio', value: '0.004' } });
    await fetchFinanceConfig('trust');
    await fetchFinanceConfig('hosting');
    answer = () => ok({ orders: [], next_before_id: null });
    await fetchFinanceOrders({ family: 'trust', state: 'redeemed', beforeId: 40 });
    await fetchFinanceOrders({ family: 'hosting', state: 'hosting' });
    expect(sent).toEqual([
      { path: 'lh/deposit/config', method: 'GET', form: {} },
      { path: 'lh/send/config', method: 'GET', form: {} },
      { path: 'lh/deposit/order', method: 'GET', form: { state: 'redeemed', limit: '20', before_id: '40' } },
      { path: 'lh/send/order_list', method: 'GET', form: { state: 'hosting', limit: '20' } },
    ]);
  });

  it('buys through the family’s call with its request id; a refusal is answered, no connection is not', async () => {
    const body = { product_id: '3', amount: '100', agree: '1', request_id: 'req-1' };
    answer = () => fail('Insufficient balance', 'amount');
    expect(await buyFinanceProduct('hosting', body)).toEqual({
      ok: false,
      message: 'Insufficient balance',
      field: 'amount',
      answered: true,
    });
    expect(sent.at(-1)).toEqual({ path: 'lh/send/order', method: 'POST', form: body });
    answer = () => Promise.reject(new TypeError('network down'));
    expect(await buyFinanceProduct('trust', body)).toEqual({ ok: false, message: 'No connection', answered: false });
    expect(sent.at(-1)).toMatchObject({ path: 'lh/deposit', form: body });
  });

  it('redeems an order of either family through lh/deposit/order/cancel', async () => {
    answer = () => fail('This order is no longer running', 'id');
    expect(await redeemFinanceOrder(12)).toMatchObject({ ok: false, answered: true });
    expect(sent.at(-1)).toEqual({ path: 'lh/deposit/order/cancel', method: 'POST', form: { id: '12' } });
  });
});
