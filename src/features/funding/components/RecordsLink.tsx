import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';

/** The navigation bar's way to the deposit and withdrawal records (assets/withdraw/detail without an id). */
export function RecordsLink({ tab }: { tab: 'deposits' | 'withdrawals' }): ReactElement {
  const { t } = useTranslation();
  return (
    <Link
      to="/pages/assets/withdraw/detail"
      search={{ tab }}
      className="icon-btn"
      aria-label={t('funding.records.title')}
      data-testid="funding-records"
    >
      <Icon name="clock" />
    </Link>
  );
}
