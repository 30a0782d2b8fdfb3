import type { C2cOrder } from '../../../protocol/c2c';
import { type IeoOrder, type IeoPhase, IPO_STATUS_OF_PHASE } from '../../../protocol/ieo';

/** Orders as the streams deliver them, for this feature's tests. */

export function ieoOrder(id: number, phase: IeoPhase, payDate: number): IeoOrder {
  const allotted = phase !== 'subscribed';
  return {
    id,
    sn: `I${String(id).padStart(8, '0')}`,
    project_id: 1,
    coin: 'DEMO',
    name: 'Demo Token',
    description: '',
    scale: 8,
    listing_price: '0.08',
    ieo_price: '0.05',
    total_supply: '100000000',
    circulating_supply: '20000000',
    quantity: '100.00000000',
    allotment_quantity: allotted ? (phase === 'failed' ? '0.00000000' : '40.00000000') : null,
    pending_quantity: allotted ? '60.00000000' : null,
    payment: allotted && phase !== 'failed' ? '2.000000' : null,
    success_pay: ['paid', 'locked', 'unlocked'].includes(phase) ? '2.000000' : null,
    ipo_status: IPO_STATUS_OF_PHASE[phase],
    phase,
    apply_time: 1_000 + id,
    allotment_date: payDate - 3_600_000,
    pay_date: payDate,
    listing_date: payDate + 3_600_000,
    lock_date: payDate + 7_200_000,
    paid_at: null,
    request_id: `r${id}`,
  };
}

export function c2cOrder(
  id: number,
  role: C2cOrder['role'],
  status: C2cOrder['status'],
  createdAt: number,
  paidAt: number | null = status === 1 ? null : createdAt + 60_000,
): C2cOrder {
  return {
    id,
    sn: `C${String(id).padStart(8, '0')}`,
    ad_id: 3,
    role,
    merchant_nickname: 'Mia',
    buyer_nickname: 'Ben',
    coin: 'BTC',
    scale: 8,
    fiat: 'EUR',
    price: '61728.40',
    quantity: '0.00200000',
    amount: '123.45',
    min_fiat: '10.00',
    max_fiat: '1000.00',
    pay_type: 'sepa',
    pay_info: { type: 'sepa', name: 'Mia Muster', account: 'DE00 0000', note: '' },
    status,
    created_at: createdAt,
    pay_until: createdAt + 30 * 60_000,
    paid_at: paidAt,
    completed_at: status === 3 ? (paidAt ?? createdAt) + 60_000 : null,
    cancelled_at: null,
    cancel_reason: null,
    appeal: null,
    conversation_id: null,
    request_id: `c${id}`,
  };
}
