import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { BuyForm } from '../../components/BuyForm';
import { isFamily } from '../../components/FamilySwitch';
import { ProductTerms } from '../../components/ProductTerms';
import { RiskNote } from '../../components/RiskNote';
import { useFinanceProduct } from '../../hooks/queries';
import '../../finance.css';

/** The product id of the link, as the server reads a record id; anything else names no product. */
const productId = (raw: string | undefined): number | null => (raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null);

/**
 * Buying a product (finance/buyPage?id=&family=trust|hosting, login required): its terms, the amount with the trust
 * balance it comes from, the exact interest preview and dates, the early-redemption rule, the agreement.
 */
export default function FinanceBuyPage(): ReactElement {
  const { t } = useTranslation();
  const id = productId(useQueryParam('id'));
  const rawFamily = useQueryParam('family');
  const family = isFamily(rawFamily) ? rawFamily : 'trust';
  const info = useFinanceProduct(family, id);

  return (
    <Page title={t('finance.buy.title')} className="finance-page">
      {id === null ? (
        <EmptyState icon="alert" text={t('finance.buy.notFound')} />
      ) : !info.data ? (
        <LoadingOrFailed failed={loadFailed(info)} onRetry={() => void info.refetch()} />
      ) : (
        <>
          <ProductTerms product={info.data.product} />
          <BuyForm key={`${family}-${id}`} family={family} info={info.data} />
          <RiskNote />
        </>
      )}
    </Page>
  );
}
