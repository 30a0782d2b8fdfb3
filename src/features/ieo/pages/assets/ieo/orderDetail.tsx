import { type ReactElement, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { IeoOrder } from '../../../../../../protocol/ieo';
import type { IeoOrderStream } from '../../../../../../streams/ieo/subscriptions';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { useServerNow } from '../../../../../hooks/useServerNow';
import { toast } from '../../../../../state/toasts';
import { StatusBadge } from '../../../components/Badges';
import { Countdown } from '../../../components/Countdown';
import { IeoLinks } from '../../../components/IeoLinks';
import { MachineStates } from '../../../components/MachineStates';
import { OrderFacts } from '../../../components/OrderFacts';
import { PayPanel } from '../../../components/PayPanel';
import { RiskNote } from '../../../components/RiskNote';
import { StepList } from '../../../components/StepList';
import { recordId, useIeoOrder } from '../../../hooks/queries';
import { useIeoLive } from '../../../hooks/useIeoLive';
import { useSubscription } from '../../../hooks/useSubscription';
import '../../../ieo.css';

/**
 * One subscription (assets/ieo/orderDetail?id=): SPEC 3's fields, its steps 1 → 6 with their times, driven by its
 * machine (machines/ieo/subscription.machine.ts) fed by the `ieo` stream; in status 3 the payment with its deadline.
 */
export default function IeoOrderDetailPage(): ReactElement {
  const { t } = useTranslation();
  const id = recordId(useQueryParam('id'));
  const order = useIeoOrder(id);
  const { stream } = useIeoLive();
  return (
    <Page title={t('ieo.order.title')} className="ieo-page">
      {id === null ? (
        <EmptyState icon="alert" text={t('ieo.order.notFound')} />
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

function OrderView({ order, stream }: { order: IeoOrder; stream: IeoOrderStream }): ReactElement {
  const { t } = useTranslation();
  const now = useServerNow();
  const { view, send, snapshot } = useSubscription(order, stream, now, true);
  const o = view.order;

  // The payment's answer arrives in the machine: say so once when it went through.
  const before = useRef(view.step);
  const { step, ipoStatus } = view;
  useEffect(() => {
    if (before.current === 'paying' && ipoStatus >= 4) toast(t('ieo.pay.done'), 'success');
    before.current = step;
  }, [step, ipoStatus, t]);

  return (
    <div className="ieo-stack" data-testid="ieo-order" data-step={view.step}>
      <section className="card ieo-section">
        <div className="ieo-card-head">
          <span className="ieo-coin" aria-hidden="true">
            {o.coin.slice(0, 4)}
          </span>
          <h2 className="ieo-card-title">
            <span className="ieo-card-name">{o.name}</span>
            <span className="ieo-card-coin ieo-mono">{o.sn}</span>
          </h2>
          <StatusBadge label={view.label} />
        </div>
        {view.next ? (
          <p className="ieo-window" data-testid="ieo-next">
            <span>
              {t('ieo.next.in', { step: t(`ieo.next.${view.next.step}`) })} <Countdown ms={view.next.msLeft} />
            </span>
          </p>
        ) : null}
      </section>
      <PayPanel view={view} onPay={() => send({ type: 'PAY' })} />
      <section className="card ieo-section" aria-labelledby="ieo-steps-title">
        <h2 className="ieo-section-title" id="ieo-steps-title">
          {t('ieo.steps.label')}
        </h2>
        <StepList order={o} step={view.step} />
      </section>
      <OrderFacts order={o} />
      <MachineStates snapshot={snapshot} />
      <IeoLinks show={['orders', 'projects']} />
      <RiskNote />
    </div>
  );
}
