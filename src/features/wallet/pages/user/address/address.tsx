import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fetchAddresses } from '../../../../../../core/api/addresses';
import { type ChainCoin, isChainCoin } from '../../../../../../protocol/chains';
import { useGoBack } from '../../../../../app/back';
import { Page } from '../../../../../components/Page';
import { EmptyState, LoadingOrFailed } from '../../../../../components/StateView';
import { keys } from '../../../../../data/keys';
import { loadFailed, need } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { pickAddress, picks } from '../../../../../state/picks';
import '../../../wallet.css';

/**
 * Choose a withdrawal address (`?coin=USDT`): the withdraw page sends the user here; choosing one stores it in
 * `picks.address` and goes back. Without a coin every saved address is offered.
 */
export default function ChooseAddressPage(): ReactElement {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const raw = useQueryParam('coin')?.toUpperCase() ?? '';
  const coin: ChainCoin | undefined = isChainCoin(raw) ? raw : undefined;
  const addresses = useQuery({ queryKey: keys.addresses(coin), queryFn: () => need(fetchAddresses(coin)) });
  const data = addresses.data;
  const { address: picked } = useSnapshot(picks);
  const createSearch = coin ? { coin } : {};

  const title = coin ? t('addresses.chooseTitleCoin', { coin }) : t('addresses.chooseTitle');
  return (
    <Page title={title}>
      {!data ? (
        <LoadingOrFailed failed={loadFailed(addresses)} onRetry={() => void addresses.refetch()} />
      ) : data.length === 0 ? (
        <EmptyState
          icon="tag"
          title={coin ? t('addresses.emptyCoinTitle', { coin }) : t('addresses.emptyTitle')}
          text={t('addresses.emptyChooseText')}
          action={
            <Link to="/pages/user/address/create" search={createSearch} className="btn btn-primary">
              {t('addresses.add')}
            </Link>
          }
        />
      ) : (
        <>
          <ul className="wallet-list" aria-label={title}>
            {data.map((a) => (
              <li key={a.id}>
                <label className="wallet-item wallet-pick">
                  <span className="wallet-item-main">
                    <span className="wallet-item-head">
                      <span className="wallet-item-title">{a.label ?? t('addresses.unnamed', { coin: a.coin })}</span>
                      <span className="badge wallet-chain">{coin ? a.chain : `${a.coin} · ${a.chain}`}</span>
                    </span>
                    <code className="wallet-address">{a.address}</code>
                  </span>
                  <input
                    type="radio"
                    className="radio"
                    name="address"
                    value={a.id}
                    checked={picked?.id === a.id}
                    readOnly
                    // A click also when it is already the chosen one (change would not fire): choosing it again goes back.
                    onClick={() => {
                      pickAddress(a);
                      goBack();
                    }}
                  />
                </label>
              </li>
            ))}
          </ul>
          <div className="wallet-actions">
            <Link to="/pages/user/address/create" search={createSearch} className="btn btn-primary">
              {t('addresses.add')}
            </Link>
            <Link to="/pages/user/address/index" className="btn btn-secondary">
              {t('addresses.manage')}
            </Link>
          </div>
        </>
      )}
    </Page>
  );
}
