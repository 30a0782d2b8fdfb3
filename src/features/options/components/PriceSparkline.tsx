import { type ReactElement, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Points kept: two minutes at one tick a second, enough for the shorter periods. */
const MAX_POINTS = 120;
const WIDTH = 320;
const HEIGHT = 72;

interface Point {
  ts: number;
  price: string;
}

/**
 * A small time-share line of the last prices seen since the page opened, drawn as SVG without the chart library (it
 * loads only with chart pages: DESIGN "Fast on a phone"). The prices become floats here only to place pixels; every
 * figure shown as text stays exact. A running contract's entry price is drawn as a dashed line.
 */
export function PriceSparkline({
  symbol,
  last,
  ts,
  entry,
}: {
  symbol: string;
  last: string | null;
  ts: number | null;
  entry: string | null;
}): ReactElement {
  const { t } = useTranslation();
  const [points, setPoints] = useState<Point[]>([]);
  const held = useRef(symbol);
  useEffect(() => {
    if (held.current !== symbol) {
      held.current = symbol;
      setPoints([]);
      return;
    }
    if (last === null || ts === null) return;
    setPoints((p) => (p.at(-1)?.ts === ts ? p : [...p, { ts, price: last }].slice(-MAX_POINTS)));
  }, [symbol, last, ts]);

  const values = points.map((p) => Number(p.price));
  const entryValue = entry === null ? null : Number(entry);
  const all = entryValue === null ? values : [...values, entryValue];
  const min = Math.min(...all);
  const max = Math.max(...all);
  const span = max - min || 1;
  const y = (v: number) => HEIGHT - 4 - ((v - min) / span) * (HEIGHT - 8);
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  const line = values.map((v, i) => `${(i * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <figure className="option-spark" data-testid="sparkline">
      {values.length < 2 ? (
        <p className="option-muted">{t('options.chart.collecting')}</p>
      ) : (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={t('options.chart.label', { symbol })}
        >
          {entryValue !== null ? (
            <line className="option-spark-entry" x1="0" x2={WIDTH} y1={y(entryValue)} y2={y(entryValue)} />
          ) : null}
          <polyline className="option-spark-line" points={line} />
        </svg>
      )}
      <figcaption className="option-muted">{t('options.chart.caption')}</figcaption>
    </figure>
  );
}
