import { describe, expect, it } from 'vitest';
import { buyFinanceProduct, fetchFinanceConfig, fetchFinanceOrders, redeemFinanceOrder } from './finance';
import { failAnswer, fakeApiServer, okAnswer } from './testing';

// The envelope rules are core/api/client.test.ts's; here only what is finance's: which path each family uses, the
// fields sent, and which failures count as answered (a retried purchase must reuse its id when none came).

const server = fakeApiServer();
const ok = okAnswer;
const fail = failAnswer;
const sent = server.sent;

describe('finance calls', () => {
  it('reads each family from its own path', async () => {
    server.answer = () => ok({ products: [], default_penalty: { kind: 'ratio', value: '0.004' } });
    await fetchFinanceConfig('trust');
    await fetchFinanceConfig('hosting');
    server.answer = () => ok({ orders: [], next_before_id: null });
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
    server.answer = () => fail('Insufficient balance', 'amount');
    expect(await buyFinanceProduct('hosting', body)).toEqual({
      ok: false,
      message: 'Insufficient balance',
      field: 'amount',
      reason: 'testRefusal',
      answered: true,
    });
    expect(sent.at(-1)).toEqual({ path: 'lh/send/order', method: 'POST', form: body });
    server.answer = () => Promise.reject(new TypeError('network down'));
    expect(await buyFinanceProduct('trust', body)).toEqual({ ok: false, message: 'No connection', answered: false });
    expect(sent.at(-1)).toMatchObject({ path: 'lh/deposit', form: body });
  });

  it('redeems an order of either family through lh/deposit/order/cancel', async () => {
    server.answer = () => fail('This order is no longer running', 'id');
    expect(await redeemFinanceOrder(12)).toMatchObject({ ok: false, answered: true });
    expect(sent.at(-1)).toEqual({ path: 'lh/deposit/order/cancel', method: 'POST', form: { id: '12' } });
  });
});
