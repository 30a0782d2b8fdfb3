import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteLeaderboard } from '../../../../protocol/referral';
import { EmptyState } from '../../../components/assets/EmptyState';
import { LoadingOrFailed } from '../../../components/StateView';
import { loadFailed } from '../../../data/query';

/** The top 10 by verified invitees (user/invite_list), names masked by the server. */
export function Leaderboard({ query }: { query: UseQueryResult<InviteLeaderboard> }): ReactElement {
  const { t } = useTranslation();
  const board = query.data;
  return (
    <>
      <p className="promo-muted">{t('promotion.leaderboard.note')}</p>
      {!board ? (
        <LoadingOrFailed failed={loadFailed(query)} onRetry={() => void query.refetch()} />
      ) : board.items.length === 0 ? (
        <EmptyState icon="star" text={t('promotion.leaderboard.empty')} />
      ) : (
        <ol className="line-list" data-testid="promo-leaderboard">
          {board.items.map((r) => (
            <li key={r.rank} className="line-row" data-testid="promo-rank">
              <span className={r.rank <= 3 ? `promo-rank is-top promo-rank-${r.rank}` : 'promo-rank'}>
                <span className="visually-hidden">{t('promotion.leaderboard.rank', { rank: r.rank })}</span>
                <span aria-hidden="true">{r.rank}</span>
              </span>
              <span className="promo-line-title promo-name line-row-main">{r.name}</span>
              <span className="promo-line-value">
                {t('promotion.leaderboard.count', { count: r.verified_invitees })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
