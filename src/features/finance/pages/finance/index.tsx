import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { FinanceLinks } from '../../components/FinanceLinks';
import { ProductList } from '../../components/ProductCard';
import { ReportCards } from '../../components/ReportCards';
import { RiskNote } from '../../components/RiskNote';
import { useFinanceReport, useRecommended } from '../../hooks/queries';
import '../../finance.css';

/**
 * The user's finance overview (finance/index): totals per currency over both families, the hosting products the
 * operator recommends, and the ways to the orders and the rules. Pull to refresh reloads both.
 */
export default function FinanceOverviewPage(): ReactElement {
  const { t } = useTranslation();
  const report = useFinanceReport();
  const recommended = useRecommended();
  const refresh = () => Promise.all([report.refetch(), recommended.refetch()]);

  return (
    <Page title={t('finance.overview.title')} className="finance-page">
      <PullToRefresh onRefresh={refresh}>
        <div className="finance-stack">
          {!report.data ? (
            <LoadingOrFailed failed={loadFailed(report)} onRetry={() => void report.refetch()} />
          ) : report.data.currencies.length === 0 ? (
            <EmptyState icon="finance" text={t('finance.overview.empty')}>
              <Link to="/pages/template/index" className="btn btn-secondary">
                <span className="btn-label">{t('finance.overview.browse')}</span>
              </Link>
            </EmptyState>
          ) : (
            <ReportCards report={report.data} />
          )}
          <FinanceLinks />
          <section className="finance-stack" aria-labelledby="finance-recommended">
            <h2 className="finance-section-title" id="finance-recommended">
              {t('finance.overview.recommended')}
            </h2>
            <p className="muted finance-flat">{t('finance.overview.recommendedNote')}</p>
            {!recommended.data ? (
              <LoadingOrFailed failed={loadFailed(recommended)} onRetry={() => void recommended.refetch()} />
            ) : recommended.data.length === 0 ? (
              <EmptyState icon="finance" text={t('finance.overview.noRecommended')} />
            ) : (
              <ProductList products={recommended.data} />
            )}
          </section>
          <RiskNote />
        </div>
      </PullToRefresh>
    </Page>
  );
}
