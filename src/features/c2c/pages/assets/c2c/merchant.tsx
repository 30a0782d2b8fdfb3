import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { closeC2cAd } from '../../../../../../core/api/c2c';
import { isOpenC2cOrder } from '../../../../../../streams/c2c/news';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useServerNow } from '../../../../../hooks/useServerNow';
import { toast } from '../../../../../state/toasts';
import { C2cLinks } from '../../../components/C2cLinks';
import { OrderRow } from '../../../components/OrderRow';
import { OwnAdCard } from '../../../components/OwnAdCard';
import { useC2cMerchant, useOwnC2cAds } from '../../../hooks/queries';
import { useC2cLive } from '../../../hooks/useC2cLive';
import { c2cKeys } from '../../../keys';
import '../../../c2c.css';

/**
 * The merchant's page (assets/c2c/merchant, an addition: SPEC lists no merchant pages): the open orders buyers placed
 * on the merchant's ads, live, each leading to its page (release the coins there); the merchant's own ads with what
 * is left and sold, to edit or close; and a new ad. A user who is not a merchant is told how one becomes one.
 */
export default function C2cMerchantPage(): ReactElement {
  const { t } = useTranslation();
  const me = useC2cMerchant();
  return (
    <Page title={t('c2c.merchant.title')} className="c2c-page">
      {!me.query.data ? (
        <LoadingOrFailed failed={loadFailed(me.query)} onRetry={() => void me.query.refetch()} />
      ) : !me.merchant ? (
        <EmptyState icon="user" text={t('c2c.merchant.notMerchant')}>
          <Link to="/pages/assets/c2c/index" className="btn btn-secondary">
            <span className="btn-label">{t('c2c.links.market')}</span>
          </Link>
        </EmptyState>
      ) : (
        <Merchant nickname={me.nickname ?? ''} />
      )}
    </Page>
  );
}

function Merchant({ nickname }: { nickname: string }): ReactElement {
  const { t } = useTranslation();
  const client = useQueryClient();
  const ads = useOwnC2cAds();
  const { stream, orders } = useC2cLive(true);
  const now = useServerNow();
  const [closing, setClosing] = useState<number | null>(null);
  const incoming = (orders ?? []).filter((o) => o.role === 'merchant' && isOpenC2cOrder(o));

  const close = async (id: number) => {
    setClosing(id);
    const r = await closeC2cAd(id);
    setClosing(null);
    if (!r.ok) {
      toast(r.message, 'error');
      return;
    }
    toast(t('c2c.merchant.closed'), 'success');
    void client.invalidateQueries({ queryKey: c2cKeys.all });
  };

  return (
    <PullToRefresh onRefresh={() => Promise.all([ads.refetch(), stream.refresh()])}>
      <div className="c2c-stack">
        <section className="card c2c-section c2c-merchant-head">
          <span className="c2c-avatar" aria-hidden="true">
            {nickname.slice(0, 1).toUpperCase()}
          </span>
          <span className="c2c-row-title">
            <span className="c2c-row-name" data-testid="c2c-merchant-nickname">
              {nickname}
            </span>
            <span className="c2c-muted-line">{t('c2c.merchant.subtitle')}</span>
          </span>
        </section>

        <section className="c2c-stack" aria-labelledby="c2c-incoming-title">
          <h2 className="c2c-section-title" id="c2c-incoming-title">
            {t('c2c.merchant.incoming')}
          </h2>
          {orders === null ? (
            <LoadingOrFailed failed={false} onRetry={() => void stream.refresh()} />
          ) : incoming.length === 0 ? (
            <p className="c2c-muted-text">{t('c2c.merchant.noIncoming')}</p>
          ) : (
            <ul className="c2c-cards" data-testid="c2c-incoming">
              {incoming.map((o) => (
                <OrderRow key={o.id} order={o} now={now} />
              ))}
            </ul>
          )}
          <Link to="/pages/assets/c2c/orderList" search={{ side: 'merchant' }} className="c2c-link">
            {t('c2c.merchant.allOrders')}
          </Link>
        </section>

        <section className="c2c-stack" aria-labelledby="c2c-own-ads-title">
          <div className="c2c-section-head">
            <h2 className="c2c-section-title" id="c2c-own-ads-title">
              {t('c2c.merchant.ads')}
            </h2>
            <Link to="/pages/assets/c2c/adEdit" className="btn btn-primary btn-small" data-testid="c2c-new-ad">
              <span className="btn-label">
                <Icon name="plus" size={16} /> {t('c2c.merchant.newAd')}
              </span>
            </Link>
          </div>
          {!ads.data ? (
            <LoadingOrFailed failed={loadFailed(ads)} onRetry={() => void ads.refetch()} />
          ) : ads.data.length === 0 ? (
            <EmptyState icon="tag" text={t('c2c.merchant.noAds')} />
          ) : (
            <ul className="c2c-cards" data-testid="c2c-own-ads">
              {ads.data.map((ad) => (
                <OwnAdCard key={ad.id} ad={ad} busy={closing === ad.id} onClose={() => void close(ad.id)} />
              ))}
            </ul>
          )}
        </section>
        <C2cLinks show={['market']} />
      </div>
    </PullToRefresh>
  );
}
