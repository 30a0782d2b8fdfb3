import { z } from 'zod/mini';
import { recordIdField } from './fields';
import { NEWS_KINDS, NEWS_TEXT_LANGS } from './news';
import { opsCall } from './ops-console';
import { opsArticlePublishRequest } from './ops-support';
import { opsTexts, textFormFields } from './published-texts';

/**
 * The support console's news section (role support; admin has every role): write, change, publish, take back and
 * delete news and announcements in any of the seven languages (German and English needed to publish). Every change is
 * audited under the operator's name, like the CLI's `news …`.
 */

export const opsNewsArticle = z.object({
  id: z.number().check(z.int()),
  kind: z.enum(NEWS_KINDS),
  published: z.boolean(),
  published_at: z.nullable(z.number().check(z.int())),
  created_at: z.number().check(z.int()),
  updated_at: z.number().check(z.int()),
  texts: opsTexts(NEWS_TEXT_LANGS),
});
export type OpsNewsArticle = z.infer<typeof opsNewsArticle>;

/** ops/news/save: a new article (no id) or changes to one; texts as `de.title`, `de.body`, … `zh.body`. */
export const opsNewsSaveRequest = z.object({
  id: z.optional(recordIdField),
  kind: z.enum(NEWS_KINDS, { error: 'newsKindInvalid' }),
  ...textFormFields(NEWS_TEXT_LANGS),
});

const done = z.looseObject({});

export const opsNewsCalls = {
  'ops/news/articles': opsCall('GET', 'support', z.object({}), z.object({ items: z.array(opsNewsArticle) })),
  'ops/news/save': opsCall('POST', 'support', opsNewsSaveRequest, opsNewsArticle),
  'ops/news/publish': opsCall('POST', 'support', opsArticlePublishRequest, opsNewsArticle),
  'ops/news/delete': opsCall('POST', 'support', z.object({ id: recordIdField }), done),
} as const;
