import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';

/** DESIGN "Fair outcomes": the IEO pages carry a risk note; no copy promises a return, an allotment or a price. */
export function RiskNote(): ReactElement {
  const { t } = useTranslation();
  return (
    <p className="ieo-risk" data-testid="risk-note">
      <Icon name="alert" size={16} />
      <span>{t('ieo.risk')}</span>
    </p>
  );
}
