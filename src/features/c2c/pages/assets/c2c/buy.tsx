import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { C2cAd } from '../../../../../../protocol/c2c';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Page } from '../../../../../components/Page';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { session } from '../../../../../state/session';
import { PayTypes } from '../../../components/Badges';
import { BuyForm } from '../../../components/BuyForm';
import { OpenOrderNote } from '../../../components/OpenOrderNote';
import { formatC2cPrice, formatCoin, formatFiat } from '../../../format';
import { recordId, useC2cAd } from '../../../hooks/queries';
import { useC2cLive } from '../../../hooks/useC2cLive';
import { openOrderOn } from '../../../orders';
import { orderable } from '../../../terms';
import '../../../c2c.css';

/**
 * Buying from one ad (assets/c2c/buy?id=, login required): the merchant and the ad's terms, then the order form. An
 * open order of the user's on this ad shows instead, with the way to it, until it ends (the `c2c` stream says when);
 * a closed ad, one of the user's own, or one without coins left within its limits says so instead.
 */
export default function C2cBuyPage(): ReactElement {
  const { t } = useTranslation();
  const id = recordId(useQueryParam('id'));
  const ad = useC2cAd(id);
  return (
    <Page title={t('c2c.buy.title')} className="c2c-page">
      {id === null ? (
        <EmptyState icon="alert" text={t('c2c.buy.notFound')} />
      ) : !ad.data ? (
        <LoadingOrFailed failed={loadFailed(ad)} onRetry={() => void ad.refetch()} />
      ) : (
        <Buy ad={ad.data} />
      )}
    </Page>
  );
}

function Buy({ ad }: { ad: C2cAd }): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const me = useSnapshot(session).user;
  // The tab's shared order stream (its topic, polled only beside a lost socket), as the order pages read it.
  const { stream, orders } = useC2cLive();
  const open = openOrderOn(ad.id, orders);
  const blocked =
    ad.state !== 'open'
      ? 'c2c.buy.closed'
      : me?.id === ad.merchant_id
        ? 'c2c.buy.own'
        : !orderable(ad)
          ? 'c2c.buy.soldOut'
          : null;
  return (
    <div className="c2c-stack">
      <section className="card c2c-section" data-testid="c2c-buy-ad">
        <div className="c2c-ad-head">
          <span className="c2c-avatar" aria-hidden="true">
            {ad.merchant_nickname.slice(0, 1).toUpperCase()}
          </span>
          <h2 className="c2c-ad-merchant">
            <span className="c2c-ad-name">{ad.merchant_nickname}</span>
            <span className="c2c-muted-line">{t('c2c.buy.sells', { coin: ad.coin, fiat: ad.fiat })}</span>
          </h2>
        </div>
        <dl className="kv c2c-kv">
          <dt>{t('c2c.ad.price')}</dt>
          <dd>
            {formatC2cPrice(ad.price, lang)} {ad.fiat}
          </dd>
          <dt>{t('c2c.ad.limits')}</dt>
          <dd>
            {formatFiat(ad.min_fiat, lang)} – {formatFiat(ad.max_fiat, lang)} {ad.fiat}
          </dd>
          <dt>{t('c2c.ad.available')}</dt>
          <dd>
            {formatCoin(ad.available, lang, ad.scale)} {ad.coin}
          </dd>
        </dl>
        <PayTypes types={ad.pay_types} />
      </section>
      {open ? (
        <OpenOrderNote order={open} />
      ) : blocked ? (
        <EmptyState icon="info" text={t(blocked)}>
          <Link to="/pages/assets/c2c/index" className="btn btn-secondary">
            <span className="btn-label">{t('c2c.links.market')}</span>
          </Link>
        </EmptyState>
      ) : (
        // A refusal for an open order the stream has not told of yet: ask it now, so the order shows in its place.
        <BuyForm key={ad.id} ad={ad} onOrderOpen={() => void stream.refresh()} />
      )}
    </div>
  );
}
