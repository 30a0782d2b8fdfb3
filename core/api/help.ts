import { type HelpArticle, type HelpList, type HelpTopic, type HelpTopics, helpCalls } from '../../protocol/help';
import { areaApi, type CallOptions } from './client';

const { callApi, callApiResult } = areaApi(helpCalls);

/**
 * The help centre (help/*): public reads, in the language the request carries (the server picks the article's German
 * or English text). No global loading bar: the pages show their own spinner or pull indicator.
 */
const read = { loading: false } as const;

/** The topics that have articles, with their counts. */
export function fetchHelpTopics(opts: CallOptions = read): Promise<HelpTopics | false> {
  return callApi('help/topics', {}, opts);
}

/** The published articles, optionally of one topic and only those containing `q` (an empty one is no filter). */
export function fetchHelpArticles(
  filter: { topic?: HelpTopic | null; q?: string },
  opts: CallOptions = read,
): Promise<HelpList | false> {
  const q = filter.q?.trim() ?? '';
  return callApi('help/list', { ...(filter.topic ? { topic: filter.topic } : {}), ...(q ? { q } : {}) }, opts);
}

/**
 * One article; null when there is none to read (the server names the id: a draft, a removed article or a bad link),
 * false when the call failed otherwise. Quiet: the page shows either.
 */
export async function fetchHelpArticle(id: number, opts: CallOptions = read): Promise<HelpArticle | null | false> {
  const r = await callApiResult('help/detail', { id: String(id) }, { ...opts, quiet: true });
  if (r.ok) return r.data;
  return r.field === 'id' ? null : false;
}
