import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { HelpArticleSummary } from '../../protocol/help';
import {
  addSampleArticles,
  createArticle,
  getArticleForOps,
  type HelpArticleInput,
  listArticlesForOps,
  setPublished,
  updateArticle,
  withHelp,
} from '../../server/domains/help';
import { runOps } from '../../server/ops/cli';
import { translate } from '../../server/platform/i18n/messages';
import { apiChecks } from './api-checks';
import { auditCount as countAudit, expectRefusals } from './console-checks';
import { appPerSuite, DATABASES, type TestApp } from './harness';

/**
 * The help centre over HTTP on every database: readers see published articles only, each in their language (German
 * for German and for no or an unknown language, English for the rest), listed by topic and sort order, searchable
 * case-insensitively with `%` and `_` taken literally; bad input is refused in the reader's language. Operators write
 * through the service functions and the `help` ops commands, each change audited in its own transaction; a refused
 * change changes nothing.
 */
describe.each(DATABASES)('help centre on %s', (kind) => {
  let t: TestApp;
  appPerSuite(kind, (app) => {
    t = app;
  });
  const { ok } = apiChecks(() => t);
  const action = { operator: 'it-operator' };

  /** A refusal in `lang`: the message in that language, the field named, an ok envelope never. */
  async function refusedIn(
    lang: 'de' | 'en',
    path: 'help/list' | 'help/detail',
    fields: Record<string, string>,
    key: string,
    field?: string,
  ) {
    const { body } = await t.call(path, fields, { lang });
    expect(body.type, JSON.stringify(body)).not.toBe('ok');
    expect(body.message).toBe(translate(lang, key));
    if (field) expect(body.field).toBe(field);
  }

  const ids = { feesFirst: 0, limits: 0, password: 0, draft: 0, germanOnly: 0 };
  const titles = (list: { articles: HelpArticleSummary[] }) => list.articles.map((a) => a.title);
  const auditCount = () => countAudit(t);
  const articleCount = async () => (await listArticlesForOps(t.db)).length;

  beforeAll(async () => {
    const add = async (input: HelpArticleInput) => (await createArticle(t.db, input, action)).id;
    ids.feesFirst = await add({
      topic: 'deposit',
      sortOrder: 20,
      published: true,
      texts: {
        en: {
          title: 'How to deposit',
          body: 'Send coins to your deposit address.\n\nA discount of 50% applies to the first_deposit only.',
        },
        de: {
          title: 'Wie zahle ich ein?',
          body: 'Sende Coins an deine Einzahlungsadresse.\n\nAuf die erste_Einzahlung gibt es 50% Rabatt.',
        },
      },
    });
    // "500" and "firstXdeposit" would match the first article's "50%" and "first_deposit" read as LIKE wildcards.
    ids.limits = await add({
      topic: 'deposit',
      sortOrder: 10,
      published: true,
      texts: {
        en: { title: 'Deposit limits', body: 'Deposits of 500 USDT or more get a firstXdeposit review.' },
        de: { title: 'Einzahlungslimits', body: 'Einzahlungen ab 500 USDT bekommen eine ersteXEinzahlung-Prüfung.' },
      },
    });
    ids.password = await add({
      topic: 'security',
      sortOrder: 0,
      published: true,
      texts: {
        en: { title: 'Confirm transfers safely', body: 'The fund password has six digits.' },
        de: { title: 'Überweisungen sicher bestätigen', body: 'Das Fondspasswort hat sechs Ziffern.' },
      },
    });
    ids.draft = await add({
      topic: 'withdrawal',
      sortOrder: 0,
      texts: {
        en: { title: 'Secret draft', body: 'Not for readers yet.' },
        de: { title: 'Geheimer Entwurf', body: 'Noch nicht für Leser.' },
      },
    });
    ids.germanOnly = await add({
      topic: 'other',
      sortOrder: 0,
      texts: { de: { title: 'Nur deutsch', body: 'Ein Entwurf ohne englischen Text.' } },
    });
  });

  it('lists the topics with published articles, in topic order, with their counts', async () => {
    expect(await ok('help/topics', {})).toEqual({
      topics: [
        { topic: 'deposit', count: 2 },
        { topic: 'security', count: 1 },
      ],
    });
  });

  it('lists published articles by topic and sort order, in the reader’s language, with an excerpt', async () => {
    const en = await ok('help/list', {});
    expect(en.articles.map((a) => [a.id, a.topic, a.lang])).toEqual([
      [ids.limits, 'deposit', 'en'],
      [ids.feesFirst, 'deposit', 'en'],
      [ids.password, 'security', 'en'],
    ]);
    expect(en.articles[1]).toMatchObject({ title: 'How to deposit', excerpt: 'Send coins to your deposit address.' });
    const { body } = await t.call('help/list', {}, { lang: 'de' });
    expect(titles(body.data as { articles: HelpArticleSummary[] })).toEqual([
      'Einzahlungslimits',
      'Wie zahle ich ein?',
      'Überweisungen sicher bestätigen',
    ]);
    expect(titles(await ok('help/list', { topic: 'security' }))).toEqual(['Confirm transfers safely']);
    // An empty topic or search is no filter.
    expect((await ok('help/list', { topic: '', q: '   ' })).articles).toHaveLength(3);
  });

  it('answers German for German and for no or an unknown language, English for every other language', async () => {
    const listIn = async (headers: Record<string, string>) => {
      const response = await t.app.inject({ method: 'GET', url: '/api/help/list', headers });
      const body = response.json<{ data: { articles: HelpArticleSummary[] } }>();
      return body.data.articles.map((a) => `${a.lang}:${a.title}`)[0];
    };
    expect(await listIn({})).toBe('de:Einzahlungslimits');
    expect(await listIn({ lang: 'xx-YY' })).toBe('de:Einzahlungslimits');
    expect(await listIn({ lang: 'de-AT' })).toBe('de:Einzahlungslimits');
    expect(await listIn({ lang: 'en' })).toBe('en:Deposit limits');
    for (const lang of ['ja', 'ko', 'es', 'th', 'zh_CN']) expect(await listIn({ lang })).toBe('en:Deposit limits');
    const detail = await t.call('help/detail', { id: String(ids.feesFirst) }, { lang: 'zh' });
    expect(detail.body.data).toMatchObject({ lang: 'en', title: 'How to deposit' });
  });

  it('searches title and body in the reader’s language, case-insensitively, with % and _ taken literally', async () => {
    const search = async (q: string, lang = 'en', topic?: string) => {
      const { body } = await t.call('help/list', { q, ...(topic ? { topic } : {}) }, { lang });
      expect(body.type, JSON.stringify(body)).toBe('ok');
      return (body.data as { articles: HelpArticleSummary[] }).articles.map((a) => a.id);
    };
    expect(await search('50%')).toEqual([ids.feesFirst]);
    expect(await search('first_deposit')).toEqual([ids.feesFirst]);
    expect(await search('erste_einzahlung', 'de')).toEqual([ids.feesFirst]);
    expect(await search('%')).toEqual([ids.feesFirst]);
    expect(await search('_')).toEqual([ids.feesFirst]);
    expect(await search('\\')).toEqual([]);
    expect(await search('DEPOSIT LIMITS')).toEqual([ids.limits]);
    expect(await search('deposit', 'en', 'security')).toEqual([]);
    expect(await search('deposit')).toEqual([ids.limits, ids.feesFirst]);
    // Case folding beyond ASCII, the same on SQLite and PostgreSQL; the German text is searched only in German.
    expect(await search('ÜBERWEISUNGEN', 'de')).toEqual([ids.password]);
    expect(await search('überweisungen', 'en')).toEqual([]);
    expect(await search('six digits')).toEqual([ids.password]);
    // Drafts are never found.
    expect(await search('secret draft')).toEqual([]);
    expect(await search('x'.repeat(100))).toEqual([]);
  });

  it('shows one published article; a draft or a missing one does not exist for readers', async () => {
    const article = await ok('help/detail', { id: String(ids.feesFirst) });
    expect(article).toMatchObject({
      id: ids.feesFirst,
      topic: 'deposit',
      lang: 'en',
      title: 'How to deposit',
      body: 'Send coins to your deposit address.\n\nA discount of 50% applies to the first_deposit only.',
    });
    for (const lang of ['de', 'en'] as const) {
      await refusedIn(lang, 'help/detail', { id: String(ids.draft) }, 'helpArticleNotFound', 'id');
      await refusedIn(lang, 'help/detail', { id: '999999' }, 'helpArticleNotFound', 'id');
    }
  });

  it('refuses bad input in the reader’s language and changes nothing', async () => {
    const before = { articles: await articleCount(), audit: await auditCount() };
    for (const lang of ['de', 'en'] as const) {
      await refusedIn(lang, 'help/list', { q: 'x'.repeat(101) }, 'helpQueryTooLong', 'q');
      await refusedIn(lang, 'help/list', { topic: 'lottery' }, 'helpTopicInvalid', 'topic');
      await refusedIn(lang, 'help/detail', { id: 'abc' }, 'invalidInput', 'id');
      await refusedIn(lang, 'help/detail', {}, 'invalidInput', 'id');
    }
    expect(translate('de', 'helpQueryTooLong')).not.toBe(translate('en', 'helpQueryTooLong'));
    // Operators' input is checked before anything is written.
    const refusals: Array<[() => Promise<unknown>, string, string]> = [
      [() => createArticle(t.db, { topic: 'lottery', sortOrder: 0, texts: {} }, action), 'helpTopicInvalid', 'topic'],
      [() => createArticle(t.db, { topic: 'other', sortOrder: -1, texts: {} }, action), 'helpOrderInvalid', 'order'],
      [() => createArticle(t.db, { topic: 'other', sortOrder: 1.5, texts: {} }, action), 'helpOrderInvalid', 'order'],
      [() => createArticle(t.db, { topic: 'other', sortOrder: 0, texts: {} }, action), 'helpTitleRequired', 'de.title'],
      [
        () => createArticle(t.db, { topic: 'other', sortOrder: 0, texts: { fr: { title: 'A', body: 'B' } } }, action),
        'helpLangNotOffered',
        'fr',
      ],
      [
        () =>
          createArticle(t.db, { topic: 'other', sortOrder: 0, texts: { en: { title: ' \n ', body: 'B' } } }, action),
        'helpTitleRequired',
        'en.title',
      ],
      [
        () =>
          createArticle(
            t.db,
            { topic: 'other', sortOrder: 0, texts: { en: { title: 'x'.repeat(121), body: 'B' } } },
            action,
          ),
        'helpTitleTooLong',
        'en.title',
      ],
      [
        () =>
          createArticle(t.db, { topic: 'other', sortOrder: 0, texts: { de: { title: 'A', body: '\n\n' } } }, action),
        'helpBodyRequired',
        'de.body',
      ],
      [
        () =>
          createArticle(
            t.db,
            { topic: 'other', sortOrder: 0, texts: { de: { title: 'A', body: 'x'.repeat(20_001) } } },
            action,
          ),
        'helpBodyTooLong',
        'de.body',
      ],
      [
        () =>
          createArticle(
            t.db,
            { topic: 'other', sortOrder: 0, published: true, texts: { de: { title: 'A', body: 'B' } } },
            action,
          ),
        'helpTextsMissing',
        'en.title',
      ],
      [() => setPublished(t.db, ids.germanOnly, true, action), 'helpTextsMissing', 'en.title'],
      [
        () => updateArticle(t.db, ids.germanOnly, { texts: { en: { title: 'Only a title' } } }, action),
        'helpBodyRequired',
        'en.body',
      ],
      [() => updateArticle(t.db, 999_999, { topic: 'other' }, action), 'helpArticleNotFound', 'id'],
      [() => setPublished(t.db, 999_999, true, action), 'helpArticleNotFound', 'id'],
    ];
    await expectRefusals(refusals);
    expect({ articles: await articleCount(), audit: await auditCount() }).toEqual(before);
    expect((await getArticleForOps(t.db, ids.germanOnly))?.published).toBe(false);
  });

  it('runs the `help` ops commands, each change audited under the operator, refusals changing nothing', async () => {
    vi.stubEnv('OPS_OPERATOR', 'help-desk');
    const dir = mkdtempSync(join(tmpdir(), 'help-ops-'));
    try {
      let lines: string[] = [];
      const ops = async (...args: string[]) => {
        lines = [];
        return runOps(args, t.db, (l) => lines.push(l));
      };
      const audit = () =>
        t.db
          .selectFrom('ops_audit')
          .selectAll()
          .where('subject_type', '=', 'help_article')
          .where('operator', '=', 'help-desk')
          .orderBy('id')
          .execute();

      // The operator help lists the articles command.
      expect(await ops('help')).toBe(0);
      expect(lines.join('\n')).toContain('articles publish|unpublish <id>');

      expect(
        await ops(
          'articles',
          'add',
          'topic=withdrawal',
          'order=5',
          'en.title=Withdrawal times',
          'en.body=Within 48 hours.\\n\\nAt most 3 requests a day.',
          'de.title=Auszahlungsdauer',
          'de.body=Innerhalb von 48 Stunden.\\n\\nHöchstens 3 Anträge pro Tag.',
        ),
      ).toBe(0);
      const added = Number(/help article (\d+) added/.exec(lines.join('\n'))?.[1]);
      expect((await getArticleForOps(t.db, added))?.texts.en?.body).toBe(
        'Within 48 hours.\n\nAt most 3 requests a day.',
      );
      await t.call('help/detail', { id: String(added) }).then(({ body }) => expect(body.type).not.toBe('ok'));

      expect(await ops('articles', 'publish', String(added))).toBe(0);
      expect(await ok('help/detail', { id: String(added) })).toMatchObject({ title: 'Withdrawal times' });
      expect(await ops('articles', 'publish', String(added))).toBe(0);
      expect(lines).toEqual([`help article ${added} was already published`]);

      expect(await ops('articles', 'edit', String(added), 'order=7', 'en.title=Withdrawal arrival')).toBe(0);
      expect(await ok('help/detail', { id: String(added) })).toMatchObject({ title: 'Withdrawal arrival' });
      expect(await ops('articles', 'edit', String(added), 'order=7')).toBe(0);
      expect(lines).toEqual([`help article ${added}: nothing changed`]);

      const file = join(dir, 'article.json');
      writeFileSync(
        file,
        JSON.stringify({
          topic: 'c2c',
          order: 3,
          en: { title: 'Paying a merchant', body: 'You have 30 minutes.' },
          de: { title: 'Einen Händler bezahlen', body: 'Du hast 30 Minuten.' },
        }),
      );
      expect(await ops('articles', 'add', file)).toBe(0);
      const fromFile = Number(/help article (\d+) added/.exec(lines.join('\n'))?.[1]);
      expect((await getArticleForOps(t.db, fromFile))?.topic).toBe('c2c');

      expect(await ops('articles', 'list')).toBe(0);
      expect(lines.join('\n')).toMatch(
        new RegExp(`${added} +withdrawal +7 +published +de: Auszahlungsdauer +en: Withdrawal arrival`),
      );
      expect(await ops('articles', 'show', String(fromFile))).toBe(0);
      expect(lines).toContain('  Du hast 30 Minuten.');

      expect(await ops('articles', 'unpublish', String(added))).toBe(0);
      await t.call('help/detail', { id: String(added) }).then(({ body }) => expect(body.type).not.toBe('ok'));
      expect(await ops('articles', 'remove', String(fromFile))).toBe(0);
      expect(await getArticleForOps(t.db, fromFile)).toBeUndefined();

      expect((await audit()).map((a) => [a.action, Number(a.subject_id)])).toEqual([
        ['help_article.create', added],
        ['help_article.publish', added],
        ['help_article.update', added],
        ['help_article.create', fromFile],
        ['help_article.unpublish', added],
        ['help_article.delete', fromFile],
      ]);
      const update = (await audit())[2];
      expect(JSON.parse(update?.detail ?? '{}')).toMatchObject({
        sort_order: { before: 5, after: 7 },
        'en.text': { before: { title: 'Withdrawal times' }, after: { title: 'Withdrawal arrival' } },
      });
      const removed = (await audit())[5];
      expect(JSON.parse(removed?.detail ?? '{}')).toMatchObject({ texts: { de: { body: 'Du hast 30 Minuten.' } } });

      // Refused and mistaken commands change nothing.
      const before = { articles: await articleCount(), audit: await auditCount() };
      expect(await ops('articles', 'add', 'topic=lottery', 'order=1', 'en.title=A', 'en.body=B')).toBe(1);
      expect(lines).toEqual([`refused: ${translate('en', 'helpTopicInvalid')} (topic)`]);
      expect(await ops('articles', 'publish', String(ids.germanOnly))).toBe(1);
      expect(lines[0]).toBe(`refused: ${translate('en', 'helpTextsMissing')} (en.title)`);
      expect(await ops('articles', 'edit', '999999', 'order=1')).toBe(1);
      expect(await ops('articles', 'add', 'topic=other')).toBe(2);
      expect(await ops('articles', 'add', 'topic=other', 'order=1', 'fr.title=Bonjour')).toBe(1);
      expect(await ops('articles', 'add', join(dir, 'missing.json'))).toBe(2);
      expect(await ops('articles', 'show', 'abc')).toBe(2);
      expect(await ops('articles', 'frobnicate')).toBe(2);
      expect({ articles: await articleCount(), audit: await auditCount() }).toEqual(before);
    } finally {
      vi.unstubAllEnvs();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds the sample articles (published, in German and English) only to an install without articles', async () => {
    expect(await addSampleArticles(t.db, action)).toBe(0);
    const fresh = await listArticlesForOps(t.db);
    for (const a of fresh)
      await withHelp(t.db).deleteFrom('help_article_texts').where('article_id', '=', a.id).execute();
    await withHelp(t.db).deleteFrom('help_articles').execute();
    const added = await addSampleArticles(t.db, action);
    expect(added).toBeGreaterThanOrEqual(5);
    expect(added).toBeLessThanOrEqual(8);
    const articles = await listArticlesForOps(t.db);
    expect(articles).toHaveLength(added);
    for (const a of articles) {
      expect(a.published).toBe(true);
      expect(a.texts.de?.body.length).toBeGreaterThan(100);
      expect(a.texts.en?.body.length).toBeGreaterThan(100);
    }
    const withdrawal = await ok('help/list', { topic: 'withdrawal' });
    const detail = await ok('help/detail', { id: String(withdrawal.articles[0]?.id ?? 0) });
    expect(detail.body).toContain('at most 3 withdrawal requests within 24 hours');
    expect(detail.body).toContain('48 hours');
    expect((await ok('help/list', { q: '30 minutes' })).articles.map((a) => a.topic)).toContain('c2c');
    expect(await addSampleArticles(t.db, action)).toBe(0);
  });
});
