import { type ReactElement, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cOrderStep } from '../../../../../../machines/c2c/order.machine';
import type { C2cOrder } from '../../../../../../protocol/c2c';
import type { C2cOrderStream } from '../../../../../../streams/c2c/orders';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { useServerNow } from '../../../../../hooks/useServerNow';
import { toast } from '../../../../../state/toasts';
import { StatusBadge } from '../../../components/Badges';
import { C2cLinks } from '../../../components/C2cLinks';
import { Countdown } from '../../../components/Countdown';
import { MachineStates } from '../../../components/MachineStates';
import { OrderActions } from '../../../components/OrderActions';
import { AppealFacts, OrderFacts } from '../../../components/OrderFacts';
import { PayInfo } from '../../../components/PayInfo';
import { StatusNote } from '../../../components/StatusNote';
import { formatCoin, formatFiat } from '../../../format';
import { recordId, useC2cOrder } from '../../../hooks/queries';
import { useC2cLive } from '../../../hooks/useC2cLive';
import { useOrderMachine } from '../../../hooks/useOrderMachine';
import '../../../c2c.css';

/** Which step an action leaves from, and the toast when the server has done it. */
const DONE: Partial<
  Record<
    C2cOrderStep,
    { to: C2cOrderStep; key: 'c2c.done.paid' | 'c2c.done.cancelled' | 'c2c.done.released' | 'c2c.done.appealed' }
  >
> = {
  markingPaid: { to: 'paid', key: 'c2c.done.paid' },
  cancelling: { to: 'cancelled', key: 'c2c.done.cancelled' },
  releasing: { to: 'completed', key: 'c2c.done.released' },
  appealing: { to: 'appeal', key: 'c2c.done.appealed' },
};

/**
 * One C2C order (assets/c2c/orderDetail?id=), for its buyer or its merchant, driven by its machine
 * (machines/c2c/order.machine.ts) fed by the `c2c` stream: the status, the payment window counting down on the
 * server's clock, where and what to pay (with copy buttons), the actions this side may take now, the appeal and its
 * decision, the order's facts and its chat.
 */
export default function C2cOrderDetailPage(): ReactElement {
  const { t } = useTranslation();
  const id = recordId(useQueryParam('id'));
  const order = useC2cOrder(id);
  const { stream } = useC2cLive(order.data?.role === 'merchant');
  return (
    <Page title={t('c2c.order.title')} className="c2c-page">
      {id === null ? (
        <EmptyState icon="alert" text={t('c2c.order.notFound')} />
      ) : !order.data ? (
        <LoadingOrFailed failed={loadFailed(order)} onRetry={() => void order.refetch()} />
      ) : (
        <PullToRefresh onRefresh={() => order.refetch()}>
          <OrderView key={order.data.id} order={order.data} stream={stream} />
        </PullToRefresh>
      )}
    </Page>
  );
}

function OrderView({ order, stream }: { order: C2cOrder; stream: C2cOrderStream }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const now = useServerNow();
  const { view, send, snapshot } = useOrderMachine(order, stream, now);
  const o = view.order;

  // An action's answer arrives in the machine: say so once when the server has done it.
  const before = useRef(view.step);
  const { step } = view;
  useEffect(() => {
    const done = DONE[before.current];
    if (done && step === done.to) toast(t(done.key), 'success');
    before.current = step;
  }, [step, t]);

  return (
    <div className="c2c-stack" data-testid="c2c-order" data-step={view.step} data-status={view.status}>
      <section className="card c2c-section c2c-order-head">
        <div className="c2c-row-head">
          <h2 className="c2c-row-title">
            <span className="c2c-row-name">
              {t(o.role === 'buyer' ? 'c2c.order.buying' : 'c2c.order.selling', {
                quantity: `${formatCoin(o.quantity, lang, o.scale)} ${o.coin}`,
              })}
            </span>
            <span className="c2c-mono">{o.sn}</span>
          </h2>
          <StatusBadge label={view.label} />
        </div>
        <p className="c2c-total">
          <span className="c2c-figure-label">
            {t(o.status === 5 ? 'c2c.order.amount' : o.role === 'buyer' ? 'c2c.order.youPay' : 'c2c.order.youReceive')}
          </span>
          <span className="c2c-big">
            {formatFiat(o.amount, lang)} {o.fiat}
          </span>
        </p>
        {view.countdown ? (
          <p className="c2c-window" data-testid="c2c-window">
            <Icon name="clock" size={16} />
            <span>
              {t('c2c.order.timeLeft')} <Countdown ms={view.countdown.msLeft} />
            </span>
          </p>
        ) : null}
      </section>
      <StatusNote view={view} />
      {o.status === 1 || o.status === 2 || o.status === 4 ? <PayInfo order={o} /> : null}
      <OrderActions view={view} send={send} />
      <AppealFacts order={o} />
      <OrderFacts order={o} />
      <MachineStates snapshot={snapshot} />
      <C2cLinks show={['orders', 'market']} />
    </div>
  );
}
