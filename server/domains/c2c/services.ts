import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod/mini';
import {
  C2C_ORDER_EVENT,
  C2C_PAY_TYPES,
  type C2cAd,
  type C2cFiat,
  type C2cOrder,
  type C2cOwnAd,
  type C2cPayMethod,
  type C2cPayType,
  c2cPayMethod,
} from '../../../protocol/c2c';
import { c2cAvailable, formatFiat, formatPrice } from '../../../protocol/rules/c2c';
import { currencyScale, formatAmount, type Ledger } from '../../ledger';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { recordUserEvents } from '../../platform/realtime/user-events';
import type { CardVault } from '../bank-cards';
import type { C2cAdsTable, C2cOrdersTable } from './tables';
import { withC2c } from './tables';

export interface C2cServices {
  database: DatabaseHandle;
  ledger: Ledger;
  now: () => number;
  /** Seals the payment details of ads and orders under the data key (the bank cards' vault). */
  vault: CardVault;
}

export type C2cAdRow = Selectable<C2cAdsTable>;
export type C2cOrderRow = Selectable<C2cOrdersTable>;
export type C2cRole = 'buyer' | 'merchant';

/** The ledger's request ids of an order's escrow (the merchant's; unique per user, so each applies once). */
export const c2cLedgerIds = {
  escrow: (id: number) => `c2c-escrow:${id}`,
  release: (id: number) => `c2c-release:${id}`,
  returned: (id: number) => `c2c-return:${id}`,
};

/** SPEC 3 order number. */
export const orderSn = (id: number) => `C${String(id).padStart(8, '0')}`;

/** What a counterparty sees of a buyer: the username masked (it is also a login name), or `user<id>`. */
export function buyerNickname(user: { id: number; username: string | null }): string {
  const name = user.username ?? '';
  if (name.length < 6) return `user${user.id}`;
  return `${name.slice(0, 3)}***${name.slice(-2)}`;
}

export function sealPayMethods(vault: CardVault, merchantId: number, methods: readonly C2cPayMethod[]): string {
  return vault.seal('c2c_pay_methods', merchantId, JSON.stringify(methods));
}

export function openPayMethods(vault: CardVault, row: Pick<C2cAdRow, 'merchant_id' | 'pay_methods_enc'>) {
  return z.array(c2cPayMethod).parse(JSON.parse(vault.open('c2c_pay_methods', row.merchant_id, row.pay_methods_enc)));
}

export function sealPayInfo(vault: CardVault, merchantId: number, method: C2cPayMethod): string {
  return vault.seal('c2c_pay_info', merchantId, JSON.stringify(method));
}

export function openPayInfo(vault: CardVault, merchantId: number, sealed: string): C2cPayMethod {
  return c2cPayMethod.parse(JSON.parse(vault.open('c2c_pay_info', merchantId, sealed)));
}

const payTypesOf = (text: string): C2cPayType[] =>
  text.split(',').filter((v): v is C2cPayType => (C2C_PAY_TYPES as readonly string[]).includes(v));

/** An ad as buyers see it (no payment details). */
export function adWire(row: C2cAdRow, nickname: string): C2cAd {
  const money = (units: number) => formatAmount(row.coin, units);
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    merchant_nickname: nickname,
    coin: row.coin,
    scale: currencyScale(row.coin),
    fiat: row.fiat as C2cFiat,
    price: formatPrice(BigInt(row.price)),
    min_fiat: formatFiat(BigInt(row.min_fiat)),
    max_fiat: formatFiat(BigInt(row.max_fiat)),
    available: money(Number(c2cAvailable(BigInt(row.amount), BigInt(row.taken)))),
    deal_volume: money(row.sold),
    pay_types: payTypesOf(row.pay_types),
    state: row.state,
    created_at: row.created_at,
  };
}

