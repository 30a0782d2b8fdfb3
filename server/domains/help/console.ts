import { HELP_TEXT_LANGS } from '../../../protocol/help';
import { opsHelpCalls } from '../../../protocol/ops-support';
import type { DatabaseHandle } from '../../platform/db/connect';
import { BusinessError } from '../../platform/errors';
import { textsFromForm } from '../../platform/published-texts';
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

/** The console's help articles (role support): list, write, publish, delete; every change audited with the operator. */
export function helpConsoleSection(s: { database: DatabaseHandle; now: () => number }): OpsSection {
  const { db } = s.database;
  return opsSection(opsHelpCalls, {
    'ops/help/articles': async () => ({ items: await listArticlesForOps(db) }),
    'ops/help/save': async (input, ctx) => {
      const action = { operator: requireOperator(ctx).operator.name, now: s.now() };
      const texts = textsFromForm(input, HELP_TEXT_LANGS);
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
