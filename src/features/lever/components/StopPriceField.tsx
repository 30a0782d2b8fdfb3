import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { StopKind } from '../../../../protocol/rules/lever';
import { Field } from '../../../components/Field';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../lib/amount-input';
import { formatPrice } from '../../../lib/figures';
import { formatSignedPercent } from '../format';
import { type StopBasis, type StopUnit, stopEcho, stopInOtherUnit } from '../stop-input';

/**
 * A take-profit or stop-loss field that takes a price or an ROE in percent (issue 26, lever ergonomics): a button at
 * its end switches what is typed, and the hint shows the other figure (the price an ROE sets, the ROE a price gives),
 * so the trader sees what will be sent before sending it. The owner turns the text into the wire price with
 * `stopWirePrice` from the same basis.
 */
export function StopPriceField({
  kind,
  unit,
  onUnit,
  value,
  onValue,
  basis,
  hint,
  error,
  testId,
}: {
  kind: StopKind;
  unit: StopUnit;
  onUnit: (unit: StopUnit) => void;
  value: string;
  onValue: (v: string) => void;
  basis: StopBasis;
  /** Shown when there is no other figure to echo. */
  hint?: string;
  error: string | undefined;
  testId: string;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const tp = kind === 'take_profit';
  const label =
    unit === 'roe'
      ? t(tp ? 'lever.stop.takeProfitRoe' : 'lever.stop.stopLossRoe')
      : t(tp ? 'lever.ticket.takeProfitPrice' : 'lever.ticket.stopLossPrice');
  const echo = stopEcho(unit, wireAmount(value, lang), kind, basis);
  const echoText =
    echo === null
      ? hint
      : 'price' in echo
        ? t('lever.stop.atPrice', { price: formatPrice(echo.price, lang, basis.priceScale) })
        : t('lever.stop.atRoe', { roe: formatSignedPercent(echo.roe, lang) });
  return (
    <Field
      label={label}
      value={value}
      onValue={(v) => onValue(amountKeystrokes(v))}
      inputMode="decimal"
      autoComplete="off"
      hint={echoText}
      error={error}
      data-testid={testId}
      end={
        <button
          type="button"
          className="code-btn"
          aria-label={t(unit === 'roe' ? 'lever.stop.asPrice' : 'lever.stop.asRoe')}
          onClick={() => {
            // The same stop in the other unit, so switching to look never loses one already set.
            const other = stopInOtherUnit(unit, wireAmount(value, lang), kind, basis);
            onValue(other === '' ? '' : editableAmount(other, lang, unit === 'roe' ? basis.priceScale : 2));
            onUnit(unit === 'roe' ? 'price' : 'roe');
          }}
          data-testid={`${testId}-unit`}
        >
          {unit === 'roe' ? t('lever.stop.unitRoe') : t('lever.stop.unitPrice')}
        </button>
      }
    />
  );
}
