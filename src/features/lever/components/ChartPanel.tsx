import { lazy, type ReactElement, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverLive } from '../../../../machines/lever/live';
import { readStorage, writeStorage } from '../../../state/storage';

/** The chart and the chart library load after the page's first paint, and not at all while the chart is hidden. */
const PositionChart = lazy(() => import('./PositionChart'));

/** '0' while the trader keeps the chart hidden (a preference of this device, cleared with the cache). */
const HIDDEN_KEY = 'tw.leverChart';

/**
 * The contracts page's chart card: a compact chart of the instrument with the open positions' lines, which the
 * trader may hide (remembered on this device). Compact so that the ticket's action stays in reach at 375x812.
 */
export function ChartPanel({
  symbol,
  priceScale,
  live,
}: {
  symbol: string;
  priceScale: number;
  live: LeverLive;
}): ReactElement {
  const { t } = useTranslation();
  const [shown, setShown] = useState(() => readStorage(HIDDEN_KEY) !== '0');
  const toggle = () => {
    writeStorage(HIDDEN_KEY, shown ? '0' : null);
    setShown(!shown);
  };
  return (
    <section className="lever-chart card" aria-labelledby="lever-chart-caption" data-testid="lever-chart">
      <div className="lever-chart-head">
        <span className="lever-muted" id="lever-chart-caption">
          {t('lever.chart.caption')}
        </span>
        <button
          type="button"
          className="lever-link"
          aria-expanded={shown}
          onClick={toggle}
          data-testid="lever-chart-toggle"
        >
          {t(shown ? 'lever.chart.hide' : 'lever.chart.show')}
        </button>
      </div>
      {shown ? (
        <Suspense
          fallback={
            <div className="trade-chart" aria-busy="true">
              <span className="spinner trade-chart-spinner" aria-hidden="true" />
            </div>
          }
        >
          <PositionChart symbol={symbol} priceScale={priceScale} live={live} />
        </Suspense>
      ) : null}
    </section>
  );
}
