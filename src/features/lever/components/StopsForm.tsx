import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverStopsDraft } from '../../../../machines/lever/order.machine';
import type { LeverPosition } from '../../../../protocol/lever';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
import { amountKeystrokes, editableAmount, wireAmount } from '../../../lib/amount-input';

/**
 * A position's take-profit and stop-loss, inline: both prices, prefilled with what is set; an emptied field clears
 * that price (lever/setstop). The server checks the sides against the entry and the liquidation price and the row
 * shows its refusal.
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
  return (
    <form
      className="lever-inline-form"
      data-testid="stops-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ take_profit: wireAmount(takeProfit, lang), stop_loss: wireAmount(stopLoss, lang) });
      }}
    >
      <Field
        label={t('lever.ticket.takeProfitPrice')}
        value={takeProfit}
        onValue={(v) => setTakeProfit(amountKeystrokes(v))}
        inputMode="decimal"
        autoComplete="off"
        data-testid="stops-tp"
      />
      <Field
        label={t('lever.ticket.stopLossPrice')}
        value={stopLoss}
        onValue={(v) => setStopLoss(amountKeystrokes(v))}
        inputMode="decimal"
        autoComplete="off"
        hint={t('lever.row.stopsHint')}
        data-testid="stops-sl"
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
