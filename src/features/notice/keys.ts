import type { NewsKind } from '../../../protocol/news';

/**
 * Query keys of the notices. Each names the language (the server answers in the request's language) and the reader
 * (the answers carry the user's read flags; 0 for a guest), so a login or a language switch reads them anew.
 */
export const noticeKeys = {
  all: ['notice'] as const,
  list: (lang: string, reader: number, kind: NewsKind | null) => ['notice', 'list', lang, reader, kind] as const,
  announcements: (lang: string, reader: number) => ['notice', 'announcements', lang, reader] as const,
  article: (lang: string, reader: number, id: number) => ['notice', 'article', lang, reader, id] as const,
};
