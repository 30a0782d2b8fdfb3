import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { FinanceFamily } from '../../../../../protocol/finance';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { isLoggedIn, session } from '../../../../state/session';
import { FamilySwitch, isFamily } from '../../components/FamilySwitch';
import { FinanceLinks } from '../../components/FinanceLinks';
import { ProductList } from '../../components/ProductCard';
import { ReportSummary } from '../../components/ReportSummary';
import { RiskNote } from '../../components/RiskNote';
import { useFinanceConfig, useFinanceReport } from '../../hooks/queries';
import '../../finance.css';

/**
 * The Finance tab (template/index, public): trust and hosting products with their fixed terms, the logged-in user's
 * summary, the ways to the orders and the rules, and the risk note. Buying needs a login (buyPage is guarded).
 */
export default function FinanceTabPage(): ReactElement {
  const { t } = useTranslation();
  const asked = useQueryParam('family');
  const [family, setFamily] = useState<FinanceFamily>(isFamily(asked) ? asked : 'trust');
  const config = useFinanceConfig(family);
  const loggedIn = isLoggedIn(useSnapshot(session));
  const report = useFinanceReport(loggedIn, true);

  return (
    <Page
      title={t('tabs.finance')}
      left="menu"
      className="finance-page"
      right={
        <Link to="/pages/finance/rulePage" className="icon-btn" aria-label={t('finance.links.rules')}>
          <Icon name="info" />
        </Link>
      }
    >
      {loggedIn && report.data ? <ReportSummary report={report.data} /> : null}
      <FamilySwitch value={family} onChange={setFamily} />
      {!config.data ? (
        <LoadingOrFailed failed={loadFailed(config)} onRetry={() => void config.refetch()} />
      ) : config.data.products.length === 0 ? (
        <EmptyState icon="finance" text={t('finance.list.empty')} />
      ) : (
        <ProductList products={config.data.products} />
      )}
      <FinanceLinks />
      <RiskNote />
    </Page>
  );
}
