import type { helpCalls } from '../../../protocol/help';
import { HELP_LIST_MAX, HELP_TOPICS, helpExcerpt, helpTextLang } from '../../../protocol/help';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import type { CallHandlers } from '../../platform/http/calls';
import { withHelp } from './tables';
import { likeLiteral, topicRank } from './text';

export interface HelpServices {
  database: DatabaseHandle;
}

/**
 * The readers' side of the help centre: published articles only, without a session, each in the reader's language
 * (German for German and for a request without a known language, English for every other language). A draft does not
 * exist for readers.
 */
export function helpHandlers(s: HelpServices): CallHandlers<typeof helpCalls> {
  const db = s.database.db;
  return {
    'help/topics': async () => {
      const rows = await withHelp(db)
        .selectFrom('help_articles')
        .select(['topic', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('published', '=', 1)
        .groupBy('topic')
        .execute();
      const counts = new Map(rows.map((r) => [r.topic, Number(r.n)]));
      return {
        topics: HELP_TOPICS.flatMap((topic) => {
          const count = counts.get(topic) ?? 0;
          return count > 0 ? [{ topic, count }] : [];
        }),
      };
    },
    'help/list': async (input, ctx) => {
      const lang = helpTextLang(ctx.lang);
      const rows = await withHelp(db)
        .selectFrom('help_articles as a')
        .innerJoin('help_article_texts as t', (join) => join.onRef('t.article_id', '=', 'a.id').on('t.lang', '=', lang))
        .select(['a.id', 'a.topic', 'a.updated_at', 't.title', 't.body', 't.updated_at as text_updated_at'])
        .where('a.published', '=', 1)
        .$if(input.topic !== undefined, (qb) => qb.where('a.topic', '=', input.topic ?? 'other'))
        .$if(input.q !== undefined, (qb) => qb.where(likeLiteral('t.search', input.q ?? '')))
        .orderBy(topicRank('a.topic'))
        .orderBy('a.sort_order')
        .orderBy('a.id')
        .limit(HELP_LIST_MAX)
        .execute();
      return {
        articles: rows.map((r) => ({
          id: r.id,
          topic: r.topic,
          title: r.title,
          excerpt: helpExcerpt(r.body),
          lang,
          updated_at: Math.max(r.updated_at, r.text_updated_at),
        })),
      };
    },
    'help/detail': async (input, ctx) => {
      const lang = helpTextLang(ctx.lang);
      const row = await withHelp(db)
        .selectFrom('help_articles as a')
        .innerJoin('help_article_texts as t', (join) => join.onRef('t.article_id', '=', 'a.id').on('t.lang', '=', lang))
        .select(['a.id', 'a.topic', 'a.updated_at', 't.title', 't.body', 't.updated_at as text_updated_at'])
        .where('a.id', '=', input.id)
        .where('a.published', '=', 1)
        .executeTakeFirst();
      if (!row) throw new BusinessError('helpArticleNotFound', { field: 'id' });
      return {
        id: row.id,
        topic: row.topic,
        title: row.title,
        body: row.body,
        lang,
        updated_at: Math.max(row.updated_at, row.text_updated_at),
      };
    },
  };
}