/** A merchant's own ad: with its total amount and its payment details. */
export function ownAdWire(row: C2cAdRow, nickname: string, vault: CardVault): C2cOwnAd {
  return {
    ...adWire(row, nickname),
    amount: formatAmount(row.coin, row.amount),
    pay_methods: openPayMethods(vault, row),
    note: row.note,
  };
}

/** The order without its payment details: what a user event stores (the details stay sealed there too). */
type OrderEventCore = Omit<C2cOrder, 'pay_info'>;

function orderCore(row: C2cOrderRow, role: C2cRole): OrderEventCore {
  return {
    id: row.id,
    sn: orderSn(row.id),
    ad_id: row.ad_id,
    role,
    merchant_nickname: row.merchant_nickname,
    buyer_nickname: row.buyer_nickname,
    coin: row.coin,
    scale: currencyScale(row.coin),
    fiat: row.fiat as C2cFiat,
    price: formatPrice(BigInt(row.price)),
    quantity: formatAmount(row.coin, row.quantity),
    amount: formatFiat(BigInt(row.amount)),
    min_fiat: formatFiat(BigInt(row.min_fiat)),
    max_fiat: formatFiat(BigInt(row.max_fiat)),
    pay_type: row.pay_type as C2cPayType,
    status: row.status,
    created_at: row.created_at,
    pay_until: row.pay_until,
    paid_at: row.paid_at,
    completed_at: row.completed_at,
    cancelled_at: row.cancelled_at,
    cancel_reason: row.cancel_reason,
    appeal:
      row.appeal_by === null
        ? null
        : {
            by: row.appeal_by,
            reason: row.appeal_reason ?? '',
            opened_at: row.appeal_opened_at ?? row.updated_at,
            decision: row.appeal_decision,
            decision_reason: row.appeal_decision_reason,
            decided_at: row.appeal_decided_at,
          },
    conversation_id: row.conversation_id,
    request_id: role === 'buyer' ? row.request_id : '',
  };
}

/** An order as its buyer or its merchant sees it (`role`: the viewer's side). */
export function orderWire(row: C2cOrderRow, role: C2cRole, vault: CardVault): C2cOrder {
  return { ...orderCore(row, role), pay_info: openPayInfo(vault, row.merchant_id, row.pay_info_enc) };
}

/** The user event's data: the order with its payment details still sealed (user_events is not encrypted). */
export interface C2cOrderEventData extends OrderEventCore {
  merchant_id: number;
  pay_info_enc: string;
}

/** Records the order's change for both sides (the private `c2c` topic), in the transaction of the change. */
export async function announceOrder(trx: Kysely<Database>, row: C2cOrderRow, at: number): Promise<void> {
  const event = (role: C2cRole) => {
    const data: C2cOrderEventData = {
      ...orderCore(row, role),
      merchant_id: row.merchant_id,
      pay_info_enc: row.pay_info_enc,
    };
    return { userId: role === 'buyer' ? row.buyer_id : row.merchant_id, kind: C2C_ORDER_EVENT, data, at };
  };
  await recordUserEvents(trx, [event('buyer'), event('merchant')]);
}

/** The order of a user event, with its payment details opened; null when the event is not one (skipped). */
export function orderOfEvent(data: unknown, vault: CardVault): C2cOrder | null {
  if (typeof data !== 'object' || data === null) return null;
  const { merchant_id, pay_info_enc, ...core } = data as C2cOrderEventData;
  if (typeof merchant_id !== 'number' || typeof pay_info_enc !== 'string') return null;
  try {
    return { ...core, pay_info: openPayInfo(vault, merchant_id, pay_info_enc) };
  } catch {
    return null;
  }
}

/** The public nicknames of merchants by user id (active or not: old orders and closed ads still name them). */
export async function nicknames(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await withC2c(db)
    .selectFrom('c2c_merchants')
    .select(['user_id', 'nickname'])
    .where('user_id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.nickname]));
}

export function adById(db: Kysely<Database>, id: number) {
  return withC2c(db).selectFrom('c2c_ads').selectAll().where('id', '=', id).executeTakeFirst();
}
