import type { FinanceFamily, FinanceOrderState } from '../../../protocol/finance';

/**
 * Query keys of the finance feature, all under one area, so a purchase or a redemption can invalidate every finance
 * view by prefix (products' capacity, the report and the order lists all change with it).
 */
export const financeKeys = {
  all: ['finance'] as const,
  config: (family: FinanceFamily) => ['finance', 'config', family] as const,
  product: (family: FinanceFamily, id: number) => ['finance', 'product', family, id] as const,
  report: ['finance', 'report'] as const,
  recommended: ['finance', 'recommended'] as const,
  orders: (family: FinanceFamily, state: FinanceOrderState) => ['finance', 'orders', family, state] as const,
};
