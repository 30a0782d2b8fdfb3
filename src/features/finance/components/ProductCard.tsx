import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FinanceProduct } from '../../../../protocol/finance';
import { Icon } from '../../../components/Icon';
import { formatAmount, formatRate } from '../format';

/** One product's terms; an on-sale product opens its buy page, a sold-out one only says so. */
export function ProductCard({ product }: { product: FinanceProduct }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const p = product;
  const body = (
    <>
      <div className="finance-card-head">
        <span className="finance-card-name">{p.name}</span>
        <span className="badge">{p.currency}</span>
        {p.sold_out ? (
          <span className="badge badge-warn finance-sold-out">{t('finance.product.soldOut')}</span>
        ) : (
          <Icon name="chevron" size={18} className="finance-card-chevron" />
        )}
      </div>
      <div className="finance-rates">
        <div>
          <span className="finance-rate-value">{formatRate(p.daily_rate, lang)}</span>
          <span className="finance-rate-label">{t('finance.product.dailyRate')}</span>
        </div>
        <div>
          <span className="finance-rate-value">{formatRate(p.apr, lang)}</span>
          <span className="finance-rate-label">{t('finance.product.apr')}</span>
        </div>
        <div>
          <span className="finance-rate-value">{p.cycle_days}</span>
          <span className="finance-rate-label">{t('finance.product.cycle')}</span>
        </div>
      </div>
      <dl className="kv finance-kv">
        <dt>{t('finance.product.min')}</dt>
        <dd>
          {formatAmount(p.min_amount, lang, p.scale, p.currency)} {p.currency}
        </dd>
        <dt>{t('finance.product.capacity')}</dt>
        <dd>
          {formatAmount(p.capacity, lang, p.scale, p.currency)} {p.currency}
        </dd>
      </dl>
    </>
  );
  return (
    <li data-testid={`finance-product-${p.family}-${p.id}`}>
      {p.sold_out ? (
        <div className="card finance-card is-sold-out">{body}</div>
      ) : (
        <Link
          to="/pages/finance/buyPage"
          search={{ id: p.id, family: p.family }}
          className="card finance-card is-action"
        >
          {body}
        </Link>
      )}
    </li>
  );
}

/** Products as a list (the cards are the list's items). */
export function ProductList({ products }: { products: readonly FinanceProduct[] }): ReactElement {
  return (
    <ul className="finance-cards">
      {products.map((p) => (
        <ProductCard key={`${p.family}-${p.id}`} product={p} />
      ))}
    </ul>
  );
}
