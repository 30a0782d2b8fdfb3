import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cOrder } from '../../../../protocol/c2c';
import { formatFiat } from '../format';
import { CopyRow } from './CopyRow';

/**
 * Where the buyer pays (SPEC 3 "pay type", "pay info"): the method the buyer chose, the recipient, the account and
 * the merchant's note, each with a copy button, and the exact amount to send with the order number as reference.
 */
export function PayInfo({ order: o }: { order: C2cOrder }): ReactElement {
  const { t, i18n } = useTranslation();
  const info = o.pay_info;
  return (
    <section className="card c2c-section" aria-labelledby="c2c-payinfo-title" data-testid="c2c-payinfo">
      <h2 className="c2c-section-title" id="c2c-payinfo-title">
        {t('c2c.order.payInfo')}
      </h2>
      <p className="c2c-muted-text">
        {t(o.role === 'buyer' ? 'c2c.order.payInfoBuyer' : 'c2c.order.payInfoMerchant', {
          method: t(`c2c.payType.${o.pay_type}`),
        })}
      </p>
      <dl className="c2c-copy-list">
        <CopyRow
          label={t('c2c.order.amountToPay')}
          value={`${formatFiat(o.amount, i18n.language)} ${o.fiat}`}
          testId="c2c-pay-amount"
        />
        <CopyRow label={t('c2c.payInfo.name')} value={info.name} testId="c2c-pay-name" />
        <CopyRow label={t(`c2c.payInfo.account.${info.type}`)} value={info.account} testId="c2c-pay-account" />
        {info.note ? <CopyRow label={t('c2c.payInfo.note')} value={info.note} testId="c2c-pay-note" /> : null}
        <CopyRow label={t('c2c.order.reference')} value={o.sn} testId="c2c-pay-reference" />
      </dl>
    </section>
  );
}
