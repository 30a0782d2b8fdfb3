import { useQuery } from '@tanstack/react-query';
import {
  fetchFinanceConfig,
  fetchFinanceProduct,
  fetchFinanceReport,
  fetchRecommendedProducts,
} from '../../../../core/api/finance';
import type { FinanceFamily } from '../../../../protocol/finance';
import { need } from '../../../data/query';
import { financeKeys } from '../keys';

/** The family's products (public). */
export const useFinanceConfig = (family: FinanceFamily) =>
  useQuery({ queryKey: financeKeys.config(family), queryFn: () => need(fetchFinanceConfig(family)) });

/**
 * The caller's totals. `quiet` for the summary on the public tab: a failure there just leaves the summary out, and a
 * dead session must not send a guest browsing products to the login page.
 */
export const useFinanceReport = (enabled = true, quiet = false) =>
  useQuery({
    queryKey: financeKeys.report,
    queryFn: () => need(fetchFinanceReport(quiet ? { loading: false, quiet: true } : { loading: false })),
    enabled,
  });

export const useRecommended = () =>
  useQuery({ queryKey: financeKeys.recommended, queryFn: () => need(fetchRecommendedProducts()) });

/** One product with the caller's trust balance in its currency (null id: nothing to load). */
export const useFinanceProduct = (family: FinanceFamily, id: number | null) =>
  useQuery({
    queryKey: financeKeys.product(family, id ?? 0),
    queryFn: () => need(fetchFinanceProduct(family, id ?? 0)),
    enabled: id !== null,
  });
