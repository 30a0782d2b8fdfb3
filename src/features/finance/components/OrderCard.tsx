import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FinanceOrder } from '../../../../protocol/finance';
import { Button } from '../../../components/Button';
import { formatDateTime } from '../../../lib/format';
import { formatAmount, formatRate, formatUtc } from '../format';

/**
 * One order (SPEC 3 "Finance hosting order"): amount, rate, cycle, days paid and left, income so far and over the
 * cycle, its times (pay time in the user's time, the UTC day boundaries in UTC), and for a redeemed order the
 * penalty it was charged. A running order offers early redemption.
 */
export function OrderCard({ order: o, onRedeem }: { order: FinanceOrder; onRedeem?: () => void }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const money = (v: string) => `${formatAmount(v, lang, o.scale, o.currency)} ${o.currency}`;
  const utc = (ms: number) => t('finance.utc', { time: formatUtc(ms, lang) });
  return (
    <li className="card finance-order" data-testid={`finance-order-${o.id}`}>
      <div className="finance-card-head">
        <span className="finance-card-name">{o.name}</span>
        <span className={`badge finance-state-${o.state}`}>{t(`finance.orders.states.${o.state}`)}</span>
      </div>
      <p className="finance-report-main">
        <span className="finance-rate-label">{t('finance.orders.amount')}</span>
        <span className="finance-big">{money(o.amount)}</span>
      </p>
      <dl className="kv finance-kv">
        <dt>{t('finance.product.dailyRate')}</dt>
        <dd>{formatRate(o.daily_rate, lang)}</dd>
        <dt>{t('finance.product.cycle')}</dt>
        <dd>{o.cycle_days}</dd>
        <dt>{t('finance.orders.daysPaid')}</dt>
        <dd>{o.days_paid}</dd>
        <dt>{t('finance.orders.daysLeft')}</dt>
        <dd>{o.days_left}</dd>
        <dt>{t('finance.orders.currentIncome')}</dt>
        <dd>{money(o.current_income)}</dd>
        <dt>{t('finance.orders.expectedIncome')}</dt>
        <dd>{money(o.expected_income)}</dd>
        {o.state === 'redeemed' && o.penalty !== null ? (
          <>
            <dt>{t('finance.orders.penaltyCharged')}</dt>
            <dd data-testid="order-penalty">{money(o.penalty)}</dd>
          </>
        ) : null}
        <dt>{t('finance.orders.payTime')}</dt>
        <dd>{formatDateTime(o.pay_time, lang)}</dd>
        <dt>{t('finance.orders.interestStart')}</dt>
        <dd>{utc(o.interest_start)}</dd>
        <dt>{t('finance.orders.completion')}</dt>
        <dd>{utc(o.completion_time)}</dd>
        {o.ended_at !== null && o.state === 'redeemed' ? (
          <>
            <dt>{t('finance.orders.endedAt')}</dt>
            <dd>{formatDateTime(o.ended_at, lang)}</dd>
          </>
        ) : null}
        <dt>{t('finance.orders.orderNo')}</dt>
        <dd className="finance-order-no">{o.order_no}</dd>
      </dl>
      {o.state === 'hosting' && o.days_left === 0 ? (
        // The cycle is over: the accrual job is about to pay the last day and return the principal.
        <p className="finance-order-completing" role="status">
          {t('finance.orders.completing')}
        </p>
      ) : o.state === 'hosting' && onRedeem ? (
        <Button variant="secondary" block onClick={onRedeem} data-testid="order-redeem">
          {t('finance.orders.redeem')}
        </Button>
      ) : null}
    </li>
  );
}
