// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  addC2cOrder,
  appealC2cOrder,
  cancelC2cOrder,
  closeC2cAd,
  fetchC2cAd,
  fetchC2cAds,
  fetchC2cMarkets,
  fetchC2cMerchant,
  fetchC2cOrder,
  fetchC2cOrders,
  fetchOtcUrl,
  fetchOwnC2cAds,
  payC2cOrder,
  pollOpenC2cOrders,
  releaseC2cOrder,
  saveC2cAd,
} from './c2c';
import { failAnswer, fakeApiServer, okAnswer } from './testing';

// The envelope rules are core/api/client.test.ts's; here only what is the C2C area's: the paths and methods, the
// fields sent, and which failures count as answered (a retried order must reuse its request id when none came).

const server = fakeApiServer();
const ok = okAnswer;
const fail = failAnswer;
const sent = server.sent;

const T0 = 1_700_000_000_000;
const order = (id: number, role: 'buyer' | 'merchant' = 'buyer') => ({
  id,
  sn: `C${id}`,
  ad_id: 1,
  role,
  merchant_nickname: 'M',
  buyer_nickname: 'B',
  coin: 'BTC',
  scale: 8,
  fiat: 'EUR',
  price: '60000.00',
  quantity: '0.01000000',
  amount: '600.00',
  min_fiat: '50.00',
  max_fiat: '5000.00',
  pay_type: 'sepa',
  pay_info: { type: 'sepa', name: 'M', account: 'DE00', note: '' },
  status: 1,
  created_at: T0,
  pay_until: T0 + 1_800_000,
  paid_at: null,
  completed_at: null,
  cancelled_at: null,
  cancel_reason: null,
  appeal: null,
  conversation_id: null,
  request_id: 'r',
});
const ad = {
  id: 3,
  merchant_id: 2,
  merchant_nickname: 'M',
  coin: 'BTC',
  scale: 8,
  fiat: 'EUR',
  price: '60000.00',
  min_fiat: '50.00',
  max_fiat: '5000.00',
  available: '1.00000000',
  deal_volume: '0.00000000',
  pay_types: ['sepa'],
  state: 'open',
  created_at: T0,
};
const ownAd = { ...ad, amount: '1.00000000', pay_methods: [order(1).pay_info], note: '' };

describe('c2c reads', () => {
  it('reads markets, ads by coin and fiat, one ad, paged by before_id', async () => {
    server.answer = () => ok({ coins: ['BTC'], fiats: ['EUR'] });
    expect(await fetchC2cMarkets()).toEqual({ coins: ['BTC'], fiats: ['EUR'] });
    server.answer = () => ok({ ads: [ad], next_before_id: null });
    await fetchC2cAds({ coin: 'BTC', fiat: 'EUR' }, null);
    await fetchC2cAds({}, 12, 10);
    server.answer = () => fail('This ad does not exist', 'id');
    expect(await fetchC2cAd(3, { quiet: true })).toBe(false);
    expect(sent).toEqual([
      { path: 'ctc/product/all', method: 'GET', form: {} },
      { path: 'ctc/product/list', method: 'GET', form: { coin: 'BTC', fiat: 'EUR', limit: '20' } },
      { path: 'ctc/product/list', method: 'GET', form: { limit: '10', before_id: '12' } },
      { path: 'ctc/product/info', method: 'GET', form: { id: '3' } },
    ]);
  });

  it('reads the caller’s orders by side and status, and one order', async () => {
    server.answer = () => ok({ orders: [order(1)], next_before_id: 1 });
    await fetchC2cOrders({ side: 'merchant', status: [1, 2] }, 9);
    await fetchC2cOrders({}, null);
    server.answer = () => ok(order(4));
    expect(await fetchC2cOrder(4)).toMatchObject({ id: 4, status: 1 });
    expect(sent).toEqual([
      { path: 'ctc/order/list', method: 'GET', form: { side: 'merchant', status: '1,2', limit: '20', before_id: '9' } },
      { path: 'ctc/order/list', method: 'GET', form: { limit: '20' } },
      { path: 'ctc/order/info', method: 'GET', form: { id: '4' } },
    ]);
  });

  it('polls the open orders of each side; a side that fails or has more pages is not complete', async () => {
    server.answer = () => ok({ orders: [order(1)], next_before_id: null });
    expect(await pollOpenC2cOrders()).toEqual({ orders: [expect.objectContaining({ id: 1 })], complete: ['buyer'] });
    expect(sent.at(-1)).toEqual({
      path: 'ctc/order/list',
      method: 'GET',
      form: { side: 'buyer', status: '1,2,4', limit: '50' },
    });
    sent.length = 0;
    let n = 0;
    server.answer = () => (n++ === 0 ? ok({ orders: [order(1)], next_before_id: 1 }) : fail('Not a merchant'));
    expect(await pollOpenC2cOrders(true)).toEqual({ orders: [expect.objectContaining({ id: 1 })], complete: [] });
    expect(sent.map((s) => s.form.side)).toEqual(['buyer', 'merchant']);
    server.answer = () => Promise.reject(new TypeError('network down'));
    expect(await pollOpenC2cOrders(true)).toBe(false);
  });

  it('reads the merchant’s profile and own ads, and where C2C lives', async () => {
    server.answer = () => ok({ merchant: true, nickname: 'M' });
    expect(await fetchC2cMerchant()).toEqual({ merchant: true, nickname: 'M' });
    server.answer = () => ok({ ads: [ownAd] });
    expect(await fetchOwnC2cAds()).toEqual([ownAd]);
    server.answer = () => ok({ url: '/pages/assets/c2c/index', internal: true });
    expect(await fetchOtcUrl()).toEqual({ url: '/pages/assets/c2c/index', internal: true });
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET ctc/merchant/me',
      'GET ctc/merchant/ads',
      'POST set/get_otc_url',
    ]);
  });
});

