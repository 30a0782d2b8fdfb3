import type { c2cCalls } from '../../../protocol/c2c';
import type { Ledger } from '../../ledger';
import type { DatabaseHandle } from '../../platform/db/connect';
import { type CallHandlers, requireSession } from '../../platform/http/calls';
import { CardVault, ephemeralDataKey } from '../bank-cards';
import { adInfo, closeAd, listAds, markets, ownAds, saveAd } from './ads';
import { activeMerchant } from './merchants';
import { addOrder, listOrders, orderInfo } from './orders';
import { otcUrl } from './otc-url';
import type { C2cServices } from './services';
import { appealOrder, cancelOrder, payOrder, releaseOrder } from './transitions';

export interface C2cOptions {
  database: DatabaseHandle;
  ledger: Ledger;
  now: () => number;
  /** The data key (DATA_KEY or DATA_DIR/data.key) that seals payment details; tests may leave it out. */
  dataKey?: Uint8Array | undefined;
}

/** The services of the C2C calls, topic and job: the payment details sealed with the bank cards' vault. */
export function c2cServices(options: C2cOptions): C2cServices {
  return {
    database: options.database,
    ledger: options.ledger,
    now: options.now,
    vault: new CardVault(options.dataKey ?? ephemeralDataKey()),
  };
}

/**
 * C2C calls (RULES "C2C"). Ads are public; an order exists only for its buyer and its merchant, and each change is
 * made by the side the rule names (protocol/rules/c2c.ts). Merchants are marked by operators (`c2c merchant add`).
 */
export function c2cHandlers(s: C2cServices): CallHandlers<typeof c2cCalls> {
  const db = s.database.db;
  return {
    'ctc/product/all': () => markets(db),
    'ctc/product/list': (input) => listAds(db, input),
    'ctc/product/info': (input) => adInfo(db, input.id),
    'ctc/order/add': (input, ctx) => addOrder(s, requireSession(ctx).userId, input),
    'ctc/order/list': (input, ctx) => listOrders(s, requireSession(ctx).userId, input),
    'ctc/order/info': (input, ctx) => orderInfo(s, requireSession(ctx).userId, input.id),
    'ctc/order/cancel': (input, ctx) => cancelOrder(s, requireSession(ctx).userId, input.id),
    'ctc/order/pay': (input, ctx) => payOrder(s, requireSession(ctx).userId, input.id),
    'ctc/order/release': (input, ctx) => releaseOrder(s, requireSession(ctx).userId, input.id),
    'ctc/order/appeal': (input, ctx) => appealOrder(s, requireSession(ctx).userId, input.id, input.reason),
    'ctc/merchant/me': async (_input, ctx) => {
      const merchant = await activeMerchant(db, requireSession(ctx).userId);
      return { merchant: merchant !== undefined, nickname: merchant?.nickname ?? null };
    },
    'ctc/merchant/ads': (_input, ctx) => ownAds(s, requireSession(ctx).userId),
    'ctc/merchant/ad/save': (input, ctx) => saveAd(s, requireSession(ctx).userId, input),
    'ctc/merchant/ad/close': (input, ctx) => closeAd(s, requireSession(ctx).userId, input.id),
    'set/get_otc_url': () => otcUrl(db),
  };
}
