import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FinanceProduct } from '../../../../protocol/finance';
import { formatAmount, formatRate } from '../format';

/** A product's terms as the purchase would keep them (later product changes never touch a bought order). */
export function ProductTerms({ product: p }: { product: FinanceProduct }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const money = (v: string) => `${formatAmount(v, lang, p.scale)} ${p.currency}`;
  return (
    <section className="card finance-terms" data-testid="finance-terms">
      <div className="finance-card-head">
        <h2 className="finance-card-name">{p.name}</h2>
        <span className="badge">{p.currency}</span>
        {p.sold_out ? <span className="badge badge-warn">{t('finance.product.soldOut')}</span> : null}
      </div>
      <dl className="kv finance-kv">
        <dt>{t('finance.product.cycle')}</dt>
        <dd>{p.cycle_days}</dd>
        <dt>{t('finance.product.dailyRate')}</dt>
        <dd>{formatRate(p.daily_rate, lang)}</dd>
        <dt>{t('finance.product.apr')}</dt>
        <dd>{formatRate(p.apr, lang)}</dd>
        <dt>{t('finance.product.min')}</dt>
        <dd>{money(p.min_amount)}</dd>
        <dt>{t('finance.product.max')}</dt>
        <dd>{money(p.max_amount)}</dd>
        <dt>{t('finance.product.capacity')}</dt>
        <dd>{money(p.capacity)}</dd>
      </dl>
    </section>
  );
}
