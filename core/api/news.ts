import { type NewsAnnouncements, type NewsArticle, type NewsKind, type NewsList, newsCalls } from '../../protocol/news';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(newsCalls);

/**
 * News and announcements (news/*): public reads in the language the request carries (the server picks the reader's
 * text, else English, else German); with a session the answers carry the user's read flags. No global loading bar:
 * the pages show their own spinner or pull indicator.
 */
const read = { loading: false } as const;

/** A page of published articles, newest first; `cursor` continues after the previous page. */
export function fetchNews(
  filter: { kind?: NewsKind | null; cursor?: string | null },
  opts: CallOptions = read,
): Promise<NewsList | false> {
  return callApi(
    'news/list',
    { ...(filter.kind ? { kind: filter.kind } : {}), ...(filter.cursor ? { cursor: filter.cursor } : {}) },
    opts,
  );
}

/** The latest announcements with the user's read flags (the home page's strip). Quiet: the strip just hides. */
export function fetchAnnouncements(opts: CallOptions = read): Promise<NewsAnnouncements | false> {
  return callApi('news/announcement', {}, { ...opts, quiet: true });
}

/**
 * One article (opening it marks it read for a logged-in user); null when there is none to read (a draft, a removed
 * article or a bad link), false when the call failed otherwise. Quiet: the page shows either.
 */
export async function fetchNewsArticle(id: number, opts: CallOptions = read): Promise<NewsArticle | null | false> {
  const r = await callApiResult('news/detail', { id: String(id) }, { ...opts, quiet: true });
  if (r.ok) return r.data;
  return r.field === 'id' ? null : false;
}
