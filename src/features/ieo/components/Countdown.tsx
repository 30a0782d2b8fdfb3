import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { splitDuration } from '../format';

/** Time left on the server clock: 02:03:04, with days in front when there are any. */
export function Countdown({ ms }: { ms: number }): ReactElement {
  const { t } = useTranslation();
  const { days, clock } = splitDuration(ms);
  return (
    <span className="ieo-countdown" data-testid="ieo-countdown">
      {days > 0 ? t('ieo.countdown.days', { days, time: clock }) : clock}
    </span>
  );
}
