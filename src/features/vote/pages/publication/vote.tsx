import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../../components/assets/EmptyState';
import { Icon } from '../../../../components/Icon';
import { Page } from '../../../../components/Page';
import { PullToRefresh } from '../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../components/StateView';
import { loadFailed } from '../../../../data/query';
import { PollCard } from '../../components/PollCard';
import { GuestPrompt, VerifyBanner, VerifyDialog } from '../../components/VoterPrompt';
import { usePolls, useVote } from '../../hooks/usePolls';
import '../../vote.css';

/**
 * The listing polls (publication/vote, public; an addition to SPEC 2 for SPEC 7's `vote/set`): the open polls, then
 * the results of recently closed ones, each coin with its tally. Guests are shown the way to log in; a logged-in user
 * without a verified identity gets SPEC 8's prompt with the way to verification. Pull to refresh reloads the tallies.
 */
export default function VotePage(): ReactElement {
  const { t } = useTranslation();
  const { query, userId, viewer } = usePolls();
  const { vote, busy } = useVote(userId);
  const [verifyOpen, setVerifyOpen] = useState(false);
  const polls = query.data?.polls;
  const running = polls?.filter((p) => p.status !== 'closed') ?? [];
  const results = polls?.filter((p) => p.status === 'closed') ?? [];

  const card = (p: NonNullable<typeof polls>[number]) => (
    <PollCard
      key={p.id}
      poll={p}
      viewer={viewer}
      busy={busy === p.id}
      onVote={async (optionId) => {
        const r = await vote(p.id, optionId);
        if (r.outcome === 'verifyRequired') setVerifyOpen(true);
        return r;
      }}
    />
  );

  return (
    <Page title={t('vote.title')} className="vote-page">
      <PullToRefresh onRefresh={() => query.refetch()}>
        <div className="vote-stack">
          <p className="vote-intro">{t('vote.intro')}</p>
          {!polls ? (
            <LoadingOrFailed failed={loadFailed(query)} onRetry={() => void query.refetch()} />
          ) : (
            <>
              {viewer === 'guest' ? <GuestPrompt /> : viewer === 'unverified' ? <VerifyBanner /> : null}
              {polls.length === 0 ? (
                <EmptyState icon="star" text={t('vote.empty')} />
              ) : (
                <>
                  {running.length > 0 ? (
                    <section className="vote-section" aria-labelledby="vote-current" data-testid="vote-current">
                      <h2 id="vote-current" className="vote-section-title">
                        {t('vote.sections.current')}
                      </h2>
                      {running.map(card)}
                    </section>
                  ) : null}
                  {results.length > 0 ? (
                    <section className="vote-section" aria-labelledby="vote-results" data-testid="vote-results">
                      <h2 id="vote-results" className="vote-section-title">
                        {t('vote.sections.results')}
                      </h2>
                      {results.map(card)}
                    </section>
                  ) : null}
                  <p className="vote-muted">{t('vote.shareNote')}</p>
                </>
              )}
            </>
          )}
          <div className="note note-info" data-testid="vote-note">
            <Icon name="info" size={18} />
            <p>{t('vote.note')}</p>
          </div>
        </div>
      </PullToRefresh>
      <VerifyDialog open={verifyOpen} onClose={() => setVerifyOpen(false)} />
    </Page>
  );
}
