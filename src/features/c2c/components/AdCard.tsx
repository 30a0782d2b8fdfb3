import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { C2cAd } from '../../../../protocol/c2c';
import { formatHolding } from '../../../lib/figures';
import { formatC2cPrice, formatCoin, formatFiat } from '../format';
import { PayTypes } from './Badges';

/** One ad in the list: merchant, price, limits, coins left, payment methods, and Buy (SPEC 3's ad fields). */
export function AdCard({ ad, canBuy }: { ad: C2cAd; canBuy: boolean }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <li className="card c2c-ad" data-testid={`c2c-ad-${ad.id}`}>
      <div className="c2c-ad-head">
        <span className="c2c-avatar" aria-hidden="true">
          {ad.merchant_nickname.slice(0, 1).toUpperCase()}
        </span>
        <span className="c2c-ad-merchant">
          <span className="c2c-ad-name">{ad.merchant_nickname}</span>
          <span className="c2c-muted-line">
            {t('c2c.ad.dealVolume', { amount: formatCoin(ad.deal_volume, lang, ad.scale), coin: ad.coin })}
          </span>
        </span>
      </div>
      <p className="c2c-ad-price">
        <span className="c2c-figure-label">{t('c2c.ad.price')}</span>
        <span className="c2c-big" data-testid="c2c-ad-price">
          {formatC2cPrice(ad.price, lang)} {ad.fiat}
        </span>
      </p>
      <dl className="kv c2c-kv">
        <dt>{t('c2c.ad.limits')}</dt>
        <dd>
          {formatFiat(ad.min_fiat, lang)} – {formatFiat(ad.max_fiat, lang)} {ad.fiat}
        </dd>
        <dt>{t('c2c.ad.available')}</dt>
        <dd>{formatHolding(ad.available, ad.coin, lang, ad.scale)}</dd>
      </dl>
      <div className="c2c-ad-foot">
        <PayTypes types={ad.pay_types} />
        {canBuy ? (
          <Link
            to="/pages/assets/c2c/buy"
            search={{ id: ad.id }}
            className="btn btn-primary btn-small c2c-buy-link"
            data-testid={`c2c-buy-${ad.id}`}
          >
            <span className="btn-label">{t('c2c.ad.buy', { coin: ad.coin })}</span>
          </Link>
        ) : null}
      </div>
    </li>
  );
}
