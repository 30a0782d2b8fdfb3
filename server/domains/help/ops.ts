import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { HELP_TEXT_LANGS } from '../../../protocol/help';
import { currentOperator } from '../../platform/audit';
import type { Database } from '../../platform/db/schema';
import { BusinessError } from '../../platform/errors';
import { translate } from '../../platform/i18n/messages';
import type { OpsCommand, Out } from '../../platform/ops/commands';
import {
  createArticle,
  deleteArticle,
  getArticleForOps,
  type HelpArticleForOps,
  type HelpArticlePatch,
  type HelpTextInput,
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

const ID_RE = /^[1-9]\d{0,9}$/;

class UsageError extends Error {}

/** `\n` in a shell word is a line break (a shell word cannot easily hold one); `\\` is a backslash. */
const lineBreaks = (value: string): string => value.replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));

/** Whatever a JSON file or the key=value words say: topic, order and texts by language. */
interface Fields {
  topic?: string;
  order?: number;
  texts: Record<string, Partial<HelpTextInput>>;
}

function orderOf(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && /^-?\d{1,9}$/.test(raw.trim())) return Number(raw.trim());
  // Not a number at all: the service refuses it with its own message.
  return Number.NaN;
}

function fromJson(path: string): Fields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${path} does not hold a JSON object`);
  }
  const fields: Fields = { texts: {} };
  for (const [key, value] of Object.entries(parsed)) {
    if (key === 'topic') fields.topic = String(value);
    else if (key === 'order') fields.order = orderOf(value);
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const text = value as Record<string, unknown>;
      fields.texts[key] = {
        ...(typeof text.title === 'string' ? { title: text.title } : {}),
        ...(typeof text.body === 'string' ? { body: text.body } : {}),
      };
    } else throw new UsageError(`unknown field in ${path}: ${key}`);
  }
  return fields;
}

function fromWords(words: readonly string[]): Fields {
  const [only] = words;
  if (words.length === 1 && only !== undefined && !only.includes('=')) return fromJson(only);
  const fields: Fields = { texts: {} };
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new UsageError(`not a key=value word: ${word}`);
    const key = word.slice(0, eq);
    const value = word.slice(eq + 1);
    if (key === 'topic') fields.topic = value;
    else if (key === 'order') fields.order = orderOf(value);
    else {
      const m = /^([a-z]{2})\.(title|body)$/.exec(key);
      if (!m?.[1] || !m[2]) throw new UsageError(`unknown key: ${key}`);
      const text = fields.texts[m[1]] ?? {};
      text[m[2] as 'title' | 'body'] = lineBreaks(value);
      fields.texts[m[1]] = text;
    }
  }
  return fields;
}

function idOf(word: string | undefined): number {
  if (!word || !ID_RE.test(word)) throw new UsageError(`an article id is needed, not ${word ?? 'nothing'}`);
  return Number(word);
}

const titlesOf = (a: HelpArticleForOps) =>
  HELP_TEXT_LANGS.map((l) => `${l}: ${a.texts[l]?.title ?? '(none)'}`).join('  ');

function printArticle(a: HelpArticleForOps, out: Out): void {
  out(`article ${a.id}  topic ${a.topic}  order ${a.sort_order}  ${a.published ? 'published' : 'draft'}`);
  out(`  created ${new Date(a.created_at).toISOString()}  updated ${new Date(a.updated_at).toISOString()}`);
  for (const lang of HELP_TEXT_LANGS) {
    const text = a.texts[lang];
    out('');
    if (!text) {
      out(`[${lang}] (no text)`);
      continue;
    }
    out(`[${lang}] ${text.title}`);
    for (const line of text.body.split('\n')) out(`  ${line}`);
  }
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
    const article = await getArticleForOps(db, idOf(rest[0]));
    if (!article) throw new BusinessError('helpArticleNotFound', { field: 'id' });
    printArticle(article, out);
    return 0;
  }
  if (sub === 'add') {
    const f = fromWords(rest);
    if (f.topic === undefined || f.order === undefined) throw new UsageError('topic and order are needed');
    const texts: Record<string, HelpTextInput> = {};
    for (const [lang, t] of Object.entries(f.texts)) texts[lang] = { title: t.title ?? '', body: t.body ?? '' };
    const article = await createArticle(db, { topic: f.topic, sortOrder: f.order, texts }, action);
    out(`help article ${article.id} added as a draft: ${titlesOf(article)}`);
    return 0;
  }
  if (sub === 'edit') {
    const id = idOf(rest[0]);
    const f = fromWords(rest.slice(1));
    const patch: HelpArticlePatch = {
      ...(f.topic !== undefined ? { topic: f.topic } : {}),
      ...(f.order !== undefined ? { sortOrder: f.order } : {}),
      texts: f.texts,
    };
    const { article, changed } = await updateArticle(db, id, patch, action);
    out(changed ? `help article ${id} changed: ${titlesOf(article)}` : `help article ${id}: nothing changed`);
    return 0;
  }
  if (sub === 'publish' || sub === 'unpublish') {
    const id = idOf(rest[0]);
    const { changed } = await setPublished(db, id, sub === 'publish', action);
    out(`help article ${id} ${changed ? 'is now' : 'was already'} ${sub === 'publish' ? 'published' : 'a draft'}`);
    return 0;
  }
  if (sub === 'remove') {
    const id = idOf(rest[0]);
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
export async function runHelpCommand(args: readonly string[], db: Kysely<Database>, out: Out): Promise<number> {
  try {
    return await run(args, db, out);
  } catch (err) {
    if (err instanceof UsageError) {
      out(err.message);
      out(USAGE);
      return 2;
    }
    if (err instanceof BusinessError) {
      out(`refused: ${translate('en', err.key)}${err.field ? ` (${err.field})` : ''}`);
      return 1;
    }
    throw err;
  }
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
