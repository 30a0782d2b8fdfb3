import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverPosition } from '../../../../protocol/lever';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
import { amountKeystrokes, wireAmount } from '../../../lib/amount-input';
import { formatPrice } from '../../../lib/format';
import { liquidationAfterTopUp } from '../ticket';

/**
 * More margin for an isolated position, inline: the amount, and before confirming the liquidation price it would
 * have then (the same rule as the server's, protocol/rules/lever.ts) beside the current one.
 */
export default function MarginForm({
  position,
  priceScale,
  quoteScale,
  currentLiquidation,
  busy,
  onAdd,
  onCancel,
}: {
  position: LeverPosition;
  priceScale: number;
  quoteScale: number;
  currentLiquidation: string | null;
  busy: boolean;
  onAdd: (amount: string) => void;
  onCancel: () => void;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [typed, setTyped] = useState('');
  const amount = wireAmount(typed, lang);
  const next = amount === '' ? null : liquidationAfterTopUp(position, priceScale, quoteScale, amount);
  const price = (v: string | null) => (v ? formatPrice(v, lang, priceScale) : '–');
  return (
    <form
      className="lever-inline-form"
      data-testid="margin-form"
      onSubmit={(e) => {
        e.preventDefault();
        onAdd(amount);
      }}
    >
      <Field
        label={t('lever.row.marginAmount')}
        value={typed}
        onValue={(v) => setTyped(amountKeystrokes(v))}
        inputMode="decimal"
        autoComplete="off"
        data-testid="margin-amount"
      />
      <p className="lever-muted" role="status" data-testid="margin-new-liquidation">
        {t('lever.row.newLiquidation', { price: price(next), now: price(currentLiquidation) })}
      </p>
      <div className="lever-actions">
        <Button type="submit" className="btn-small" busy={busy} data-testid="margin-confirm">
          {t('lever.row.confirmAdd')}
        </Button>
        <Button variant="ghost" className="btn-small" onClick={onCancel}>
          {t('lever.row.dismiss')}
        </Button>
      </div>
    </form>
  );
}
