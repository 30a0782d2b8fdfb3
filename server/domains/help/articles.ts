import type { Kysely, Selectable } from 'kysely';
import {
  HELP_BODY_MAX,
  HELP_ORDER_MAX,
  HELP_TEXT_LANGS,
  HELP_TITLE_MAX,
  type HelpTextLang,
  type HelpTopic,
  isHelpTextLang,
  isHelpTopic,
} from '../../../protocol/help';
import { recordAudit } from '../../platform/audit';
import { handleOf } from '../../platform/db/connect';
import type { Database, HelpArticlesTable } from '../../platform/db/schema';
import { writeTransaction } from '../../platform/db/transaction';
import { BusinessError } from '../../platform/errors';
import { searchText, textsOf, topicRank } from './text';

/**
 * The operators' side of the help centre: create, edit, publish, unpublish and remove articles, and read them all
 * (drafts too). Every write runs in one transaction with its audit entry (`help_article.*`), naming the operator who
 * made it. Refusals are BusinessErrors with keys of the `errors` table (field: `topic`, `order`, `de.title`,
 * `en.body`, ...), so a console shows them in its user's language and the CLI in English; a refused write changes
 * nothing.
 */

/** One language's text as an operator gives it. */
export interface HelpTextInput {
  title: string;
  body: string;
}

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

export interface OperatorAction {
  /** Who does it: recorded in the audit log. */
  operator: string;
  /** Milliseconds; defaults to now. */
  now?: number;
}

export interface HelpArticleForOps {
  id: number;
  topic: HelpTopic;
  sort_order: number;
  published: boolean;
  published_at: number | null;
  created_at: number;
  updated_at: number;
  texts: Partial<Record<HelpTextLang, { title: string; body: string; updated_at: number }>>;
}

type ArticleRow = Selectable<HelpArticlesTable>;

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

/** A title on one line: whitespace (line breaks too) collapsed. */
const cleanTitle = (title: string): string => title.replace(/\s+/g, ' ').trim();

/**
 * A body as stored: Unix line ends, no control characters but line breaks and tabs, no trailing spaces on a line,
 * at most one blank line between paragraphs, nothing around.
 */
const cleanBody = (body: string): string =>
  body
    .replace(/\r\n?/g, '\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

function checkTitle(lang: HelpTextLang, raw: string | undefined): string {
  const title = cleanTitle(raw ?? '');
  if (title === '') throw fail('helpTitleRequired', `${lang}.title`);
  if (title.length > HELP_TITLE_MAX) throw fail('helpTitleTooLong', `${lang}.title`);
  return title;
}

function checkBody(lang: HelpTextLang, raw: string | undefined): string {
  const body = cleanBody(raw ?? '');
  if (body === '') throw fail('helpBodyRequired', `${lang}.body`);
  if (body.length > HELP_BODY_MAX) throw fail('helpBodyTooLong', `${lang}.body`);
  return body;
}

/** The languages given, each one offered, in HELP_TEXT_LANGS order. */
function langsOf(texts: Readonly<Record<string, unknown>>): HelpTextLang[] {
  for (const lang of Object.keys(texts)) {
    if (!isHelpTextLang(lang)) throw fail('helpLangNotOffered', lang);
  }
  return HELP_TEXT_LANGS.filter((l) => texts[l] !== undefined);
}

function toOps(row: ArticleRow, texts: Awaited<ReturnType<typeof textsOf>>): HelpArticleForOps {
  const out: HelpArticleForOps['texts'] = {};
  for (const t of texts.get(row.id) ?? []) out[t.lang] = { title: t.title, body: t.body, updated_at: t.updated_at };
  return {
    id: row.id,
    topic: row.topic,
    sort_order: row.sort_order,
    published: row.published === 1,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    texts: out,
  };
}

const missingLang = (texts: HelpArticleForOps['texts']): HelpTextLang | undefined =>
  HELP_TEXT_LANGS.find((l) => texts[l] === undefined);

/** Every article, drafts too, in the order readers see them (topic, then sort order). */
export async function listArticlesForOps(db: Kysely<Database>): Promise<HelpArticleForOps[]> {
  const rows = await db
    .selectFrom('help_articles')
    .selectAll()
    .orderBy(topicRank('topic'))
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
  const texts = await textsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toOps(r, texts));
}

/** One article, draft or published; undefined when there is none. */
export async function getArticleForOps(db: Kysely<Database>, id: number): Promise<HelpArticleForOps | undefined> {
  const row = await db.selectFrom('help_articles').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toOps(row, await textsOf(db, [row.id])) : undefined;
}

