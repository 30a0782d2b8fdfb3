import type { Kysely } from 'kysely';
import type { Lang } from '../../../protocol/lang';
import type { newsCalls } from '../../../protocol/news';
import {
  NEWS_ANNOUNCEMENTS,
  NEWS_PAGE_DEFAULT,
  type NewsKind,
  type NewsSummary,
  newsCursor,
  parseNewsCursor,
} from '../../../protocol/news';
import { textExcerpt, textFallback } from '../../../protocol/published-texts';
import type { DatabaseHandle } from '../../platform/db/connect';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import type { CallHandlers } from '../../platform/http/calls';
import { pickText } from '../../platform/published-texts';
import { newsTextsOf } from './articles';
import { type NewsDb, withNews } from './tables';

export interface NewsServices {
  database: DatabaseHandle;
  now: () => number;
}

/** Which of `ids` the user opened. */
async function readIds(db: NewsDb, userId: number | undefined, ids: readonly number[]): Promise<Set<number> | null> {
  if (userId === undefined) return null;
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('news_reads')
    .select('article_id')
    .where('user_id', '=', userId)
    .where('article_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.article_id));
}

/**
 * A page of published articles, newest first, from `cursor` on: each in the reader's language (else English, else
 * German) with its read flag for a logged-in reader.
 */
async function publishedPage(
  db: NewsDb,
  q: {
    kind?: NewsKind | undefined;
    cursor?: string | undefined;
    limit: number;
    lang: Lang;
    userId?: number | undefined;
    /** The texts' database (the module's tables are typed apart). */
    texts: Kysely<Database>;
  },
): Promise<{ items: NewsSummary[]; next_cursor: string | null }> {
  const after = q.cursor === undefined ? null : parseNewsCursor(q.cursor);
  const rows = await db
    .selectFrom('news_articles')
    .select(['id', 'kind', 'published_at'])
    .where('published', '=', 1)
    .$if(q.kind !== undefined, (qb) => qb.where('kind', '=', q.kind ?? 'news'))
    .$if(after !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('published_at', '<', after?.publishedAt ?? 0),
          eb.and([eb('published_at', '=', after?.publishedAt ?? 0), eb('id', '<', after?.id ?? 0)]),
        ]),
      ),
    )
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit);
  const ids = page.map((r) => r.id);
  const [texts, read] = await Promise.all([
    newsTextsOf(q.texts, ids, textFallback(q.lang)),
    readIds(db, q.userId, ids),
  ]);
  const items = page.flatMap((r) => {
    const text = pickText(texts.get(r.id) ?? {}, q.lang);
    // A published article always has German and English; a row without them is not shown rather than half shown.
    if (!text || r.published_at === null) return [];
    return [
      {
        id: r.id,
        kind: r.kind,
        title: text.title,
        excerpt: textExcerpt(text.body),
        lang: text.lang,
        published_at: r.published_at,
        read: read ? read.has(r.id) : null,
      },
    ];
  });
  const last = page.at(-1);
  return {
    items,
    next_cursor:
      rows.length > q.limit && last?.published_at != null
        ? newsCursor({ published_at: last.published_at, id: last.id })
        : null,
  };
}

/**
 * The readers' side: published articles only, without a session, each in the reader's language (else English, else
 * German). A draft or a removed article does not exist for readers. With a session, news/detail marks the article
 * read for that user (once; the first time counts) and the lists say which ones they opened.
 */
export function newsHandlers(s: NewsServices): CallHandlers<typeof newsCalls> {
  const base = s.database.db;
  const db = withNews(base);
  return {
    'news/list': async (input, ctx) =>
      publishedPage(db, {
        kind: input.kind,
        cursor: input.cursor,
        limit: input.limit ?? NEWS_PAGE_DEFAULT,
        lang: ctx.lang,
        userId: ctx.session?.userId,
        texts: base,
      }),
    'news/announcement': async (_input, ctx) => {
      const { items } = await publishedPage(db, {
        kind: 'announcement',
        limit: NEWS_ANNOUNCEMENTS,
        lang: ctx.lang,
        userId: ctx.session?.userId,
        texts: base,
      });
      return { items, unread: ctx.session ? items.filter((a) => a.read === false).length : null };
    },
    'news/detail': async (input, ctx) => {
      const row = await db
        .selectFrom('news_articles')
        .selectAll()
        .where('id', '=', input.id)
        .where('published', '=', 1)
        .executeTakeFirst();
      const text = row
        ? pickText((await newsTextsOf(base, [row.id], textFallback(ctx.lang))).get(row.id) ?? {}, ctx.lang)
        : undefined;
      if (!row || !text || row.published_at === null) throw new BusinessError('newsNotFound', { field: 'id' });
      const userId = ctx.session?.userId;
      if (userId !== undefined) {
        await db
          .insertInto('news_reads')
          .values({ user_id: userId, article_id: row.id, read_at: s.now() })
          .onConflict((oc) => oc.columns(['user_id', 'article_id']).doNothing())
          .execute();
      }
      return {
        id: row.id,
        kind: row.kind,
        title: text.title,
        body: text.body,
        lang: text.lang,
        published_at: row.published_at,
        updated_at: Math.max(row.updated_at, text.updated_at),
        read: userId === undefined ? null : true,
      };
    },
  };
}
