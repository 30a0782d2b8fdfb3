/**
 * Query keys of the IEO feature, all under one area, so a subscription or a payment can invalidate every IEO view by
 * prefix (a project's subscribed total and the caller's own subscription change with it).
 */
export const ieoKeys = {
  all: ['ieo'] as const,
  projects: ['ieo', 'projects'] as const,
  detail: (id: number) => ['ieo', 'detail', id] as const,
  orders: ['ieo', 'orders'] as const,
  order: (id: number) => ['ieo', 'order', id] as const,
  /** The USDT the coin account has available to pay an allotment with (wallet/detail, under the wallet area). */
  payBalance: ['wallet', 'detail', 'USDT', 'coin'] as const,
};
