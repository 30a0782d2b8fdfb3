import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fetchC2cAds } from '../../../../../../core/api/c2c';
import type { C2cFiat } from '../../../../../../protocol/c2c';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { LoadMore } from '../../../../../components/assets/LoadMore';
import { SelectField } from '../../../../../components/assets/SelectField';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { usePagedList } from '../../../../../data/usePagedList';
import { session } from '../../../../../state/session';
import { AdCard } from '../../../components/AdCard';
import { C2cLinks } from '../../../components/C2cLinks';
import { useC2cMarkets, useC2cMerchant } from '../../../hooks/queries';
import { c2cKeys } from '../../../keys';
import '../../../c2c.css';

const ALL = 'all';

/**
 * Buying coins from merchants (assets/c2c/index, public like the IEO projects): the open ads, filtered by coin and
 * fiat currency (the ones that have ads, ctc/product/all), best price first, each with its merchant, price, limits,
 * coins left and payment methods; pull to refresh. Signed in: a way to the user's orders, and for merchants to their
 * own page. Buying needs a login (the buy page asks for one).
 */
export default function C2cIndexPage(): ReactElement {
  const { t } = useTranslation();
  const markets = useC2cMarkets();
  const { loggedIn, merchant } = useC2cMerchant();
  const me = useSnapshot(session).user;
  const [coin, setCoin] = useState<string>(ALL);
  const [fiat, setFiat] = useState<C2cFiat | typeof ALL>(ALL);
  const filter = { coin: coin === ALL ? null : coin, fiat: fiat === ALL ? null : fiat };
  const list = usePagedList(c2cKeys.ads(filter.coin, filter.fiat), async (beforeId) => {
    const page = await fetchC2cAds({ coin: filter.coin ?? undefined, fiat: filter.fiat ?? undefined }, beforeId);
    return page === false ? false : { items: page.ads, next_before_id: page.next_before_id };
  });
  const coins = markets.data?.coins ?? [];
  const fiats = markets.data?.fiats ?? [];

  return (
    <Page title={t('c2c.title')} className="c2c-page">
      <PullToRefresh onRefresh={() => Promise.all([list.reload(), markets.refetch()])}>
        <div className="c2c-stack">
          <p className="c2c-intro">{t('c2c.index.intro')}</p>
          <div className="c2c-filters" data-testid="c2c-filters">
            <SelectField
              label={t('c2c.index.coin')}
              value={coin}
              options={[{ value: ALL, label: t('c2c.index.allCoins') }, ...coins.map((c) => ({ value: c, label: c }))]}
              onValue={setCoin}
              testId="c2c-filter-coin"
            />
            <SelectField<C2cFiat | typeof ALL>
              label={t('c2c.index.fiat')}
              value={fiat}
              options={[{ value: ALL, label: t('c2c.index.allFiats') }, ...fiats.map((f) => ({ value: f, label: f }))]}
              onValue={setFiat}
              testId="c2c-filter-fiat"
            />
          </div>
          {list.state !== 'ready' ? (
            <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />
          ) : list.items.length === 0 ? (
            <EmptyState
              icon="spot"
              text={t(coin === ALL && fiat === ALL ? 'c2c.index.empty' : 'c2c.index.emptyFilter')}
            />
          ) : (
            <>
              <ul className="c2c-cards" data-testid="c2c-ads">
                {list.items.map((ad) => (
                  <AdCard key={ad.id} ad={ad} canBuy={me?.id !== ad.merchant_id} />
                ))}
              </ul>
              <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
            </>
          )}
          {loggedIn ? <C2cLinks show={merchant ? ['orders', 'merchant'] : ['orders']} /> : null}
          <p className="c2c-safety">
            <Icon name="shield" size={16} />
            <span>{t('c2c.index.safety')}</span>
          </p>
        </div>
      </PullToRefresh>
    </Page>
  );
}
