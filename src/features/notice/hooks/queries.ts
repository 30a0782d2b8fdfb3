import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fetchAnnouncements, fetchNews, fetchNewsArticle } from '../../../../core/api/news';
import { RECORD_ID_MAX } from '../../../../protocol/fields';
import { isNewsKind, type NewsKind, type NewsSummary } from '../../../../protocol/news';
import { need } from '../../../data/query';
import { usePagedList } from '../../../data/usePagedList';
import { session } from '../../../state/session';
import { noticeKeys } from '../keys';

/** The logged-in user's id, 0 for a guest: read flags are per user. */
function useReader(): number {
  return useSnapshot(session).user?.id ?? 0;
}

/** Published notices of a kind (null: both), newest first, a page at a time. */
export function useNotices(kind: NewsKind | null) {
  const { i18n } = useTranslation();
  const reader = useReader();
  return usePagedList<NewsSummary, string>(noticeKeys.list(i18n.language, reader, kind), async (cursor) => {
    const page = await fetchNews({ kind, cursor });
    return page === false ? false : { items: page.items, next_before_id: page.next_cursor };
  });
}

/** The latest announcements with the reader's read flags (the home page's strip). */
export function useAnnouncements() {
  const { i18n } = useTranslation();
  const reader = useReader();
  return useQuery({
    queryKey: noticeKeys.announcements(i18n.language, reader),
    queryFn: () => need(fetchAnnouncements()),
  });
}

/**
 * One notice: null when there is none to read (null id: nothing to load). Opening it marks it read on the server, so
 * the lists and the home strip are read again once it has loaded.
 */
export function useNotice(id: number | null) {
  const { i18n } = useTranslation();
  const reader = useReader();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: noticeKeys.article(i18n.language, reader, id ?? 0),
    queryFn: () => need(fetchNewsArticle(id ?? 0)),
    enabled: id !== null,
  });
  const opened = query.data?.read === true;
  useEffect(() => {
    if (opened) {
      void client.invalidateQueries({ queryKey: [...noticeKeys.all, 'list'] });
      void client.invalidateQueries({ queryKey: [...noticeKeys.all, 'announcements'] });
    }
  }, [opened, client]);
  return query;
}

/** A record id from the link, as the server reads one; anything else names nothing. */
export const noticeId = (raw: string | undefined): number | null =>
  raw && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= RECORD_ID_MAX ? Number(raw) : null;

/** The kind named by the link (`?kind=`), if it is one. */
export const kindParam = (raw: string | undefined): NewsKind | null => (isNewsKind(raw) ? raw : null);
