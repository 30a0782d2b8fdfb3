import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { changePercentText } from '../../../../core/decimal-change';
import { signOf } from '../../../../core/decimal-text';
import type { Candle } from '../../../../protocol/market';
import { formatChange, formatPrice } from '../../../lib/format';
import { formatVolumeOf } from '../../market/public';

type Figure = 'open' | 'high' | 'low' | 'close' | 'change' | 'volume';

/**
 * Open, high, low, close, change and volume of one bar (the one under the crosshair, else the newest), from the
 * candle's exact strings through the app's formatters. Short labels as traders read them (O H L C; E H T S in
 * German), each with its full name for assistive technology; figure and label never part at a line end.
 */
export function BarReadout({
  bar,
  priceScale,
  unit,
  lang,
}: {
  bar: Candle | null;
  priceScale: number;
  /** The instrument: its volume's unit. */
  unit: string;
  lang: string;
}): ReactElement {
  const { t } = useTranslation();
  const pct = bar ? changePercentText(bar.o, bar.c, 2) : null;
  const sign = pct === null ? 0 : signOf(pct);
  const dir = sign < 0 ? 'is-down' : sign > 0 ? 'is-up' : undefined;
  const figures: readonly [Figure, string, string?][] = bar
    ? [
        ['open', formatPrice(bar.o, lang, priceScale)],
        ['high', formatPrice(bar.h, lang, priceScale)],
        ['low', formatPrice(bar.l, lang, priceScale)],
        ['close', formatPrice(bar.c, lang, priceScale), dir],
        ['change', formatChange(pct, lang), dir],
        ['volume', formatVolumeOf(bar.v, unit, lang)],
      ]
    : [];
  return (
    <dl className="bar-readout" aria-label={t('kline.readout.label')} data-testid="readout" data-t={bar?.t}>
      {figures.map(([figure, text, tone]) => (
        <div key={figure} className="bar-figure">
          <dt>
            <span aria-hidden="true">{t(`kline.readout.${figure}Short`)}</span>
            <span className="visually-hidden">{t(`kline.readout.${figure}`)}</span>
          </dt>
          <dd className={tone} data-testid={`readout-${figure}`}>
            {text}
          </dd>
        </div>
      ))}
    </dl>
  );
}
