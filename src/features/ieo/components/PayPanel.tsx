import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubscriptionView } from '../../../../machines/ieo/subscription.machine';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { formatDateTime } from '../../../lib/format';
import { formatMoney, IEO_PAY_SCALE, unitsOf } from '../format';
import { usePayBalance } from '../hooks/queries';
import { hasPayment } from '../terms';
import { Countdown } from './Countdown';

/**
 * What the subscription asks of the user now. In status 3: the amount to pay (allotment × IEO price, as the server
 * computed it), the USDT available in the spot account it is paid from, the deadline with the time left, and Pay.
 * Otherwise a line on what is happening: a step being processed, the allotment failed, the payment window closed,
 * the coins on their way, locked or free.
 */
export function PayPanel({ view, onPay }: { view: SubscriptionView; onPay: () => void }): ReactElement | null {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const o = view.order;
  const paying = view.step === 'allotted' || view.step === 'paying';
  const balance = usePayBalance(paying);

  if (view.step === 'allotmentFailed') return <Note text={t('ieo.pay.failed')} testId="ieo-failed" />;
  if (view.step === 'lapsed')
    return <Note text={t('ieo.pay.lapsed', { time: formatDateTime(o.pay_date, lang) })} testId="ieo-lapsed" warn />;
  if (view.step === 'lapsing')
    return <Note text={t('ieo.pay.windowEnded', { time: formatDateTime(o.pay_date, lang) })} testId="ieo-processing" />;
  if (view.processing) return <Note text={t('ieo.pay.processing')} testId="ieo-processing" />;
  if (view.step === 'paid')
    return <Note text={t('ieo.pay.paidNote', { time: formatDateTime(o.listing_date, lang) })} testId="ieo-paid" />;
  if (view.step === 'locked')
    return <Note text={t('ieo.pay.lockedNote', { time: formatDateTime(o.lock_date, lang) })} testId="ieo-locked" />;
  if (view.step === 'unlocked') return <Note text={t('ieo.pay.unlockedNote')} testId="ieo-unlocked" />;
  if (!paying || !hasPayment(o)) return null;

  const amount = `${formatMoney(o.payment, lang)} USDT`;
  const available = balance.data ?? null;
  const short = available !== null && unitsOf(available, IEO_PAY_SCALE) < unitsOf(o.payment, IEO_PAY_SCALE);
  return (
    <section className="card ieo-section ieo-pay" aria-labelledby="ieo-pay-title" data-testid="ieo-pay">
      <h2 className="ieo-section-title" id="ieo-pay-title">
        {t('ieo.pay.title')}
      </h2>
      <p className="ieo-pay-main">
        <span className="ieo-figure-label">{t('ieo.pay.amount')}</span>
        <span className="ieo-big" data-testid="ieo-payment">
          {amount}
        </span>
      </p>
      <p className="ieo-muted" data-testid="ieo-available">
        {available === null
          ? t('ieo.pay.availableLoading')
          : t('ieo.pay.available', { amount: `${formatMoney(available, lang)} USDT` })}
      </p>
      <p className="ieo-deadline">
        <Icon name="clock" size={16} />
        <span>
          {t('ieo.pay.deadline', { time: formatDateTime(o.pay_date, lang) })}
          {view.next ? (
            <>
              {' · '}
              {t('ieo.pay.left')} <Countdown ms={view.next.msLeft} />
            </>
          ) : null}
        </span>
      </p>
      {short ? (
        <div className="note ieo-short" data-testid="ieo-short">
          <Icon name="info" size={18} />
          <div>
            <p className="ieo-flat">{t('ieo.pay.short')}</p>
            <Link to="/pages/assets/transfer/index" search={{ to: 'coin', currency: 'USDT' }} className="ieo-link">
              {t('ieo.pay.transfer')}
            </Link>
          </div>
        </div>
      ) : null}
      {view.error ? (
        <p className="field-msg field-error ieo-refusal" role="alert" data-testid="ieo-refusal">
          {view.error}
        </p>
      ) : null}
      <Button block busy={view.busy} disabled={!view.canPay && !view.busy} onClick={onPay} data-testid="ieo-pay-submit">
        {t('ieo.pay.submit', { amount })}
      </Button>
      <p className="ieo-muted ieo-flat">{t('ieo.pay.from')}</p>
    </section>
  );
}

function Note({ text, testId, warn = false }: { text: string; testId: string; warn?: boolean }): ReactElement {
  return (
    <div className={warn ? 'note' : 'note note-info'} data-testid={testId} role="status">
      <Icon name="info" size={18} />
      <p className="ieo-flat">{text}</p>
    </div>
  );
}
