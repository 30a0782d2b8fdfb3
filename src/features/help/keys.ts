import type { HelpTopic } from '../../../protocol/help';
import { PUBLIC_KEY } from '../../data/query';

/**
 * Query keys of the help centre. Articles belong to no user, so they sit under the public area (kept across logins);
 * each key names the language, because the server answers in the language of the request.
 */
export const helpKeys = {
  all: [PUBLIC_KEY, 'help'] as const,
  topics: (lang: string) => [PUBLIC_KEY, 'help', 'topics', lang] as const,
  list: (lang: string, topic: HelpTopic | null, q: string) => [PUBLIC_KEY, 'help', 'list', lang, topic, q] as const,
  article: (lang: string, id: number) => [PUBLIC_KEY, 'help', 'article', lang, id] as const,
};
