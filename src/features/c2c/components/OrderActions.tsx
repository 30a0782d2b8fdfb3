import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cAction, C2cOrderEvent, C2cOrderView } from '../../../../machines/c2c/order.machine';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { formatFiat } from '../format';
import { AppealDialog } from './AppealDialog';
import { ConfirmDialog } from './ConfirmDialog';

/** The chat pages of an order (help/center, built with the support chat): the buyer's and the merchant's. */
export const chatPath = (role: 'buyer' | 'merchant'): string =>
  role === 'buyer' ? '/pages/help/center/otcChat' : '/pages/help/center/newotcChat';

type Confirmable = Exclude<C2cAction, 'appeal'>;

/**
 * What the viewer can do now, as the machine offers it (the actions the transition table allows this side in this
 * status): "I have paid" and cancel for the buyer while paying, release for the merchant once paid, an appeal for
 * either side once paid, each behind a confirmation (an appeal asks for its reason); and the order's chat.
 */
export function OrderActions({
  view,
  send,
}: {
  view: C2cOrderView;
  send: (event: C2cOrderEvent) => void;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const o = view.order;
  const amount = `${formatFiat(o.amount, i18n.language)} ${o.fiat}`;
  const [asking, setAsking] = useState<Confirmable | null>(null);
  const [appealing, setAppealing] = useState(false);
  const EVENT: Record<Confirmable, C2cOrderEvent> = {
    pay: { type: 'PAY' },
    cancel: { type: 'CANCEL' },
    release: { type: 'RELEASE' },
  };
  const any = view.actions.pay || view.actions.cancel || view.actions.release || view.actions.appeal;

  return (
    <section className="c2c-actions" aria-label={t('c2c.order.actions')}>
      {view.error ? (
        <p className="field-msg field-error c2c-refusal" role="alert" data-testid="c2c-refusal">
          {view.error}
        </p>
      ) : null}
      {view.actions.pay || view.busy === 'pay' ? (
        <Button block busy={view.busy === 'pay'} onClick={() => setAsking('pay')} data-testid="c2c-pay">
          {t('c2c.action.pay')}
        </Button>
      ) : null}
      {view.actions.release || view.busy === 'release' ? (
        <Button block busy={view.busy === 'release'} onClick={() => setAsking('release')} data-testid="c2c-release">
          {t('c2c.action.release')}
        </Button>
      ) : null}
      <div className="c2c-action-row">
        {view.actions.cancel || view.busy === 'cancel' ? (
          <Button
            variant="secondary"
            busy={view.busy === 'cancel'}
            onClick={() => setAsking('cancel')}
            data-testid="c2c-cancel"
          >
            {t('c2c.action.cancel')}
          </Button>
        ) : null}
        {view.actions.appeal || view.busy === 'appeal' ? (
          <Button
            variant="secondary"
            busy={view.busy === 'appeal'}
            onClick={() => setAppealing(true)}
            data-testid="c2c-appeal"
          >
            {t('c2c.action.appeal')}
          </Button>
        ) : null}
        <Link
          to={chatPath(o.role)}
          search={{ id: o.id }}
          className={any ? 'btn btn-secondary' : 'btn btn-secondary btn-block'}
          data-testid="c2c-chat"
        >
          <span className="btn-label">
            <Icon name="mail" size={16} /> {t('c2c.action.chat')}
          </span>
        </Link>
      </div>
      <ConfirmDialog
        open={asking !== null}
        title={asking ? t(`c2c.confirm.${asking}.title`) : ''}
        text={asking ? t(`c2c.confirm.${asking}.text`, { amount, coin: o.coin }) : ''}
        confirm={asking ? t(`c2c.confirm.${asking}.confirm`) : ''}
        danger={asking === 'cancel'}
        onConfirm={() => {
          if (asking) send(EVENT[asking]);
        }}
        onClose={() => setAsking(null)}
      />
      <AppealDialog
        open={appealing}
        onAppeal={(reason) => send({ type: 'APPEAL', reason })}
        onClose={() => setAppealing(false)}
      />
    </section>
  );
}
