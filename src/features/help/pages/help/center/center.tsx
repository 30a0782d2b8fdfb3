import { useNavigate } from '@tanstack/react-router';
import { type ReactElement, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { HelpTopic } from '../../../../../../protocol/help';
import { EmptyState } from '../../../../../components/assets/EmptyState';
import { Page } from '../../../../../components/Page';
import { PullToRefresh } from '../../../../../components/PullToRefresh';
import { LoadingOrFailed } from '../../../../../components/StateView';
import { loadFailed } from '../../../../../data/query';
import { useQueryParam } from '../../../../../hooks/hooks';
import { ArticleList } from '../../../components/ArticleList';
import { ContactSupport } from '../../../components/ContactSupport';
import { SearchBox } from '../../../components/SearchBox';
import { TopicChips } from '../../../components/TopicChips';
import { queryParam, topicParam, useHelpArticles, useHelpTopics } from '../../../hooks/queries';
import '../../../help.css';

const CENTER_PATH = '/pages/help/center/center';

/** A link parameter as text (the router reads `?q=12` as a number). */
const asText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/**
 * The help centre (help/center/center, public): the way to customer service at the top, a search over the articles
 * in the reader's language, the topics that have articles, and the articles by topic. The search and the topic live
 * in the link (`?q=`, `?topic=`), so coming back from an article shows the same list. Pull to refresh reloads.
 */
export default function HelpCenterPage(): ReactElement {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const topic = topicParam(useQueryParam('topic'));
  const q = queryParam(useQueryParam('q'));
  const topics = useHelpTopics();
  const articles = useHelpArticles(topic, q);
  const refresh = () => Promise.all([topics.refetch(), articles.refetch()]);

  // Each change keeps the other part of the link as it is now (a topic picked right after clearing the search must
  // not bring the old search back).
  const show = useCallback(
    (change: { topic?: HelpTopic | null; q?: string }) =>
      void navigate({
        to: CENTER_PATH,
        search: (prev: Record<string, unknown>) => {
          const nextTopic = change.topic !== undefined ? change.topic : topicParam(asText(prev.topic));
          const nextQ = change.q !== undefined ? change.q : queryParam(asText(prev.q));
          return { ...(nextTopic ? { topic: nextTopic } : {}), ...(nextQ ? { q: nextQ } : {}) };
        },
        replace: true,
      }),
    [navigate],
  );
  const onSearch = useCallback((next: string) => show({ q: next }), [show]);

  const list = articles.data?.articles;
  return (
    <Page title={t('help.title')} className="help-page">
      <PullToRefresh onRefresh={refresh}>
        <div className="help-stack">
          <ContactSupport topic={topic} />
          <SearchBox value={q} onSearch={onSearch} />
          {topics.data && topics.data.topics.length > 0 ? (
            <TopicChips topics={topics.data.topics} value={topic} onChange={(next) => show({ topic: next })} />
          ) : null}
          <p className="visually-hidden" role="status">
            {q && list ? t('help.list.results', { count: list.length }) : ''}
          </p>
          {!list ? (
            <LoadingOrFailed failed={loadFailed(articles)} onRetry={() => void articles.refetch()} />
          ) : list.length === 0 ? (
            q ? (
              <EmptyState icon="search" text={t('help.list.noResults', { q })}>
                <p className="help-muted">{t('help.list.noResultsHint')}</p>
              </EmptyState>
            ) : (
              <EmptyState icon="info" text={t('help.list.empty')} />
            )
          ) : (
            <>
              {q ? <p className="help-muted">{t('help.list.results', { count: list.length })}</p> : null}
              <ArticleList articles={list} grouped={!q && topic === null} showTopic={!!q && topic === null} />
            </>
          )}
        </div>
      </PullToRefresh>
    </Page>
  );
}
