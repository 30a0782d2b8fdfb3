import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyAccountReturn, RebateRecord } from '../../../../protocol/referral';
import { EmptyState } from '../../../components/assets/EmptyState';
import { formatBalance, formatSigned } from '../../../components/assets/format';
import { LoadMore } from '../../../components/assets/LoadMore';
import { LoadingOrFailed } from '../../../components/StateView';
import type { PagedList } from '../../../data/usePagedList';
import { formatDateTime } from '../../../lib/format';

/**
 * The rebates received (user/my_account_return): the all-time totals per currency, then each rebate with where it
 * came from (an invitee's fee, or a partner's bonus on the caller's own fee) and which trade.
 */
export function RebateList({
  list,
  totals,
}: {
  list: PagedList<RebateRecord>;
  totals: MyAccountReturn['totals'] | null;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  if (list.state !== 'ready') {
    return <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />;
  }
  if (list.items.length === 0) return <EmptyState icon="document" text={t('promotion.rebates.empty')} />;
  return (
    <>
      {totals && totals.length > 0 ? (
        <section className="card promo-totals" aria-labelledby="promo-totals-title">
          <h3 id="promo-totals-title" className="promo-totals-title">
            {t('promotion.rebates.totals')}
          </h3>
          <ul className="promo-total-list" data-testid="promo-totals">
            {totals.map((x) => (
              <li key={x.currency}>
                <span className="promo-total-amount">{formatBalance(x.amount, lang)}</span> {x.currency}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ul className="line-list" data-testid="promo-rebate-list">
        {list.items.map((r) => (
          <li key={r.id} className="line-row" data-testid="promo-rebate">
            <div className="line-row-main">
              <span className="promo-line-title">
                {r.role === 'bonus' ? t('promotion.rebates.bonus') : t('promotion.rebates.from', { name: r.invitee })}
              </span>
              <span className="promo-line-sub">
                {t(`promotion.rebates.sources.${r.source}`)} · {formatDateTime(r.created_at, lang)}
              </span>
            </div>
            <span className="promo-line-amount">
              {formatSigned(r.amount, lang)} {r.currency}
            </span>
          </li>
        ))}
      </ul>
      <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
    </>
  );
}
