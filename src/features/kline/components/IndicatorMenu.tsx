import { type ReactElement, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Icon } from '../../../components/Icon';
import { CHART_INDICATORS, chartIndicators, setChartIndicator } from '../../../state/chart-indicators';
import { STUDY_NAMES } from '../studies/study-periods';

/**
 * The chart's indicators: a button that opens a sheet of checkboxes, one per study. The browser's popover does the
 * rest (the button's expanded state, Escape and a tap outside to close, the top layer over a full-screen chart).
 * The choice is remembered (state/chart-indicators).
 */
export function IndicatorMenu(): ReactElement {
  const { t } = useTranslation();
  const { on } = useSnapshot(chartIndicators);
  const id = useId();
  return (
    <>
      <button type="button" className="chart-tool" popoverTarget={id} data-testid="indicators">
        <Icon name="layers" size={16} />
        {t('kline.indicators')}
        {on.length ? <span className="chart-tool-count">{on.length}</span> : null}
      </button>
      <fieldset id={id} popover="auto" className="study-list">
        <legend className="visually-hidden">{t('kline.indicators')}</legend>
        {CHART_INDICATORS.map((study) => (
          <label key={study} className="study-item">
            <input
              type="checkbox"
              checked={on.includes(study)}
              onChange={(e) => setChartIndicator(study, e.target.checked)}
            />
            {STUDY_NAMES[study]}
          </label>
        ))}
      </fieldset>
    </>
  );
}
