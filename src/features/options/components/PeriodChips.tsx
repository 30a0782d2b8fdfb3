import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionPeriodTerms } from '../../../../protocol/options';
import { formatRatioPercent, periodUnits } from '../format';

/** The periods on offer, each with the payout ratio a win earns on top of the stake. */
export function PeriodChips({
  periods,
  value,
  onChange,
}: {
  periods: readonly OptionPeriodTerms[];
  value: number | null;
  onChange: (seconds: number) => void;
}): ReactElement {
  const { t, i18n } = useTranslation();
  return (
    <fieldset className="option-periods">
      <legend className="option-label">{t('options.ticket.period')}</legend>
      {periods.map((p) => {
        const { value: n, unit } = periodUnits(p.seconds);
        return (
          <button
            key={p.seconds}
            type="button"
            className={value === p.seconds ? 'option-period is-active' : 'option-period'}
            aria-pressed={value === p.seconds}
            data-testid={`period-${p.seconds}`}
            onClick={() => onChange(p.seconds)}
          >
            <span className="option-period-time">{t(`options.unit.${unit}`, { n })}</span>
            <span className="option-period-ratio">
              {t('options.ticket.ratio', { ratio: formatRatioPercent(p.ratio, i18n.language) })}
            </span>
          </button>
        );
      })}
    </fieldset>
  );
}
