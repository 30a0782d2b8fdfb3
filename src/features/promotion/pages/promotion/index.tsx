import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { Segmented } from '../../../../components/Segmented';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { InviteCard } from '../../components/InviteCard';
import { InviteeList } from '../../components/InviteeList';
import { Leaderboard } from '../../components/Leaderboard';
import { PartnerCard } from '../../components/PartnerCard';
import { PosterCard } from '../../components/PosterCard';
import { RebateList } from '../../components/RebateList';
import { RuleCard } from '../../components/RuleCard';
import { useInvitees, useInviteInfo, useLeaderboard, usePoster, useRebates } from '../../hooks/queries';
import '../../promotion.css';

type Tab = 'invitees' | 'rebates' | 'leaderboard';

/**
 * Referral (promotion/index): the invite code and link to copy, the poster to save or share, the partner's bonus
 * form, then the invitees, the rebates received and the top-10 leaderboard, and the rule in plain words. Pull to
 * refresh reloads all of it.
 */
export default function PromotionPage(): ReactElement {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('invitees');
  const info = useInviteInfo();
  const poster = usePoster();
  const invitees = useInvitees();
  const rebates = useRebates();
  const leaderboard = useLeaderboard();

  // Everything, not only the list shown: a new invitee changes the counts, the list and the leaderboard at once.
  const refresh = () =>
    Promise.all([info.refetch(), poster.refetch(), invitees.reload(), rebates.list.reload(), leaderboard.refetch()]);

  const data = info.data;
  return (
    <Page title={t('promotion.title')} className="promo-page">
      <PullToRefresh onRefresh={refresh}>
        {!data ? (
          <LoadingOrFailed failed={loadFailed(info)} onRetry={() => void info.refetch()} />
        ) : (
          <div className="promo-stack">
            <InviteCard info={data} />
            {poster.data ? (
              <PosterCard poster={poster.data} />
            ) : (
              <LoadingOrFailed failed={loadFailed(poster)} onRetry={() => void poster.refetch()} />
            )}
            {data.partner ? <PartnerCard info={data} partner={data.partner} /> : null}
            <section className="promo-lists" aria-label={t('promotion.tabs.label')}>
              <Segmented
                label={t('promotion.tabs.label')}
                value={tab}
                options={[
                  { value: 'invitees', label: t('promotion.tabs.invitees') },
                  { value: 'rebates', label: t('promotion.tabs.rebates') },
                  { value: 'leaderboard', label: t('promotion.tabs.leaderboard') },
                ]}
                onChange={setTab}
              />
              {tab === 'invitees' ? (
                <InviteeList list={invitees} />
              ) : tab === 'rebates' ? (
                <RebateList list={rebates.list} totals={rebates.totals} />
              ) : (
                <Leaderboard query={leaderboard} />
              )}
            </section>
            <RuleCard info={data} />
          </div>
        )}
      </PullToRefresh>
    </Page>
  );
}