describe('c2c actions', () => {
  it('orders with its request id; a refusal is answered, no connection is not', async () => {
    const body = { ad_id: '3', quantity: '0.01', pay_type: 'sepa' as const, request_id: 'req-1' };
    server.answer = () => fail('The amount is below the ad’s minimum', 'quantity');
    expect(await addC2cOrder(body)).toEqual({
      ok: false,
      message: 'The amount is below the ad’s minimum',
      field: 'quantity',
      reason: 'testRefusal',
      answered: true,
    });
    expect(sent.at(-1)).toEqual({ path: 'ctc/order/add', method: 'POST', form: body });
    server.answer = () => Promise.reject(new TypeError('network down'));
    expect(await addC2cOrder(body)).toEqual({ ok: false, message: 'No connection', answered: false });
    server.answer = () => ok(order(5));
    expect(await addC2cOrder(body)).toMatchObject({ ok: true, order: { id: 5 } });
  });

  it('cancels, marks paid, releases and appeals an order by its id (PUT)', async () => {
    server.answer = () => ok(order(9));
    expect(await cancelC2cOrder(9)).toMatchObject({ ok: true });
    expect(await payC2cOrder(9)).toMatchObject({ ok: true });
    server.answer = () => fail('This order cannot be released now', 'id');
    expect(await releaseC2cOrder(9)).toMatchObject({ ok: false, answered: true, field: 'id' });
    server.answer = () => ok(order(9));
    await appealC2cOrder(9, 'No payment arrived');
    expect(sent).toEqual([
      { path: 'ctc/order/cancel', method: 'PUT', form: { id: '9' } },
      { path: 'ctc/order/pay', method: 'PUT', form: { id: '9' } },
      { path: 'ctc/order/release', method: 'PUT', form: { id: '9' } },
      { path: 'ctc/order/appeal', method: 'PUT', form: { id: '9', reason: 'No payment arrived' } },
    ]);
  });

  it('saves and closes an ad', async () => {
    server.answer = () => ok(ownAd);
    const body = {
      coin: 'BTC',
      fiat: 'EUR' as const,
      price: '60000',
      amount: '1',
      min_fiat: '50',
      max_fiat: '5000',
      pay_methods: JSON.stringify([order(1).pay_info]),
    };
    expect(await saveC2cAd(body)).toEqual({ ok: true, ad: ownAd });
    expect(await closeC2cAd(3)).toEqual({ ok: true, ad: ownAd });
    expect(sent).toEqual([
      { path: 'ctc/merchant/ad/save', method: 'POST', form: body },
      { path: 'ctc/merchant/ad/close', method: 'PUT', form: { id: '3' } },
    ]);
  });
});
