import type { C2cFiat } from '../../../protocol/c2c';

/**
 * Query keys of the C2C feature, all under one area, so an order or an ad can invalidate every C2C view by prefix
 * (an order changes its ad's available amount and both sides' lists).
 */
export const c2cKeys = {
  all: ['c2c'] as const,
  markets: ['c2c', 'markets'] as const,
  ads: (coin: string | null, fiat: C2cFiat | null) => ['c2c', 'ads', coin ?? 'all', fiat ?? 'all'] as const,
  allAds: ['c2c', 'ads'] as const,
  ad: (id: number) => ['c2c', 'ad', id] as const,
  orders: (side: 'buyer' | 'merchant', status: string) => ['c2c', 'orders', side, status] as const,
  allOrders: ['c2c', 'orders'] as const,
  order: (id: number) => ['c2c', 'order', id] as const,
  allOrderDetails: ['c2c', 'order'] as const,
  merchant: ['c2c', 'merchant'] as const,
  ownAds: ['c2c', 'ownAds'] as const,
};
