import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverStopsDraft } from '../../../../machines/lever/order.machine';
import type { LeverPosition } from '../../../../protocol/lever';
import { Button } from '../../../components/Button';
import { editableAmount, wireAmount } from '../../../lib/amount-input';
import { errorText } from '../../../lib/i18n';
import { type StopBasis, type StopUnit, stopWirePrice } from '../stop-input';
import { StopPriceField } from './StopPriceField';

/**
 * A position's take-profit and stop-loss, inline: both prices, prefilled with what is set, each typed as a price or
 * as an ROE from the position's entry and leverage; an emptied field clears that price (lever/setstop). The server
 * checks the sides against the entry and the liquidation price and the row shows its refusal.
 */
export default function StopsForm({
  position,
  priceScale,
  busy,
  onSave,
  onCancel,
}: {
  position: LeverPosition;
  priceScale: number;
  busy: boolean;
  onSave: (stops: LeverStopsDraft) => void;
  onCancel: () => void;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const start = (v: string | null) => (v ? editableAmount(v, lang, priceScale) : '');
  const [takeProfit, setTakeProfit] = useState(() => start(position.profit_take_price));
  const [stopLoss, setStopLoss] = useState(() => start(position.stop_loss_price));
  const [takeProfitUnit, setTakeProfitUnit] = useState<StopUnit>('price');
  const [stopLossUnit, setStopLossUnit] = useState<StopUnit>('price');
  const [roeRefused, setRoeRefused] = useState<'take_profit' | 'stop_loss' | null>(null);
  const basis: StopBasis = {
    side: position.direction,
    entry: position.entry_price,
    leverage: position.leverage,
    priceScale,
  };
  const roeError = (kind: 'take_profit' | 'stop_loss') =>
    roeRefused === kind ? errorText('leverRoeInvalid') : undefined;
  return (
    <form
      className="lever-inline-form"
      data-testid="stops-form"
      onSubmit={(e) => {
        e.preventDefault();
        const tp = stopWirePrice(takeProfitUnit, wireAmount(takeProfit, lang), 'take_profit', basis);
        const sl = stopWirePrice(stopLossUnit, wireAmount(stopLoss, lang), 'stop_loss', basis);
        const refused = tp === null ? 'take_profit' : sl === null ? 'stop_loss' : null;
        setRoeRefused(refused);
        if (tp !== null && sl !== null) onSave({ take_profit: tp, stop_loss: sl });
      }}
    >
      <StopPriceField
        kind="take_profit"
        unit={takeProfitUnit}
        onUnit={setTakeProfitUnit}
        value={takeProfit}
        onValue={(v) => {
          setTakeProfit(v);
          setRoeRefused(null);
        }}
        basis={basis}
        error={roeError('take_profit')}
        testId="stops-tp"
      />
      <StopPriceField
        kind="stop_loss"
        unit={stopLossUnit}
        onUnit={setStopLossUnit}
        value={stopLoss}
        onValue={(v) => {
          setStopLoss(v);
          setRoeRefused(null);
        }}
        basis={basis}
        hint={t('lever.row.stopsHint')}
        error={roeError('stop_loss')}
        testId="stops-sl"
      />
      <div className="lever-actions">
        <Button type="submit" className="btn-small" busy={busy} data-testid="stops-save">
          {t('lever.row.save')}
        </Button>
        <Button variant="ghost" className="btn-small" onClick={onCancel}>
          {t('lever.row.dismiss')}
        </Button>
      </div>
    </form>
  );
}
