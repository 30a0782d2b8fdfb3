import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchHelpArticle, fetchHelpArticles, fetchHelpTopics } from '../../../../core/api/help';
import { HELP_QUERY_MAX, type HelpTopic, isHelpTopic } from '../../../../protocol/help';
import { need } from '../../../data/query';
import { helpKeys } from '../keys';

/** The topics that have articles, in the interface language. */
export function useHelpTopics() {
  const { i18n } = useTranslation();
  return useQuery({ queryKey: helpKeys.topics(i18n.language), queryFn: () => need(fetchHelpTopics()) });
}

/** The articles of a topic (null: all) that contain `q` (empty: all); the last answer stays while the next loads. */
export function useHelpArticles(topic: HelpTopic | null, q: string) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: helpKeys.list(i18n.language, topic, q),
    queryFn: () => need(fetchHelpArticles({ topic, q })),
    placeholderData: keepPreviousData,
  });
}

/** One article: null when there is none to read (null id: nothing to load). */
export function useHelpArticle(id: number | null) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: helpKeys.article(i18n.language, id ?? 0),
    queryFn: () => need(fetchHelpArticle(id ?? 0)),
    enabled: id !== null,
  });
}

/** A record id from the link, as the server reads one; anything else names nothing. */
export const articleId = (raw: string | undefined): number | null =>
  raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;

/** The topic named by the link, if it is one. */
export const topicParam = (raw: string | undefined): HelpTopic | null => (isHelpTopic(raw) ? raw : null);

/** The search named by the link, as the server takes it (trimmed, at most HELP_QUERY_MAX characters). */
export const queryParam = (raw: string | undefined): string => (raw ?? '').trim().slice(0, HELP_QUERY_MAX);