/** The article in the transaction, locked against concurrent edits on PostgreSQL (SQLite's writer lock is held). */
async function lockArticle(trx: Kysely<Database>, id: number): Promise<HelpArticleForOps> {
  const row = await trx
    .selectFrom('help_articles')
    .selectAll()
    .where('id', '=', id)
    .$if(handleOf(trx).kind === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw fail('helpArticleNotFound', 'id');
  return toOps(row, await textsOf(trx, [row.id]));
}

const audited = (action: OperatorAction) => ({ operator: action.operator, at: action.now ?? Date.now() });

/** A new article with its texts; a draft unless `published` (which needs both texts). */
export async function createArticle(
  db: Kysely<Database>,
  input: HelpArticleInput,
  action: OperatorAction,
): Promise<HelpArticleForOps> {
  const topic = checkTopic(input.topic);
  const sortOrder = checkOrder(input.sortOrder);
  const langs = langsOf(input.texts);
  const texts = langs.map((lang) => {
    const given = input.texts[lang];
    return { lang, title: checkTitle(lang, given?.title), body: checkBody(lang, given?.body) };
  });
  if (texts.length === 0) throw fail('helpTitleRequired', 'de.title');
  const published = input.published === true;
  if (published) {
    const missing = HELP_TEXT_LANGS.find((l) => !langs.includes(l));
    if (missing) throw fail('helpTextsMissing', `${missing}.title`);
  }
  const { operator, at } = audited(action);
  return writeTransaction(handleOf(db), async (trx) => {
    const row = await trx
      .insertInto('help_articles')
      .values({
        topic,
        sort_order: sortOrder,
        published: published ? 1 : 0,
        published_at: published ? at : null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await trx
      .insertInto('help_article_texts')
      .values(texts.map((t) => ({ article_id: id, ...t, search: searchText(t.title, t.body), updated_at: at })))
      .execute();
    await recordAudit(trx, {
      action: 'help_article.create',
      subjectType: 'help_article',
      subjectId: id,
      detail: {
        topic,
        sort_order: sortOrder,
        published,
        texts: Object.fromEntries(texts.map(({ lang, ...t }) => [lang, t])),
      },
      operator,
      at,
    });
    return lockArticle(trx, id);
  });
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
  const topic = patch.topic === undefined ? undefined : checkTopic(patch.topic);
  const sortOrder = patch.sortOrder === undefined ? undefined : checkOrder(patch.sortOrder);
  const langs = langsOf(patch.texts ?? {});
  const given = langs.map((lang) => {
    const t = patch.texts?.[lang] ?? {};
    return {
      lang,
      title: t.title === undefined ? undefined : checkTitle(lang, t.title),
      body: t.body === undefined ? undefined : checkBody(lang, t.body),
    };
  });
  const { operator, at } = audited(action);
  return writeTransaction(handleOf(db), async (trx) => {
    const before = await lockArticle(trx, id);
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    if (topic !== undefined && topic !== before.topic) changes.topic = { before: before.topic, after: topic };
    if (sortOrder !== undefined && sortOrder !== before.sort_order) {
      changes.sort_order = { before: before.sort_order, after: sortOrder };
    }
    const writes: { lang: HelpTextLang; title: string; body: string; isNew: boolean }[] = [];
    for (const g of given) {
      const old = before.texts[g.lang];
      // A new language needs both its title and its body.
      const title = g.title ?? old?.title ?? checkTitle(g.lang, undefined);
      const body = g.body ?? old?.body ?? checkBody(g.lang, undefined);
      if (old && old.title === title && old.body === body) continue;
      writes.push({ lang: g.lang, title, body, isNew: !old });
      changes[`${g.lang}.text`] = {
        before: old ? { title: old.title, body: old.body } : null,
        after: { title, body },
      };
    }
    if (Object.keys(changes).length === 0) return { article: before, changed: false };
    await trx
      .updateTable('help_articles')
      .set({ topic: topic ?? before.topic, sort_order: sortOrder ?? before.sort_order, updated_at: at })
      .where('id', '=', id)
      .execute();
    for (const w of writes) {
      const values = { title: w.title, body: w.body, search: searchText(w.title, w.body), updated_at: at };
      if (w.isNew)
        await trx
          .insertInto('help_article_texts')
          .values({ article_id: id, lang: w.lang, ...values })
          .execute();
      else
        await trx
          .updateTable('help_article_texts')
          .set(values)
          .where('article_id', '=', id)
          .where('lang', '=', w.lang)
          .execute();
    }
    await recordAudit(trx, {
      action: 'help_article.update',
      subjectType: 'help_article',
      subjectId: id,
      detail: changes,
      operator,
      at,
    });
    return { article: await lockArticle(trx, id), changed: true };
  });
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
  const { operator, at } = audited(action);
  return writeTransaction(handleOf(db), async (trx) => {
    const before = await lockArticle(trx, id);
    if (before.published === published) return { article: before, changed: false };
    if (published) {
      const missing = missingLang(before.texts);
      if (missing) throw fail('helpTextsMissing', `${missing}.title`);
    }
    await trx
      .updateTable('help_articles')
      .set({ published: published ? 1 : 0, published_at: published ? at : null, updated_at: at })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, {
      action: published ? 'help_article.publish' : 'help_article.unpublish',
      subjectType: 'help_article',
      subjectId: id,
      detail: { titles: Object.fromEntries(HELP_TEXT_LANGS.map((l) => [l, before.texts[l]?.title ?? null])) },
      operator,
      at,
    });
    return { article: await lockArticle(trx, id), changed: true };
  });
}

/** Removes an article and its texts; the audit entry keeps what it said. */
export async function deleteArticle(db: Kysely<Database>, id: number, action: OperatorAction): Promise<void> {
  const { operator, at } = audited(action);
  await writeTransaction(handleOf(db), async (trx) => {
    const before = await lockArticle(trx, id);
    await trx.deleteFrom('help_article_texts').where('article_id', '=', id).execute();
    await trx.deleteFrom('help_articles').where('id', '=', id).execute();
    await recordAudit(trx, {
      action: 'help_article.delete',
      subjectType: 'help_article',
      subjectId: id,
      detail: { topic: before.topic, sort_order: before.sort_order, published: before.published, texts: before.texts },
      operator,
      at,
    });
  });
}
