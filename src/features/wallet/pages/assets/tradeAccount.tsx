import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAssets } from '../../../../../core/api/wallet';
import { ACCOUNT_TYPES, type AccountType, isAccountType } from '../../../../../protocol/wallet';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { formatBalance, formatValuation, isZero, typeName, typeShort } from '../../../../components/assets/format';
import { Button } from '../../../../components/Button';
import { Spinner, Switch } from '../../../../components/Controls';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { Segmented } from '../../../../components/Segmented';
import { keys } from '../../../../data/keys';
import { need } from '../../../../data/query';
import { useQueryParam } from '../../../../hooks/hooks';
import { Amount } from '../../components/Amount';
import { EyeToggle } from '../../components/EyeToggle';
import { PriceBasis } from '../../components/PriceBasis';
import '../../wallet.css';
import { formatBalanceOf } from '../../../../lib/figures';

/** One account type (?type=coin|option|contract|trust): every currency's available, frozen and value. */
export default function TradeAccountPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const raw = useQueryParam('type') ?? '';
  const type: AccountType = isAccountType(raw) ? raw : 'coin';
  const [hideZero, setHideZero] = useState(false);
  const assets = useQuery({ queryKey: keys.assets(type), queryFn: () => need(fetchAssets(type)) });
  const list = assets.data;
  const load = async () => {
    await assets.refetch();
  };

  const lang = i18n.language;
  const account = list?.accounts.find((a) => a.type === type);
  // Currencies with a balance first, each group in the ledger's order (base coins first).
  const rows = account
    ? [
        ...account.rows.filter((r) => !isZero(r.total)),
        ...(hideZero ? [] : account.rows.filter((r) => isZero(r.total))),
      ]
    : [];

  return (
    <Page title={t(typeName(type))} right={<EyeToggle />} className="asset-account-page">
      <PullToRefresh onRefresh={load}>
        <Segmented
          label={t('assets.accounts')}
          value={type}
          options={ACCOUNT_TYPES.map((v) => ({ value: v, label: t(typeShort(v)) }))}
          onChange={(v) => void navigate({ to: '/pages/assets/tradeAccount', search: { type: v }, replace: true })}
        />
        <section className="card asset-summary">
          <span className="asset-summary-label">{t('assets.accountValuation')}</span>
          {account && list ? (
            <>
              <p className="asset-summary-value">
                <Amount testId="account-valuation" text={formatValuation(account.valuation, lang)} />
                <span className="assets-unit">USDT</span>
              </p>
              <PriceBasis pricedAt={list.basis.priced_at} unpriced={account.unpriced} />
            </>
          ) : assets.isError ? (
            <Button variant="secondary" onClick={() => void load()}>
              {t('common.retry')}
            </Button>
          ) : (
            <Spinner label={t('common.loading')} />
          )}
          <div className="btn-row">
            <Link
              to="/pages/assets/transfer/index"
              search={{ from: type }}
              className="btn btn-primary btn-small"
              data-testid="account-transfer"
            >
              <span className="btn-label">{t('assets.transferAction')}</span>
            </Link>
          </div>
        </section>

        <div className="asset-list-head">
          <h2 className="section-title">{t('assets.balances')}</h2>
          <div className="asset-zero-toggle">
            <span aria-hidden="true">{t('assets.hideZero')}</span>
            <Switch checked={hideZero} onChange={setHideZero} label={t('assets.hideZero')} />
          </div>
        </div>
        {account && rows.length === 0 ? <EmptyState icon="assets" text={t('assets.emptyAccount')} /> : null}
        <ul className="asset-rows">
          {rows.map((r) => (
            <li
              key={r.currency}
              className={isZero(r.total) ? 'asset-row is-zero' : 'asset-row'}
              data-currency={r.currency}
            >
              <div className="asset-row-head">
                <span className="asset-row-coin">{r.currency}</span>
                <span className="asset-row-value">
                  ≈ <Amount text={formatValuation(r.valuation, lang)} /> USDT
                </span>
              </div>
              <dl className="asset-row-figures">
                <div>
                  <dt>{t('assets.available')}</dt>
                  <dd>
                    <Amount
                      testId={`available-${r.currency}`}
                      text={`${formatBalanceOf(r.available, r.currency, lang, r.scale)}\u00a0${r.currency}`}
                    />
                  </dd>
                </div>
                <div>
                  <dt>{t('assets.frozen')}</dt>
                  <dd>
                    <Amount text={`${formatBalanceOf(r.frozen, r.currency, lang, r.scale)}\u00a0${r.currency}`} />
                  </dd>
                </div>
                <div>
                  <dt>{t('assets.price')}</dt>
                  <dd>
                    {r.price_source === 'none' ? (
                      <span className="muted">{t('assets.noQuote')}</span>
                    ) : (
                      `${formatBalance(r.price ?? '0', lang)}\u00a0USDT`
                    )}
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      </PullToRefresh>
    </Page>
  );
}
