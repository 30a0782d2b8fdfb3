import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { Invitee } from '../../../../protocol/referral';
import { EmptyState } from '../../../components/assets/EmptyState';
import { LoadMore } from '../../../components/assets/LoadMore';
import { LoadingOrFailed } from '../../../components/StateView';
import type { PagedList } from '../../../data/usePagedList';
import { formatDateTime } from '../../../lib/format';

/** The caller's invitees (user/my_invite_list): masked name, when they joined, whether they are verified. */
export function InviteeList({ list }: { list: PagedList<Invitee> }): ReactElement {
  const { t, i18n } = useTranslation();
  if (list.state !== 'ready') {
    return <LoadingOrFailed failed={list.state === 'error'} onRetry={() => void list.reload()} />;
  }
  if (list.items.length === 0) return <EmptyState icon="userPlus" text={t('promotion.invitees.empty')} />;
  return (
    <>
      <ul className="line-list" data-testid="promo-invitee-list">
        {list.items.map((p) => (
          <li key={p.id} className="line-row" data-testid="promo-invitee">
            <div className="line-row-main">
              <span className="promo-line-title promo-name">{p.name}</span>
              <span className="promo-line-sub">
                {t('promotion.invitees.joined', { date: formatDateTime(p.registered_at, i18n.language, false) })}
              </span>
            </div>
            {p.verified ? (
              <span className="badge badge-ok">{t('promotion.invitees.verified')}</span>
            ) : (
              <span className="badge">{t('promotion.invitees.unverified')}</span>
            )}
          </li>
        ))}
      </ul>
      <LoadMore hasMore={list.hasMore} busy={list.loadingMore} onMore={() => void list.loadMore()} />
    </>
  );
}
