import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { redeemFinanceOrder } from '../../../../core/api/finance';
import type { FinanceOrder } from '../../../../protocol/finance';
import { Button } from '../../../components/Button';
import { Dialog } from '../../../components/Dialog';
import { formatAmount, formatUnits } from '../format';
import { redemptionOf } from '../terms';

/**
 * Early redemption of a running order, with its cost shown before the user confirms (RULES.md "Finance"): the
 * penalty for the days left and what of the principal comes back. A refusal stays in the dialog, beside its button.
 */
export function RedeemDialog({
  order,
  onClose,
  onRedeemed,
}: {
  order: FinanceOrder;
  onClose: () => void;
  onRedeemed: (order: FinanceOrder) => void;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { penalty, returned } = redemptionOf(order);
  const money = (u: bigint) => `${formatUnits(u, lang, order.scale)} ${order.currency}`;

  const confirm = async () => {
    setBusy(true);
    setRefusal(null);
    const r = await redeemFinanceOrder(order.id);
    setBusy(false);
    if (r.ok) onRedeemed(r.order);
    else setRefusal(r.message);
  };

  return (
    <Dialog
      open
      title={t('finance.orders.redeemTitle')}
      onClose={onClose}
      actions={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button variant="danger" onClick={() => void confirm()} busy={busy} data-testid="redeem-confirm">
            {t('finance.orders.redeemConfirm')}
          </Button>
        </>
      }
    >
      <dl className="kv finance-kv" data-testid="redeem-figures">
        <dt>{t('finance.orders.amount')}</dt>
        <dd>{`${formatAmount(order.amount, lang, order.scale)} ${order.currency}`}</dd>
        <dt>{t('finance.orders.daysLeft')}</dt>
        <dd>{order.days_left}</dd>
        <dt>{t('finance.orders.penalty')}</dt>
        <dd data-testid="redeem-penalty">{money(penalty)}</dd>
        <dt>{t('finance.orders.returned')}</dt>
        <dd data-testid="redeem-returned">{money(returned)}</dd>
      </dl>
      <p className="muted finance-flat finance-dialog-note">{t('finance.orders.redeemNote')}</p>
      {refusal ? (
        <p className="field-msg field-error" role="alert" data-testid="redeem-refusal">
          {refusal}
        </p>
      ) : null}
    </Dialog>
  );
}
