import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubscriptionStep } from '../../../../machines/ieo/steps';
import type { IeoOrder } from '../../../../protocol/ieo';
import { Icon } from '../../../components/Icon';
import { formatDateTime } from '../../../lib/format';
import { timeline } from '../timeline';

/** The subscription's steps 1 → 6 with their times, the current one marked (SPEC 4 ipo_status). */
export function StepList({ order, step }: { order: IeoOrder; step: SubscriptionStep }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <ol className="ieo-steps" aria-label={t('ieo.steps.label')} data-testid="ieo-steps">
      {timeline(order, step).map((row) => (
        <li
          key={row.key}
          className={`ieo-step is-${row.state}`}
          data-state={row.state}
          aria-current={row.state === 'current' || row.state === 'processing' ? 'step' : undefined}
        >
          <span className="ieo-step-mark" aria-hidden="true">
            {row.state === 'done' ? (
              <Icon name="check" size={14} />
            ) : row.state === 'failed' ? (
              <Icon name="close" size={14} />
            ) : (
              row.status
            )}
          </span>
          <span className="ieo-step-body">
            <span className="ieo-step-title">
              {t(row.titleKey as 'ieo.steps.subscribed')}
              <span className="ieo-step-state">{t(`ieo.steps.state.${row.state}`)}</span>
            </span>
            <span className="ieo-step-time">
              {t(row.timeKey as 'ieo.steps.at.applied')}: {formatDateTime(row.at, lang)}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}
