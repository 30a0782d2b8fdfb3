import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';

/** DESIGN "Fair outcomes": every finance page carries the risk note; no copy promises a return. */
export function RiskNote(): ReactElement {
  const { t } = useTranslation();
  return (
    <p className="finance-risk" data-testid="risk-note">
      <Icon name="alert" size={16} />
      <span>{t('finance.risk')}</span>
    </p>
  );
}
