import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';
import { formatDateTime } from '../../../lib/format';

/** DESIGN "every number on screen says which price it uses": the valuation's price basis, and unpriced coins. */
export function PriceBasis({ pricedAt, unpriced }: { pricedAt: number | null; unpriced: boolean }): ReactElement {
  const { t, i18n } = useTranslation();
  return (
    <div className="assets-basis" data-testid="price-basis">
      <p>
        {pricedAt === null
          ? t('assets.basisNoQuote')
          : t('assets.basisLast', { time: formatDateTime(pricedAt, i18n.language) })}
      </p>
      {unpriced ? (
        <p className="assets-unpriced">
          <Icon name="alert" size={14} />
          {t('assets.unpriced')}
        </p>
      ) : null}
    </div>
  );
}
