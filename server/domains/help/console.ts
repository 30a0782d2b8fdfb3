import { opsHelpCalls } from '../../../protocol/ops-support';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import { type OpsSection, opsSection, requireOperator } from '../operators';
import {
  createArticle,
  deleteArticle,
  getArticleForOps,
  type HelpTextInput,
  listArticlesForOps,
  setPublished,
  updateArticle,
} from './articles';

/** The texts a save names, by language (a language with neither title nor body is left out). */
function textsOf(
  input: Partial<Record<`${'de' | 'en'}.${'title' | 'body'}`, string>>,
): Record<string, Partial<HelpTextInput>> {
  const texts: Record<string, Partial<HelpTextInput>> = {};
  for (const lang of ['de', 'en'] as const) {
    const title = input[`${lang}.title`];
    const body = input[`${lang}.body`];
    if (title === undefined && body === undefined) continue;
    texts[lang] = { ...(title === undefined ? {} : { title }), ...(body === undefined ? {} : { body }) };
  }
  return texts;
}

/** The console's help articles (role support): list, write, publish, delete; every change audited with the operator. */
export function helpConsoleSection(s: { database: DatabaseHandle; now: () => number }): OpsSection {
  const { db } = s.database;
  return opsSection(opsHelpCalls, {
    'ops/help/articles': async () => ({ items: await listArticlesForOps(db) }),
    'ops/help/save': async (input, ctx) => {
      const action = { operator: requireOperator(ctx).operator.name, now: s.now() };
      const texts = textsOf(input);
      if (input.id === undefined) {
        return createArticle(
          db,
          { topic: input.topic, sortOrder: input.sort_order, texts: texts as Record<string, HelpTextInput> },
          action,
        );
      }
      if (!(await getArticleForOps(db, input.id))) throw new BusinessError('helpArticleNotFound', { field: 'id' });
      return (await updateArticle(db, input.id, { topic: input.topic, sortOrder: input.sort_order, texts }, action))
        .article;
    },
    'ops/help/publish': async (input, ctx) =>
      (
        await setPublished(db, input.id, input.published, {
          operator: requireOperator(ctx).operator.name,
          now: s.now(),
        })
      ).article,
    'ops/help/delete': async (input, ctx) => {
      await deleteArticle(db, input.id, { operator: requireOperator(ctx).operator.name, now: s.now() });
      return {};
    },
  });
}
