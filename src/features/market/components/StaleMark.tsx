import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';

/** The visible marker on prices that stopped updating; its title says what it means. */
export function StaleMark({ stale }: { stale: boolean }): ReactElement | null {
  const { t } = useTranslation();
  if (!stale) return null;
  return (
    <span className="stale-mark" role="status" title={t('market.staleHint')} data-testid="stale">
      <Icon name="clock" size={14} />
      {t('market.stale')}
    </span>
  );
}

/** The longer note above a screen whose prices are stale. */
export function StaleNote({ stale }: { stale: boolean }): ReactElement | null {
  const { t } = useTranslation();
  if (!stale) return null;
  return (
    <div className="note note-warn" role="status" data-testid="stale-note">
      <Icon name="clock" size={18} />
      <p>{t('market.staleHint')}</p>
    </div>
  );
}
