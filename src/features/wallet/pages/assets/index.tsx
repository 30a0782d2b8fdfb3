import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, type ReactElement, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAssets } from '../../../../../core/api/wallet';
import type { AccountType } from '../../../../../protocol/wallet';
import { formatValuation, isZero, typeName } from '../../../../components/assets/format';
import { Button } from '../../../../components/Button';
import { Spinner } from '../../../../components/Controls';
import { Icon, type IconName } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { keys } from '../../../../data/keys';
import { need } from '../../../../data/query';
import { Amount } from '../../components/Amount';
import { EyeToggle } from '../../components/EyeToggle';
import { PriceBasis } from '../../components/PriceBasis';
import '../../wallet.css';

const TYPE_ICONS: Record<AccountType, IconName> = {
  coin: 'spot',
  option: 'option',
  contract: 'lever',
  trust: 'finance',
};

interface Action {
  to: string;
  icon: IconName;
  label: 'assets.deposit' | 'assets.withdraw' | 'assets.transferAction' | 'assets.records';
}

/** Deposit and withdraw come with a later part of the app: shown only once their pages exist (no dead links). */
const ACTIONS: readonly Action[] = [
  { to: '/pages/assets/deposit/index', icon: 'plus', label: 'assets.deposit' },
  { to: '/pages/assets/withdraw/index', icon: 'logout', label: 'assets.withdraw' },
  { to: '/pages/assets/transfer/index', icon: 'sort', label: 'assets.transferAction' },
  { to: '/pages/assets/record', icon: 'document', label: 'assets.records' },
];

/** New-coin subscriptions: their coins land in the spot account, locked until the project's unlock time. */
const IEO_PATH = '/pages/assets/ieo/index';
/** Buying coins from merchants with fiat (C2C). */
const C2C_PATH = '/pages/assets/c2c/index';

/** What waits for the user (an allotment to pay, a C2C order to pay or release), loaded after the page. */
const AwaitingYou = lazy(() => import('../../../awaiting/public').then((m) => ({ default: m.AwaitingYou })));

function RecordLink(): ReactElement {
  const { t } = useTranslation();
  return (
    <Link to="/pages/assets/record" className="icon-btn" aria-label={t('assets.records')}>
      <Icon name="clock" />
    </Link>
  );
}

/** The assets tab: total valuation, the four accounts, and the ways to move money. */
export default function AssetsPage(): ReactElement {
  const { t, i18n } = useTranslation();
  const assets = useQuery({ queryKey: keys.assets(), queryFn: () => need(fetchAssets()) });
  const list = assets.data;
  const load = async () => {
    await assets.refetch();
  };

  const lang = i18n.language;
  return (
    <Page title={t('assets.title')} left="menu" right={<RecordLink />} className="assets-page">
      <PullToRefresh onRefresh={load}>
        <section className="assets-hero" aria-labelledby="assets-total-label">
          <div className="assets-hero-head">
            <span id="assets-total-label">{t('assets.totalValuation')}</span>
            <EyeToggle />
          </div>
          {list ? (
            <>
              <p className="assets-total">
                <Amount testId="total-valuation" text={formatValuation(list.valuation, lang)} />
                <span className="assets-unit">USDT</span>
              </p>
              <PriceBasis pricedAt={list.basis.priced_at} unpriced={list.unpriced} />
            </>
          ) : assets.isError ? (
            <div className="assets-failed">
              <p>{t('common.loadFailed')}</p>
              <Button variant="secondary" onClick={() => void load()}>
                {t('common.retry')}
              </Button>
            </div>
          ) : (
            <Spinner label={t('common.loading')} />
          )}
          <nav className="assets-actions" aria-label={t('assets.actions')}>
            {ACTIONS.map((a) => (
              <Link key={a.to} to={a.to} className="assets-action">
                <span className="assets-action-icon">
                  <Icon name={a.icon} size={20} />
                </span>
                {t(a.label)}
              </Link>
            ))}
          </nav>
        </section>

        <Suspense fallback={null}>
          <AwaitingYou />
        </Suspense>
        <h2 className="section-title">{t('assets.accounts')}</h2>
        <ul className="asset-cards">
          {(list?.accounts ?? []).map((account) => {
            const held = account.rows.filter((r) => !isZero(r.total)).length;
            return (
              <li key={account.type}>
                <Link
                  to="/pages/assets/tradeAccount"
                  search={{ type: account.type }}
                  className="asset-card"
                  data-testid={`account-${account.type}`}
                >
                  <span className="list-icon">
                    <Icon name={TYPE_ICONS[account.type]} size={20} />
                  </span>
                  <span className="asset-card-text">
                    <span className="asset-card-name">{t(typeName(account.type))}</span>
                    <span className="asset-card-sub">
                      {held === 0 ? t('assets.noFunds') : t('assets.currencies', { count: held })}
                    </span>
                  </span>
                  <span className="asset-card-value">
                    <Amount text={formatValuation(account.valuation, lang)} testId={`valuation-${account.type}`} />
                    <span className="asset-card-unit">≈ USDT</span>
                  </span>
                  <Icon name="chevron" size={18} className="list-chevron" />
                </Link>
              </li>
            );
          })}
        </ul>
        <Link to={IEO_PATH} className="asset-card assets-ieo" data-testid="assets-ieo">
          <span className="list-icon">
            <Icon name="layers" size={20} />
          </span>
          <span className="asset-card-text">
            <span className="asset-card-name">{t('assets.ieo')}</span>
            <span className="asset-card-sub">{t('assets.ieoSub')}</span>
          </span>
          <Icon name="chevron" size={18} className="list-chevron" />
        </Link>
        <Link to={C2C_PATH} className="asset-card assets-ieo" data-testid="assets-c2c">
          <span className="list-icon">
            <Icon name="card" size={20} />
          </span>
          <span className="asset-card-text">
            <span className="asset-card-name">{t('assets.c2c')}</span>
            <span className="asset-card-sub">{t('assets.c2cSub')}</span>
          </span>
          <Icon name="chevron" size={18} className="list-chevron" />
        </Link>
        <p className="assets-note">
          <Icon name="info" size={16} />
          {t('assets.note')}
        </p>
      </PullToRefresh>
    </Page>
  );
}
