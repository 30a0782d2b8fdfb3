import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/StateView';
import { errorText } from '../../../lib/i18n';

export const CHANGE_FUND_PASSWORD_PATH = '/pages/settings/security/changePayPassword';

/** SPEC 6/8: address creation needs a fund password; this is what shows instead of the form until one is set. */
export function FundPasswordNeeded(): ReactElement {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon="key"
      title={t('addresses.fundFirstTitle')}
      text={errorText('fundPasswordNotSet')}
      action={
        <Link to={CHANGE_FUND_PASSWORD_PATH} className="btn btn-primary">
          {t('addresses.setFundPassword')}
        </Link>
      }
    />
  );
}
