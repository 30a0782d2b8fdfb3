import { type Kysely, sql } from 'kysely';
import {
  HELP_ORDER_MAX,
  HELP_TEXT_LANGS,
  type HelpTextLang,
  type HelpTopic,
  isHelpTopic,
} from '../../../protocol/help';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import {
  createPublication,
  deletePublication,
  type OperatorAction,
  type Publication,
  publishPublication,
  type TextInput,
  tableStore,
  updatePublication,
} from '../../platform/published-texts';
import { searchText, topicRank } from './text';

/**
 * The operators' side of the help centre: create, edit, publish, unpublish and remove articles, and read them all
 * (drafts too). The writes are published-texts' (one transaction with the audit entry `help_article.*`, naming the
 * operator); this module adds the topic and the sort order. Refusals are BusinessErrors with keys of the `errors`
 * table (field: `topic`, `order`, `de.title`, `en.body`, ...), so a console shows them in its user's language and the
 * CLI in English; a refused write changes nothing.
 */

/** One language's text as an operator gives it. */
export type HelpTextInput = TextInput;

export interface HelpArticleInput {
  topic: string;
  sortOrder: number;
  /** Texts by language (de, en); a published article needs both. */
  texts: Readonly<Record<string, HelpTextInput>>;
  /** Publish at once (default false: a draft). */
  published?: boolean;
}

/** What an edit changes; a text may change only its title or only its body. */
export interface HelpArticlePatch {
  topic?: string;
  sortOrder?: number;
  texts?: Readonly<Record<string, Partial<HelpTextInput>>>;
}

export type { OperatorAction };

export type HelpArticleForOps = Publication<HelpTextLang, { topic: HelpTopic; sort_order: number }>;

const fail = (key: ConstructorParameters<typeof BusinessError>[0], field: string) => new BusinessError(key, { field });

function checkTopic(topic: string): HelpTopic {
  const t = topic.trim();
  if (!isHelpTopic(t)) throw fail('helpTopicInvalid', 'topic');
  return t;
}

function checkOrder(order: number): number {
  if (!Number.isInteger(order) || order < 0 || order > HELP_ORDER_MAX) throw fail('helpOrderInvalid', 'order');
  return order;
}

/** Help articles' tables for published-texts' writes: German and English texts, each with its search text. */
const STORE = tableStore<HelpTextLang, { topic: HelpTopic; sort_order: number }>({
  subject: 'help_article',
  policy: { langs: HELP_TEXT_LANGS, langNotOffered: 'helpLangNotOffered' },
  notFound: 'helpArticleNotFound',
  table: 'help_articles',
  textsTable: 'help_article_texts',
  fields: ['topic', 'sort_order'],
  textColumns: (text) => ({ search: searchText(text.title, text.body) }),
});

/** Every article, drafts too, in the order readers see them (topic, then sort order). */
export const listArticlesForOps = (db: Kysely<Database>): Promise<HelpArticleForOps[]> =>
  STORE.all(db, sql`${topicRank('topic')}, sort_order, id`);

/** One article, draft or published; undefined when there is none. */
export const getArticleForOps = (db: Kysely<Database>, id: number): Promise<HelpArticleForOps | undefined> =>
  STORE.find(db, id, false);

/** A new article with its texts; a draft unless `published` (which needs both texts). */
export async function createArticle(
  db: Kysely<Database>,
  input: HelpArticleInput,
  action: OperatorAction,
): Promise<HelpArticleForOps> {
  const fields = { topic: checkTopic(input.topic), sort_order: checkOrder(input.sortOrder) };
  return createPublication(db, STORE, { fields, texts: input.texts, published: input.published === true }, action);
}

/**
 * Changes an article's topic, sort order or texts (adding a language, or a title or body of one). Only what differs
 * is written and audited (before and after); an edit that changes nothing records nothing (`changed: false`).
 */
export async function updateArticle(
  db: Kysely<Database>,
  id: number,
  patch: HelpArticlePatch,
  action: OperatorAction,
): Promise<{ article: HelpArticleForOps; changed: boolean }> {
  const fields = {
    topic: patch.topic === undefined ? undefined : checkTopic(patch.topic),
    sort_order: patch.sortOrder === undefined ? undefined : checkOrder(patch.sortOrder),
  };
  const { item, changed } = await updatePublication(db, STORE, id, { fields, texts: patch.texts ?? {} }, action);
  return { article: item, changed };
}

/**
 * Publishes an article (it needs a German and an English text) or takes it back to a draft. Setting the state it
 * already has changes and records nothing (`changed: false`).
 */
export async function setPublished(
  db: Kysely<Database>,
  id: number,
  published: boolean,
  action: OperatorAction,
): Promise<{ article: HelpArticleForOps; changed: boolean }> {
  const { item, changed } = await publishPublication(db, STORE, id, published, action);
  return { article: item, changed };
}

/** Removes an article and its texts; the audit entry keeps what it said. */
export const deleteArticle = (db: Kysely<Database>, id: number, action: OperatorAction): Promise<void> =>
  deletePublication(db, STORE, id, action);
