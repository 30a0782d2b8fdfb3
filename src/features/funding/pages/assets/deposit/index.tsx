import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchDepositAddress, fetchDepositCurrencies } from '../../../../../../core/api/funding';
import { type Chain, type ChainCoin, isChainCoin } from '../../../../../../protocol/chains';
import { formatBalance } from '../../../../../components/assets/format';
import { Spinner } from '../../../../../components/Controls';
import { Icon } from '../../../../../components/Icon';
import { Page } from '../../../../../components/Page';
import { Segmented } from '../../../../../components/Segmented';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { keys } from '../../../../../data/keys';
import { loadFailed, need } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { errorText } from '../../../../../lib/i18n';
import { CopyButton } from '../../../components/CopyButton';
import { QrCode } from '../../../components/QrCode';
import { RecordsLink } from '../../../components/RecordsLink';
import '../../../funding.css';

type Method = 'crypto' | 'bank';

/**
 * Deposit (assets/deposit/index): pick a coin and its chain (SPEC 9), see the platform's address as a QR code with a
 * copy button, the minimum, and go on to report the payment; or the bank details for a bank transfer.
 */
export default function DepositPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rawCoin = (useQueryParam('coin') ?? '').toUpperCase();
  const [method, setMethod] = useState<Method>(useQueryParam('method') === 'bank' ? 'bank' : 'crypto');
  const [coin, setCoin] = useState<ChainCoin>(isChainCoin(rawCoin) ? rawCoin : 'USDT');
  const [chain, setChain] = useState<Chain>('ERC20');
  const currencies = useQuery({ queryKey: keys.depositCurrencies, queryFn: () => need(fetchDepositCurrencies()) });
  const data = currencies.data;
  const info = data?.coins.find((c) => c.coin === coin);
  const chains = info?.chains ?? [];
  const activeChain: Chain = chains.includes(chain) ? chain : (chains[0] ?? 'ERC20');

  // No address configured is an answer to show (its message), not a failed load.
  const shown = useQuery({
    queryKey: keys.depositAddress(coin, activeChain),
    queryFn: async () => {
      const r = await fetchDepositAddress(coin, activeChain);
      return r.ok ? { data: r.data, message: '' } : { data: null, message: r.message ?? '' };
    },
    enabled: Boolean(info) && method === 'crypto',
  }).data;

  return (
    <Page title={t('funding.deposit.title')} right={<RecordsLink tab="deposits" />}>
      {!data ? (
        <LoadingOrFailed failed={loadFailed(currencies)} onRetry={() => void currencies.refetch()} />
      ) : (
        <div className="funding">
          <Segmented
            label={t('funding.deposit.method')}
            value={method}
            options={[
              { value: 'crypto', label: t('funding.deposit.crypto') },
              { value: 'bank', label: t('funding.deposit.bank') },
            ]}
            onChange={setMethod}
          />
          {method === 'crypto' ? (
            <>
              <Segmented
                label={t('funding.coin')}
                value={coin}
                options={data.coins.map((c) => ({ value: c.coin, label: c.coin }))}
                onChange={setCoin}
              />
              {chains.length > 1 ? (
                <Segmented
                  label={t('funding.chain')}
                  value={activeChain}
                  options={chains.map((c) => ({ value: c, label: c }))}
                  onChange={setChain}
                />
              ) : (
                <p className="funding-chain-only">
                  {t('funding.chain')}: <span className="badge">{activeChain}</span>
                </p>
              )}
              <section className="card funding-address" aria-live="polite">
                {!shown ? (
                  <Spinner label={t('common.loading')} />
                ) : shown.data ? (
                  <>
                    <QrCode text={shown.data.address} label={t('funding.deposit.qrLabel')} />
                    <p className="funding-address-label">
                      {t('funding.deposit.addressLabel', { coin, chain: activeChain })}
                    </p>
                    <code className="funding-address-text" data-testid="deposit-address">
                      {shown.data.address}
                    </code>
                    <CopyButton text={shown.data.address} label={t('funding.deposit.copy')} />
                  </>
                ) : (
                  <div className="note" role="alert" data-testid="deposit-unconfigured">
                    <Icon name="alert" size={18} />
                    <p>{shown.message}</p>
                  </div>
                )}
              </section>
              {info ? (
                <div className="note note-info">
                  <Icon name="info" size={18} />
                  <p>
                    {t('funding.deposit.minNote', {
                      amount: formatBalance(info.min_deposit, lang, 0),
                      coin,
                      chain: activeChain,
                    })}{' '}
                    {t('funding.deposit.steps')}
                  </p>
                </div>
              ) : null}
              {shown?.data ? (
                <Link
                  to="/pages/assets/deposit/charge"
                  search={{ coin, chain: activeChain }}
                  className="btn btn-primary btn-block"
                  data-testid="deposit-report"
                >
                  {t('funding.deposit.report')}
                </Link>
              ) : null}
            </>
          ) : (
            <>
              <section className="card funding-address">
                {data.bank.details ? (
                  <>
                    <p className="funding-address-label">{t('funding.deposit.bankDetails')}</p>
                    <p className="funding-bank-details" data-testid="bank-details">
                      {data.bank.details}
                    </p>
                    <CopyButton text={data.bank.details} label={t('funding.deposit.copyDetails')} />
                  </>
                ) : (
                  <div className="note" role="alert">
                    <Icon name="alert" size={18} />
                    <p>{errorText('depositAddressMissing')}</p>
                  </div>
                )}
              </section>
              <div className="note note-info">
                <Icon name="info" size={18} />
                <p>
                  {t('funding.deposit.bankLead', {
                    amount: formatBalance(data.bank.min_deposit, lang, 0),
                    coin: data.bank.coin,
                  })}
                </p>
              </div>
              {data.bank.details ? (
                <Link
                  to="/pages/assets/deposit/charge"
                  search={{ method: 'bank' }}
                  className="btn btn-primary btn-block"
                >
                  {t('funding.deposit.reportBank')}
                </Link>
              ) : null}
            </>
          )}
        </div>
      )}
    </Page>
  );
}
