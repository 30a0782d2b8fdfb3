import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cOrderView } from '../../../../machines/c2c/order.machine';
import { Icon } from '../../../components/Icon';
import { formatCoin, formatFiat } from '../format';

/** One line on what is happening with the order now and what, if anything, this side should do. */
export function StatusNote({ view }: { view: C2cOrderView }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const o = view.order;
  const vars = {
    amount: `${formatFiat(o.amount, lang)} ${o.fiat}`,
    quantity: `${formatCoin(o.quantity, lang, o.scale)} ${o.coin}`,
    method: t(`c2c.payType.${o.pay_type}`),
  };
  const key = noteKey(view);
  const warn = view.step === 'expiring' || view.step === 'cancelled';
  return (
    <div className={warn ? 'note' : 'note note-info'} role="status" data-testid="c2c-note">
      <Icon name="info" size={18} />
      <p className="c2c-flat">{t(key, vars)}</p>
    </div>
  );
}

type NoteKey =
  | 'c2c.note.payingBuyer'
  | 'c2c.note.payingMerchant'
  | 'c2c.note.expiring'
  | 'c2c.note.paidBuyer'
  | 'c2c.note.paidMerchant'
  | 'c2c.note.appeal'
  | 'c2c.note.completedBuyer'
  | 'c2c.note.completedMerchant'
  | 'c2c.note.cancelled_buyer'
  | 'c2c.note.cancelled_expired'
  | 'c2c.note.cancelled_appeal';

function noteKey(view: C2cOrderView): NoteKey {
  const buyer = view.order.role === 'buyer';
  switch (view.step) {
    case 'awaitingPayment':
    case 'markingPaid':
    case 'cancelling':
      return buyer ? 'c2c.note.payingBuyer' : 'c2c.note.payingMerchant';
    case 'expiring':
      return 'c2c.note.expiring';
    case 'paid':
    case 'releasing':
    case 'appealing':
      return buyer ? 'c2c.note.paidBuyer' : 'c2c.note.paidMerchant';
    case 'appeal':
      return 'c2c.note.appeal';
    case 'completed':
      return buyer ? 'c2c.note.completedBuyer' : 'c2c.note.completedMerchant';
    case 'cancelled':
      return `c2c.note.cancelled_${view.order.cancel_reason ?? 'buyer'}`;
  }
}
