import type { Kysely } from 'kysely';
import { NEWS_TEXT_LANGS } from '../../../protocol/news';
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
  createNews,
  deleteNews,
  getNewsForOps,
  listNewsForOps,
  type NewsArticleForOps,
  setNewsPublished,
  updateNews,
} from './articles';

const USAGE = [
  'usage: npm run ops -- news list | show <id> | add ... | edit <id> ... | publish <id> | unpublish <id> | remove <id>',
  '  news add kind=news|announcement de.title=... de.body=... en.title=... en.body=... [ja.title=... ...]',
  '  news add <file.json>      {"kind": "announcement", "de": {"title": "...", "body": "..."}, "en": {...}}',
  '  news edit <id> [kind=...] [<lang>.title=...] [<lang>.body=...]   (or <file.json>, every part optional)',
  '  languages: de, en (both needed to publish), ja, ko, es, th, zh; readers get theirs, else English, else German',
  '  bodies are plain text: in key=value words \\n is a line break and \\n\\n starts a paragraph',
  '  a new article is a draft until `news publish <id>`',
].join('\n');

const KEYS = ['kind'] as const;
const newsId = (word: string | undefined) => idOf(word, 'a news');
/** The titles of the languages it has (seven columns would not fit a line). */
const titlesOf = (a: NewsArticleForOps) =>
  titlesLine(
    a.texts,
    NEWS_TEXT_LANGS.filter((l) => a.texts[l] || l === 'de' || l === 'en'),
  );

async function run(words: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  const [sub, ...rest] = words;
  const action = { operator: currentOperator() };
  if (sub === 'list') {
    const articles = await listNewsForOps(db);
    if (articles.length === 0) out('no news');
    for (const a of articles) {
      out(
        `${String(a.id).padStart(4)}  ${a.kind.padEnd(12)} ${(a.published ? 'published' : 'draft').padEnd(9)}  ${titlesOf(a)}`,
      );
    }
    return 0;
  }
  if (sub === 'show') {
    const a = await getNewsForOps(db, newsId(rest[0]));
    if (!a) throw new BusinessError('newsNotFound', { field: 'id' });
    out(`news ${a.id}  ${a.kind}  ${a.published ? 'published' : 'draft'}`);
    out(`  created ${new Date(a.created_at).toISOString()}  updated ${new Date(a.updated_at).toISOString()}`);
    printTexts(a.texts, NEWS_TEXT_LANGS, out);
    return 0;
  }
  if (sub === 'add') {
    const { fields, texts } = textFieldsOf(rest, KEYS);
    if (fields.kind === undefined) throw new UsageError('kind is needed');
    const a = await createNews(db, { kind: String(fields.kind), texts: fullTexts(texts) }, action);
    out(`news ${a.id} added as a draft: ${titlesOf(a)}`);
    return 0;
  }
  if (sub === 'edit') {
    const id = newsId(rest[0]);
    const { fields, texts } = textFieldsOf(rest.slice(1), KEYS);
    const patch = { ...(fields.kind !== undefined ? { kind: String(fields.kind) } : {}), texts };
    const { article, changed } = await updateNews(db, id, patch, action);
    out(changed ? `news ${id} changed: ${titlesOf(article)}` : `news ${id}: nothing changed`);
    return 0;
  }
  if (sub === 'publish' || sub === 'unpublish') {
    const id = newsId(rest[0]);
    const { changed } = await setNewsPublished(db, id, sub === 'publish', action);
    out(`news ${id} ${changed ? 'is now' : 'was already'} ${sub === 'publish' ? 'published' : 'a draft'}`);
    return 0;
  }
  if (sub === 'remove') {
    const id = newsId(rest[0]);
    await deleteNews(db, id, action);
    out(`news ${id} removed`);
    return 0;
  }
  throw new UsageError(sub === undefined ? 'a subcommand is needed' : `unknown subcommand: ${sub}`);
}

/**
 * `news ...`: news and announcements. Every change is audited under the operator running the command (OPS_OPERATOR
 * or the OS user); a refusal prints the reason in English and exits 1, a usage mistake exits 2.
 */
export function runNewsCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  return runTextCommand(() => run(args, db, out), USAGE, out);
}

export const newsOps: OpsCommand[] = [
  {
    name: 'news',
    help: [
      ['news list', 'every news item and announcement (drafts too), newest first'],
      ['news show <id>', 'one article with its texts in every language it has'],
      ['news add kind=news|announcement de.title=... ...', 'a new article as a draft (or `news add <file.json>`)'],
      ['news edit <id> key=value... | <file.json>', "change an article's kind, titles or bodies"],
      ['news publish|unpublish <id>', 'show an article to readers (needs de and en texts) or take it back'],
      ['news remove <id>', 'delete an article and its read marks (the audit log keeps its texts)'],
    ],
    run: (words, { db, out }) => runNewsCommand(words, db, out),
  },
];
