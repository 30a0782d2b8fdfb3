import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cOrder } from '../../../../protocol/c2c';
import { formatDateTime } from '../../../lib/format';
import { formatC2cPrice, formatCoin, formatFiat } from '../format';

/** SPEC 3 "C2C order": number, times, pay type, the two sides, quantity, price, amount, limits. */
export function OrderFacts({ order: o }: { order: C2cOrder }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <section className="card c2c-section" aria-labelledby="c2c-facts-title" data-testid="c2c-facts">
      <h2 className="c2c-section-title" id="c2c-facts-title">
        {t('c2c.order.facts')}
      </h2>
      <dl className="kv c2c-kv">
        <dt>{t('c2c.order.sn')}</dt>
        <dd className="c2c-mono" data-testid="c2c-sn">
          {o.sn}
        </dd>
        <dt>{t('c2c.order.merchant')}</dt>
        <dd>{o.merchant_nickname}</dd>
        <dt>{t('c2c.order.buyer')}</dt>
        <dd>{o.buyer_nickname}</dd>
        <dt>{t('c2c.order.quantity')}</dt>
        <dd data-testid="c2c-quantity">
          {formatCoin(o.quantity, lang, o.scale)} {o.coin}
        </dd>
        <dt>{t('c2c.order.price')}</dt>
        <dd>
          {formatC2cPrice(o.price, lang)} {o.fiat}
        </dd>
        <dt>{t('c2c.order.amount')}</dt>
        <dd data-testid="c2c-amount">
          {formatFiat(o.amount, lang)} {o.fiat}
        </dd>
        <dt>{t('c2c.order.limit')}</dt>
        <dd>
          {formatFiat(o.min_fiat, lang)} – {formatFiat(o.max_fiat, lang)} {o.fiat}
        </dd>
        <dt>{t('c2c.order.payType')}</dt>
        <dd>{t(`c2c.payType.${o.pay_type}`)}</dd>
      </dl>
      <dl className="kv c2c-kv c2c-kv-times">
        <dt>{t('c2c.order.createdAt')}</dt>
        <dd>{formatDateTime(o.created_at, lang)}</dd>
        <dt>{t('c2c.order.payUntil')}</dt>
        <dd>{formatDateTime(o.pay_until, lang)}</dd>
        {o.paid_at !== null ? (
          <>
            <dt>{t('c2c.order.paidAt')}</dt>
            <dd>{formatDateTime(o.paid_at, lang)}</dd>
          </>
        ) : null}
        {o.completed_at !== null ? (
          <>
            <dt>{t('c2c.order.completedAt')}</dt>
            <dd>{formatDateTime(o.completed_at, lang)}</dd>
          </>
        ) : null}
        {o.cancelled_at !== null ? (
          <>
            <dt>{t('c2c.order.cancelledAt')}</dt>
            <dd>{formatDateTime(o.cancelled_at, lang)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** The appeal: who opened it, why and when, and the operator's decision with its reason once there is one. */
export function AppealFacts({ order: o }: { order: C2cOrder }): ReactElement | null {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const a = o.appeal;
  if (!a) return null;
  return (
    <section className="card c2c-section" aria-labelledby="c2c-appeal-title" data-testid="c2c-appeal-facts">
      <h2 className="c2c-section-title" id="c2c-appeal-title">
        {t('c2c.appeal.facts')}
      </h2>
      <dl className="kv c2c-kv c2c-kv-times">
        <dt>{t('c2c.appeal.by')}</dt>
        <dd>{t(a.by === o.role ? 'c2c.appeal.byYou' : `c2c.appeal.by_${a.by}`)}</dd>
        <dt>{t('c2c.appeal.openedAt')}</dt>
        <dd>{formatDateTime(a.opened_at, lang)}</dd>
      </dl>
      <p className="c2c-quote">{a.reason}</p>
      {a.decision ? (
        <>
          <p className="c2c-decision" data-testid="c2c-decision">
            <strong>{t(`c2c.appeal.decision.${a.decision}`)}</strong>
            {a.decided_at !== null ? ` · ${formatDateTime(a.decided_at, lang)}` : ''}
          </p>
          {a.decision_reason ? <p className="c2c-quote">{a.decision_reason}</p> : null}
        </>
      ) : (
        <p className="c2c-muted-text">{t('c2c.appeal.waiting')}</p>
      )}
    </section>
  );
}
