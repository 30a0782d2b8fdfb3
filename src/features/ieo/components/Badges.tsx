import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { IeoLabel } from '../../../../machines/ieo/steps';
import type { IeoProjectState } from '../../../../protocol/ieo';

/** A project's list state (SPEC 4 "New-coin subscription"). */
export function ProjectStateBadge({ state }: { state: IeoProjectState }): ReactElement {
  const { t } = useTranslation();
  return (
    <span className={`badge ieo-state ieo-state-${state}`} data-testid="ieo-project-state" data-state={state}>
      {t(`ieo.states.${state}`)}
    </span>
  );
}

/** A subscription's status (SPEC 4 "IEO ipo_status", plus processing, paying, fail and success). */
export function StatusBadge({ label }: { label: IeoLabel }): ReactElement {
  const { t } = useTranslation();
  return (
    <span className={`badge ieo-label ieo-label-${label}`} data-testid="ieo-status" data-label={label}>
      {t(`ieo.label.${label}`)}
    </span>
  );
}
