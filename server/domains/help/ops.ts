import type { Kysely } from 'kysely';
import { HELP_TEXT_LANGS } from '../../../protocol/help';
import { currentOperator } from '../../platform/audit';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import {
  fullTexts,
  idOf,
  printTexts,
  runTextCommand,
  textFieldsOf,
  titlesLine,
  UsageError,
} from '../../platform/published-texts';
import {
  createArticle,
  deleteArticle,
  getArticleForOps,
  type HelpArticleForOps,
  type HelpArticlePatch,
  listArticlesForOps,
  setPublished,
  updateArticle,
} from './articles';

const USAGE = [
  'usage: npm run ops -- articles list | show <id> | add ... | edit <id> ... | publish <id> | unpublish <id> | remove <id>',
  '  articles add topic=<topic> order=<n> de.title=... de.body=... en.title=... en.body=...',
  '  articles add <file.json>      {"topic": "deposit", "order": 10, "de": {"title": "...", "body": "..."}, "en": {...}}',
  '  articles edit <id> [topic=...] [order=...] [de.title=...] [de.body=...] [en.title=...] [en.body=...]',
  '  articles edit <id> <file.json>   the same JSON, every part optional',
  '  topics: account, deposit, withdrawal, trading, c2c, security, other; order 0-9999, smaller first',
  '  bodies are plain text: in key=value words \\n is a line break and \\n\\n starts a paragraph',
  '  a new article is a draft until `articles publish <id>` (it needs a German and an English text)',
].join('\n');

/** The article's own fields besides its texts. */
const KEYS = ['topic', 'order'] as const;

function orderOf(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && /^-?\d{1,9}$/.test(raw.trim())) return Number(raw.trim());
  // Not a number at all: the service refuses it with its own message.
  return Number.NaN;
}

const titlesOf = (a: HelpArticleForOps) => titlesLine(a.texts, HELP_TEXT_LANGS);
const articleId = (word: string | undefined) => idOf(word, 'an article');

function printArticle(a: HelpArticleForOps, out: Out): void {
  out(`article ${a.id}  topic ${a.topic}  order ${a.sort_order}  ${a.published ? 'published' : 'draft'}`);
  out(`  created ${new Date(a.created_at).toISOString()}  updated ${new Date(a.updated_at).toISOString()}`);
  printTexts(a.texts, HELP_TEXT_LANGS, out);
}

async function run(words: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, ...rest] = words;
  const action = { operator: currentOperator() };
  if (sub === 'list') {
    const articles = await listArticlesForOps(db);
    if (articles.length === 0) out('no help articles');
    for (const a of articles) {
      out(
        `${String(a.id).padStart(4)}  ${a.topic.padEnd(10)} ${String(a.sort_order).padStart(4)}  ` +
          `${(a.published ? 'published' : 'draft').padEnd(9)}  ${titlesOf(a)}`,
      );
    }
    return 0;
  }
  if (sub === 'show') {
    const article = await getArticleForOps(db, articleId(rest[0]));
    if (!article) throw new BusinessError('helpArticleNotFound', { field: 'id' });
    printArticle(article, out);
    return 0;
  }
  if (sub === 'add') {
    const { fields, texts } = textFieldsOf(rest, KEYS);
    if (fields.topic === undefined || fields.order === undefined) throw new UsageError('topic and order are needed');
    const article = await createArticle(
      db,
      { topic: String(fields.topic), sortOrder: orderOf(fields.order), texts: fullTexts(texts) },
      action,
    );
    out(`help article ${article.id} added as a draft: ${titlesOf(article)}`);
    return 0;
  }
  if (sub === 'edit') {
    const id = articleId(rest[0]);
    const { fields, texts } = textFieldsOf(rest.slice(1), KEYS);
    const patch: HelpArticlePatch = {
      ...(fields.topic !== undefined ? { topic: String(fields.topic) } : {}),
      ...(fields.order !== undefined ? { sortOrder: orderOf(fields.order) } : {}),
      texts,
    };
    const { article, changed } = await updateArticle(db, id, patch, action);
    out(changed ? `help article ${id} changed: ${titlesOf(article)}` : `help article ${id}: nothing changed`);
    return 0;
  }
  if (sub === 'publish' || sub === 'unpublish') {
    const id = articleId(rest[0]);
    const { changed } = await setPublished(db, id, sub === 'publish', action);
    out(`help article ${id} ${changed ? 'is now' : 'was already'} ${sub === 'publish' ? 'published' : 'a draft'}`);
    return 0;
  }
  if (sub === 'remove') {
    const id = articleId(rest[0]);
    await deleteArticle(db, id, action);
    out(`help article ${id} removed`);
    return 0;
  }
  throw new UsageError(sub === undefined ? 'a subcommand is needed' : `unknown subcommand: ${sub}`);
}

/**
 * `articles ...`: the help centre's articles. Every change is audited under the operator running the command
 * (OPS_OPERATOR or the OS user); a refusal prints the reason (the message readers of a console would see, in English)
 * and exits 1, a usage mistake exits 2.
 */
export function runHelpCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  return runTextCommand(() => run(args, db, out), USAGE, out);
}

export const helpOps: OpsCommand[] = [
  {
    name: 'articles',
    help: [
      ['articles list', 'every help article (drafts too) with its topic, order and titles'],
      ['articles show <id>', 'one help article with its German and English texts'],
      [
        'articles add topic=... order=... de.title=... ...',
        'a new help article as a draft (or `articles add <file.json>`)',
      ],
      ['articles edit <id> key=value... | <file.json>', "change an article's topic, order, titles or bodies"],
      ['articles publish|unpublish <id>', 'show an article to readers (needs de and en texts) or take it back'],
      ['articles remove <id>', 'delete an article (the audit log keeps its texts)'],
    ],
    run: (words, { db, out }) => runHelpCommand(words, db, out),
  },
];
