import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { VerificationState } from '../../../../protocol/identity';
import { Button } from '../../../components/Button';
import { Spinner } from '../../../components/Controls';
import { Icon, type IconName } from '../../../components/Icon';
import { formatDateTime } from '../../../lib/format';
import { currentLang } from '../../../lib/i18n';

const BADGE: Record<VerificationState, string> = {
  none: 'badge',
  pending: 'badge badge-warn',
  verified: 'badge badge-ok',
  rejected: 'badge badge-down',
};

/** SPEC 4's verification states as a coloured badge. */
export function StateBadge({ state }: { state: VerificationState }): ReactElement {
  const { t } = useTranslation();
  return (
    <span className={BADGE[state]} data-state={state}>
      {t(`kyc.state.${state}`)}
    </span>
  );
}

/** The page body while the state loads, or after loading failed. */
export function Loading({ failed, retry }: { failed: boolean; retry: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="page-center state-view">
      {failed ? (
        <>
          <p className="state-text">{t('common.loadFailed')}</p>
          <Button onClick={retry}>{t('common.retry')}</Button>
        </>
      ) : (
        <Spinner label={t('common.loading')} />
      )}
    </div>
  );
}

const STATE_ICON: Record<VerificationState, IconName> = {
  none: 'info',
  pending: 'clock',
  verified: 'check',
  rejected: 'alert',
};

/** A level's result: under review, verified or rejected (with the reason), and when. */
export function StatusCard({
  state,
  title,
  text,
  reason,
  submittedAt,
  reviewedAt,
  children,
}: {
  state: VerificationState;
  title: string;
  text: string;
  reason?: string | null;
  submittedAt?: number | null;
  reviewedAt?: number | null;
  children?: ReactNode;
}): ReactElement {
  const { t } = useTranslation();
  const lang = currentLang();
  return (
    <section className={`kyc-status kyc-status-${state}`} aria-live="polite">
      <span className="kyc-status-icon" aria-hidden="true">
        <Icon name={STATE_ICON[state]} size={26} />
      </span>
      <h2 className="kyc-status-title">{title}</h2>
      <p className="kyc-status-text">{text}</p>
      {reason ? (
        <p className="kyc-reason">
          <strong>{t('kyc.reason')}:</strong> {reason}
        </p>
      ) : null}
      {submittedAt || reviewedAt ? (
        <dl className="kv kyc-dates">
          {submittedAt ? (
            <>
              <dt>{t('kyc.submittedAt')}</dt>
              <dd>{formatDateTime(submittedAt, lang)}</dd>
            </>
          ) : null}
          {reviewedAt ? (
            <>
              <dt>{t('kyc.reviewedAt')}</dt>
              <dd>{formatDateTime(reviewedAt, lang)}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {children}
    </section>
  );
}
