import { NEWS_TEXT_LANGS } from '../../../protocol/news';
import { opsNewsCalls } from '../../../protocol/ops-news';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import { fullTexts, textsFromForm } from '../../platform/published-texts';
import { type OpsSection, opsSection, requireOperator } from '../operators';
import { createNews, deleteNews, getNewsForOps, listNewsForOps, setNewsPublished, updateNews } from './articles';

/** The console's news and announcements (role support): list, write, publish, delete; every change audited. */
export function newsConsoleSection(s: { database: DatabaseHandle; now: () => number }): OpsSection {
  const { db } = s.database;
  const actionOf = (ctx: Parameters<typeof requireOperator>[0]) => ({
    operator: requireOperator(ctx).operator.name,
    now: s.now(),
  });
  return opsSection(opsNewsCalls, {
    'ops/news/articles': async () => ({ items: await listNewsForOps(db) }),
    'ops/news/save': async (input, ctx) => {
      const texts = textsFromForm(input, NEWS_TEXT_LANGS);
      if (input.id === undefined) return createNews(db, { kind: input.kind, texts: fullTexts(texts) }, actionOf(ctx));
      if (!(await getNewsForOps(db, input.id))) throw new BusinessError('newsNotFound', { field: 'id' });
      return (await updateNews(db, input.id, { kind: input.kind, texts }, actionOf(ctx))).article;
    },
    'ops/news/publish': async (input, ctx) =>
      (await setNewsPublished(db, input.id, input.published, actionOf(ctx))).article,
    'ops/news/delete': async (input, ctx) => {
      await deleteNews(db, input.id, actionOf(ctx));
      return {};
    },
  });
}
