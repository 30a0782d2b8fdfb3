import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fetchAssets } from '../../../../../core/api/wallet';
import type { BalanceRow, PriceSource } from '../../../../../protocol/wallet';
import { isZero } from '../../../../components/assets/format';
import { Page } from '../../../../components/Page';
import { LoadingOrFailed } from '../../../../components/StateView';
import { keys } from '../../../../data/keys';
import { loadFailed, need } from '../../../../data/query';
import { formatDateTime, formatNumber } from '../../../../lib/format';
import { isLoggedIn, session } from '../../../../state/session';
import '../../wallet.css';

/** The rule's steps, in order: what the server does for every valuation on the assets pages. */
const STEPS = ['usdt', 'stable', 'coins', 'unpriced', 'exact', 'time'] as const;

const SOURCE_KEY: Record<PriceSource, 'valuation.source.fixed' | 'valuation.source.last' | 'valuation.source.none'> = {
  fixed: 'valuation.source.fixed',
  last: 'valuation.source.last',
  none: 'valuation.source.none',
};

/** One row per currency the user holds (any account type), with the price its valuation used. */
function heldPrices(rows: readonly BalanceRow[]): BalanceRow[] {
  const seen = new Map<string, BalanceRow>();
  for (const row of rows) if (!isZero(row.total) && !seen.has(row.currency)) seen.set(row.currency, row);
  return [...seen.values()];
}

/** The prices behind the user's own valuation right now: the same answer the assets tab shows (wallet/list). */
function YourPrices(): ReactElement {
  const { t, i18n } = useTranslation();
  const assets = useQuery({ queryKey: keys.assets(), queryFn: () => need(fetchAssets()) });
  if (!assets.data) return <LoadingOrFailed failed={loadFailed(assets)} onRetry={() => void assets.refetch()} />;
  const rows = heldPrices(assets.data.accounts.flatMap((a) => a.rows));
  if (rows.length === 0) return <p className="valuation-empty">{t('valuation.noHoldings')}</p>;
  return (
    <table className="valuation-table" data-testid="valuation-prices">
      <thead>
        <tr>
          <th scope="col">{t('valuation.currency')}</th>
          <th scope="col">{t('valuation.price')}</th>
          <th scope="col">{t('valuation.basis')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.currency}>
            <th scope="row">{r.currency}</th>
            <td>{r.price === null ? '–' : `${formatNumber(r.price, i18n.language, { min: 2, max: 8 })} USDT`}</td>
            <td>
              {t(SOURCE_KEY[r.price_source])}
              {r.price_ts === null ? null : (
                <span className="valuation-time">{formatDateTime(r.price_ts, i18n.language)}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The valuation method (left menu, SPEC 2): how the assets pages value balances in USDT, in plain words, and for a
 * logged-in user the prices their own valuation uses at this moment. Public: the method is for everyone.
 */
export default function ValuationPage(): ReactElement {
  const { t } = useTranslation();
  const loggedIn = isLoggedIn(useSnapshot(session));
  return (
    <Page title={t('valuation.title')} className="valuation-page">
      <section className="card valuation-text">
        <h2 className="section-title">{t('valuation.howTitle')}</h2>
        <ol>
          {STEPS.map((s) => (
            <li key={s}>{t(`valuation.steps.${s}`)}</li>
          ))}
        </ol>
      </section>
      <section className="card valuation-text">
        <h2 className="section-title">{t('valuation.yoursTitle')}</h2>
        {loggedIn ? (
          <YourPrices />
        ) : (
          <p>
            <Link to="/pages/user/login/login" search={{ backpage: '/pages/assets/valuation' }}>
              {t('valuation.login')}
            </Link>
          </p>
        )}
      </section>
    </Page>
  );
}
