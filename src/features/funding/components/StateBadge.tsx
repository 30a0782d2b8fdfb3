import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FundingState } from '../../../../protocol/funding';

/** SPEC 4's record states: under review, passed, rejected. */
export function StateBadge({ state }: { state: FundingState }): ReactElement {
  const { t } = useTranslation();
  return (
    <span className={`badge funding-state funding-state-${state}`} data-testid="funding-state">
      {t(`funding.state.${state}`)}
    </span>
  );
}
