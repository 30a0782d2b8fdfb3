import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { Spinner } from './Controls';
import { Icon, type IconName } from './Icon';

/** Loading, or a failed load with a retry button. */
export function LoadingOrFailed({ failed, onRetry }: { failed: boolean; onRetry: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="page-center state-view">
      {failed ? (
        <>
          <p className="state-text">{t('common.loadFailed')}</p>
          <Button onClick={onRetry}>{t('common.retry')}</Button>
        </>
      ) : (
        <Spinner label={t('common.loading')} />
      )}
    </div>
  );
}

/** An empty list or a missing precondition: icon, title, explanation and what to do. */
export function EmptyState({
  icon,
  title,
  text,
  action,
}: {
  icon: IconName;
  title: string;
  text?: string;
  action?: ReactNode;
}): ReactElement {
  return (
    <div className="page-center state-view wallet-empty">
      <span className="wallet-empty-icon" aria-hidden="true">
        <Icon name={icon} size={28} />
      </span>
      <h2 className="state-title">{title}</h2>
      {text ? <p className="state-text">{text}</p> : null}
      {action}
    </div>
  );
}
