import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { C2cAd, C2cOrder } from '../../../../../../protocol/c2c';
import { i18n, loadNamespace, startI18n } from '../../../../../lib/i18n';
import { clearSession, setSession } from '../../../../../state/session';
import { inRouter, okEnvelope } from '../../../../../test-support/in-router';
import C2cBuyPage from './buy';

/**
 * An ad's page tells of the user's open order on it before any form: the `c2c` stream (a subject standing in for the
 * tab's shared one) says the order is open, the page shows it with the way to it and no form, and the form comes back
 * when the stream says the order ended. A refusal for an open order the stream has not told of yet asks it again.
 */

const streams = vi.hoisted(() => ({ refreshes: 0 }));
let orders$ = new Subject<C2cOrder[]>();
vi.mock('../../../../../../streams/c2c/orders', () => ({
  c2cOrders: () => ({
    orders$,
    changes$: new Subject(),
    order$: () => new Subject(),
    refresh: async () => {
      streams.refreshes += 1;
      return true;
    },
  }),
}));

const NOW = 1_700_000_000_000;
const ad: C2cAd = {
  id: 3,
  merchant_id: 9,
  merchant_nickname: 'Mia',
  coin: 'BTC',
  scale: 8,
  fiat: 'EUR',
  price: '60000.00',
  min_fiat: '50.00',
  max_fiat: '2000.00',
  available: '0.50000000',
  deal_volume: '0',
  pay_types: ['sepa'],
  state: 'open',
  created_at: NOW - 86_400_000,
};

function order(id: number, adId: number, status: C2cOrder['status'], role: C2cOrder['role'] = 'buyer'): C2cOrder {
  return {
    id,
    sn: `C${String(id).padStart(8, '0')}`,
    ad_id: adId,
    role,
    merchant_nickname: 'Mia',
    buyer_nickname: 'Ben',
    coin: 'BTC',
    scale: 8,
    fiat: 'EUR',
    price: '60000.00',
    quantity: '0.00200000',
    amount: '120.00',
    min_fiat: '50.00',
    max_fiat: '2000.00',
    pay_type: 'sepa',
    pay_info: { type: 'sepa', name: 'Mia Muster', account: 'DE00 0000', note: '' },
    status,
    created_at: NOW,
    pay_until: NOW + 30 * 60_000,
    paid_at: status === 1 ? null : NOW + 60_000,
    completed_at: status === 3 ? NOW + 120_000 : null,
    cancelled_at: status === 5 ? NOW + 120_000 : null,
    cancel_reason: status === 5 ? 'buyer' : null,
    appeal: null,
    conversation_id: null,
    request_id: `c${id}`,
  };
}

/** The api: the ad, and the answer to an order (a refusal for an open order unless told otherwise). */
function serve(): void {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const path = url.pathname.replace('/api/', '');
    const body =
      path === 'ctc/product/info'
        ? okEnvelope(ad)
        : path === 'ctc/order/add'
          ? {
              type: 'error',
              code: 0,
              message: 'You already have an open order for this ad',
              reason: 'c2cOrderOpen',
              field: 'ad_id',
            }
          : null;
    if (!body) throw new Error(`unexpected call ${path}`);
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  });
}

beforeAll(async () => {
  await startI18n('en');
  await i18n.changeLanguage('en');
  await loadNamespace('c2c');
});
beforeEach(() => {
  orders$ = new Subject();
  streams.refreshes = 0;
  serve();
  setSession('token', {
    id: 5,
    username: 'ben',
    email: null,
    mobile: null,
    area_code: null,
    invite_code: 'X1',
    lang: 'en',
    has_fund_password: true,
    created_at: 1,
  });
});
afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
});

/** The page on ad 3, once the ad has loaded and the page listens to the stream. */
async function showAd(): Promise<void> {
  render(inRouter(() => <C2cBuyPage />, '/?id=3'));
  await screen.findByTestId('c2c-buy-ad');
  await waitFor(() => expect(orders$.observed).toBe(true));
}
const tell = (list: C2cOrder[]) =>
  act(() => {
    orders$.next(list);
  });
const notice = () => screen.queryByTestId('c2c-open-order');
const form = () => screen.queryByTestId('c2c-submit');

describe('the ad page with an open order on it', () => {
  it('shows the open order with a link to it instead of the form, until the order ends', async () => {
    await showAd();
    tell([order(41, 3, 1), order(40, 4, 1)]);
    await waitFor(() => expect(notice()).not.toBeNull());
    const shown = notice() as HTMLElement;
    expect(within(shown).getByRole('status').textContent).toBe(
      'You already have an open order on this ad. You can order here again once it is completed or cancelled.',
    );
    const link = within(shown).getByRole('link');
    expect(link.getAttribute('href')).toBe('/pages/assets/c2c/orderDetail?id=41');
    expect(link.textContent).toContain('C00000041');
    expect(within(shown).getByRole('list', { name: 'Your open order' })).not.toBeNull();
    expect(form()).toBeNull();
    expect(screen.queryByTestId('c2c-amount-input')).toBeNull();

    // Paid, then under appeal: still open.
    tell([order(41, 3, 2)]);
    await waitFor(() => expect(notice()?.textContent).toContain('Paid'));
    expect(form()).toBeNull();
    tell([order(41, 3, 4)]);
    await waitFor(() => expect(notice()?.textContent).toContain('Appeal'));
    expect(form()).toBeNull();

    // Completed: the form is back.
    tell([order(41, 3, 3)]);
    await waitFor(() => expect(form()).not.toBeNull());
    expect(notice()).toBeNull();
  });

  it('asks the stream again when the server refuses for an open order it has not told of', async () => {
    await showAd();
    tell([]);
    fireEvent.change(screen.getByTestId('c2c-amount-input'), { target: { value: '120' } });
    fireEvent.click(screen.getByTestId('c2c-submit'));
    await waitFor(() => expect(streams.refreshes).toBe(1));
    expect(screen.getByTestId('c2c-refusal').textContent).toBe('You already have an open order for this ad');
    // The stream's answer brings the order; the form gives way to it.
    tell([order(43, 3, 1)]);
    await waitFor(() => expect(notice()).not.toBeNull());
    expect(form()).toBeNull();
  });
});
