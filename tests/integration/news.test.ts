import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NewsList } from '../../protocol/news';
import { opsNewsCalls } from '../../protocol/ops-news';
import { PasswordHasher } from '../../server/domains/account';
import { CardVault } from '../../server/domains/bank-cards';
import {
  addSampleNews,
  createNews,
  getNewsForOps,
  listNewsForOps,
  type NewsArticleInput,
  setNewsPublished,
  updateNews,
} from '../../server/domains/news';
import type { OperatorServices } from '../../server/domains/operators';
import { runOps } from '../../server/ops/cli';
import { translate } from '../../server/platform/i18n/messages';
import { apiChecks } from './api-checks';
import { consoleClient, auditCount as countAudit, expectRefusals } from './console-checks';
import {
  DATABASES,
  type Envelope,
  openTestDatabase,
  startTestApp,
  TEST_HASH_COST,
  type TestApp,
  type TestDatabase,
  uniqueEmail,
} from './harness';

/**
 * News and announcements over the real app on every database: readers see published articles only, newest first and
 * paged by cursor, each in their language, else English, else German; a logged-in reader's opened articles are marked
 * read for them and nobody else. Operators write through the console (role support) and the `news` ops commands,
 * every change audited in its own transaction; junk is refused in the envelope and changes nothing.
 */
const PASSWORD = 'correct horse battery';
const action = { operator: 'it-news' };

describe.each(DATABASES)('news on %s', (kind) => {
  let database: TestDatabase;
  let t: TestApp;
  let s: OperatorServices;
  const dataKey = new Uint8Array(randomBytes(32));
  const { ok } = apiChecks(() => t);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    t = await startTestApp(database.handle, { dataKey });
    s = {
      database: database.handle,
      now: t.clock.now,
      hasher: new PasswordHasher(TEST_HASH_COST),
      vault: new CardVault(dataKey),
    };
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  /** Adds an article at the test clock's time, then moves the clock on, so each is newer than the last. */
  async function add(input: NewsArticleInput): Promise<number> {
    const { id } = await createNews(t.db, input, { ...action, now: t.clock.now() });
    t.clock.advance(1_000);
    return id;
  }
  const texts = (en: string, de: string, more: Record<string, string> = {}) => ({
    en: { title: en, body: `${en} body.\n\nSecond paragraph.` },
    de: { title: de, body: `${de} Text.` },
    ...Object.fromEntries(Object.entries(more).map(([lang, title]) => [lang, { title, body: `${title} …` }])),
  });
  const auditCount = () => countAudit(t);

  async function call(path: 'news/list' | 'news/announcement' | 'news/detail', fields = {}, opts = {}) {
    return (await t.call(path, fields, opts)).body;
  }

  it('shows published articles only, newest first, in the reader’s language, else English, else German', async () => {
    const older = await add({ kind: 'news', published: true, texts: texts('Old news', 'Alte Nachricht') });
    const draft = await add({ kind: 'news', texts: texts('Draft', 'Entwurf') });
    const announcement = await add({
      kind: 'announcement',
      published: true,
      texts: texts('Maintenance', 'Wartung', { ja: 'メンテナンス' }),
    });
    const list = await ok('news/list', {});
    const ids = list.items.map((a) => a.id);
    expect(ids).toEqual([announcement, older]);
    expect(ids).not.toContain(draft);
    expect(list.items[0]).toMatchObject({ kind: 'announcement', title: 'Maintenance', lang: 'en', read: null });
    expect(list.items[0]?.excerpt).toBe('Maintenance body.');

    const inLang = async (lang: string) =>
      ((await call('news/list', {}, { lang })) as { data: NewsList }).data.items.map((a) => [a.title, a.lang]);
    expect(await inLang('ja')).toEqual([
      ['メンテナンス', 'ja'],
      ['Old news', 'en'],
    ]);
    expect(await inLang('de')).toEqual([
      ['Wartung', 'de'],
      ['Alte Nachricht', 'de'],
    ]);
    expect(await inLang('ko')).toEqual([
      ['Maintenance', 'en'],
      ['Old news', 'en'],
    ]);
    // Only a kind.
    expect((await ok('news/list', { kind: 'announcement' })).items.map((a) => a.id)).toEqual([announcement]);
    // A draft or a missing id does not exist for readers.
    for (const id of [draft, 999_999]) {
      const body = await call('news/detail', { id: String(id) });
      expect(body.type).not.toBe('ok');
      expect(body.message).toBe(translate('en', 'newsNotFound'));
    }
    const detail = await ok('news/detail', { id: String(announcement) });
    expect(detail).toMatchObject({ title: 'Maintenance', body: 'Maintenance body.\n\nSecond paragraph.', read: null });
    // Taken back, it is gone for readers too.
    await setNewsPublished(t.db, older, false, action);
    expect((await ok('news/list', {})).items.map((a) => a.id)).toEqual([announcement]);
    expect((await call('news/detail', { id: String(older) })).type).not.toBe('ok');
    await setNewsPublished(t.db, older, true, { ...action, now: t.clock.now() });
    t.clock.advance(1_000);
  });

  it('pages newest first with a cursor, never showing an article twice', async () => {
    for (let i = 1; i <= 5; i++) await add({ kind: 'news', published: true, texts: texts(`Page ${i}`, `Seite ${i}`) });
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: NewsList = await ok('news/list', { limit: '2', ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((a) => a.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    const all = (await ok('news/list', { limit: '50' })).items.map((a) => a.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages).toBe(Math.ceil(all.length / 2));
  });

  it('keeps read marks per user: opening marks it read for that user only', async () => {
    const a = await add({ kind: 'announcement', published: true, texts: texts('Read me', 'Lies mich') });
    const b = await add({ kind: 'announcement', published: true, texts: texts('And me', 'Und mich') });
    const alice = await t.registerByEmail(uniqueEmail('alice'));
    const bob = await t.registerByEmail(uniqueEmail('bob'));
    const flags = async (token: string) =>
      Object.fromEntries((await ok('news/announcement', {}, token)).items.map((n) => [n.id, n.read]));
    expect(await flags(alice.token)).toMatchObject({ [a]: false, [b]: false });
    const unreadBefore = (await ok('news/announcement', {}, alice.token)).unread ?? 0;
    expect(await ok('news/detail', { id: String(a) }, alice.token)).toMatchObject({ id: a, read: true });
    // Opening it again changes nothing.
    await ok('news/detail', { id: String(a) }, alice.token);
    expect(await flags(alice.token)).toMatchObject({ [a]: true, [b]: false });
    expect((await ok('news/announcement', {}, alice.token)).unread).toBe(unreadBefore - 1);
    expect(await flags(bob.token)).toMatchObject({ [a]: false, [b]: false });
    expect((await ok('news/list', {}, alice.token)).items.find((n) => n.id === a)?.read).toBe(true);
    // Without a session there are no flags.
    expect((await ok('news/announcement', {})).unread).toBeNull();
    const rows = await t.db
      .selectFrom('news_reads' as never)
      .selectAll()
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses junk in the envelope, in the reader’s language, never a 5xx, and changes nothing', async () => {
    const before = { news: (await listNewsForOps(t.db)).length, audit: await auditCount() };
    const cases: [string, Record<string, string>, string, string][] = [
      ['news/list', { kind: 'lottery' }, 'newsKindInvalid', 'kind'],
      ['news/list', { cursor: 'abc' }, 'invalidInput', 'cursor'],
      ['news/list', { cursor: '1.0' }, 'invalidInput', 'cursor'],
      ['news/list', { limit: '0' }, 'invalidInput', 'limit'],
      ['news/list', { limit: '51' }, 'invalidInput', 'limit'],
      ['news/detail', { id: 'abc' }, 'invalidInput', 'id'],
      ['news/detail', {}, 'invalidInput', 'id'],
    ];
    for (const lang of ['de', 'en'] as const) {
      for (const [path, fields, key, field] of cases) {
        const { status, body } = await t.call(path as 'news/list', fields, { lang });
        expect(status).toBeLessThan(500);
        expect(body.type, JSON.stringify(body)).not.toBe('ok');
        expect(body.message).toBe(translate(lang, key));
        expect(body.field).toBe(field);
      }
    }
    // An expired or foreign token on these public calls: no 5xx either.
    expect((await t.call('news/announcement', {}, { token: 'not-a-token' })).status).toBeLessThan(500);
    const refusals: [() => Promise<unknown>, string, string][] = [
      [() => createNews(t.db, { kind: 'blog', texts: texts('A', 'B') }, action), 'newsKindInvalid', 'kind'],
      [() => createNews(t.db, { kind: 'news', texts: {} }, action), 'helpTitleRequired', 'de.title'],
      [
        () => createNews(t.db, { kind: 'news', texts: { fr: { title: 'A', body: 'B' } } }, action),
        'newsLangNotOffered',
        'fr',
      ],
      [
        () => createNews(t.db, { kind: 'news', published: true, texts: { en: { title: 'A', body: 'B' } } }, action),
        'helpTextsMissing',
        'de.title',
      ],
      [
        () => createNews(t.db, { kind: 'news', texts: { th: { title: 'x'.repeat(121), body: 'B' } } }, action),
        'helpTitleTooLong',
        'th.title',
      ],
      [() => updateNews(t.db, 999_999, { kind: 'news' }, action), 'newsNotFound', 'id'],
      [() => setNewsPublished(t.db, 999_999, true, action), 'newsNotFound', 'id'],
    ];
    await expectRefusals(refusals);
    expect({ news: (await listNewsForOps(t.db)).length, audit: await auditCount() }).toEqual(before);
  });

  const { signedIn, ops: consoleCall } = consoleClient(
    () => t,
    () => s,
    { password: PASSWORD, names: `news-${kind}-`, ipBlock: 8 },
  );
  const ops = (path: keyof typeof opsNewsCalls, fields: Record<string, string>, token: string) =>
    consoleCall(opsNewsCalls, path, fields, token);

  it('lets support and admin write, publish, take back and delete from the console, audited by name', async () => {
    const support = await signedIn(['support']);
    const admin = await signedIn(['admin']);
    const reviewer = await signedIn(['reviewer']);
    const fields = {
      kind: 'announcement',
      'de.title': 'Neue Coins',
      'de.body': 'Ab heute handelbar.',
      'en.title': 'New coins',
      'en.body': 'Tradable from today.',
      'zh.title': '新币',
      'zh.body': '今天起可交易。',
    };
    expect((await ops('ops/news/save', fields, reviewer.token)).message).toBe(translate('en', 'opsForbidden'));
    const saved = await ops('ops/news/save', fields, support.token);
    expect(saved).toMatchObject({ type: 'ok', data: { kind: 'announcement', published: false } });
    const id = String((saved.data as { id: number }).id);
    const shown = async (lang = 'en') =>
      ((await call('news/list', {}, { lang })) as { data: NewsList }).data.items.find((a) => a.id === Number(id));
    expect(await shown()).toBeUndefined();
    expect((await ops('ops/news/publish', { id, published: '1' }, admin.token)).type).toBe('ok');
    expect((await shown('zh'))?.title).toBe('新币');
    // Bad input is refused in the envelope and changes nothing.
    const bad = await ops('ops/news/save', { ...fields, id, kind: 'blog' }, support.token);
    expect(bad.message).toBe(translate('en', 'newsKindInvalid'));
    const tooLong = await ops('ops/news/save', { ...fields, id, 'ko.title': 'x'.repeat(121) }, support.token);
    expect(tooLong.type).not.toBe('ok');
    expect((await ops('ops/news/save', { ...fields, id: '999999' }, support.token)).message).toBe(
      translate('en', 'newsNotFound'),
    );
    const edited = await ops('ops/news/save', { ...fields, id, 'en.title': 'New coins listed' }, support.token);
    expect(edited).toMatchObject({ type: 'ok', data: { texts: { en: { title: 'New coins listed' } } } });
    expect((await ops('ops/news/publish', { id, published: '0' }, support.token)).type).toBe('ok');
    expect(await shown()).toBeUndefined();
    expect((await ops('ops/news/delete', { id }, support.token)).type).toBe('ok');
    expect(await getNewsForOps(t.db, Number(id))).toBeUndefined();
    const audit = await t.db
      .selectFrom('ops_audit')
      .select(['action', 'operator'])
      .where('subject_type', '=', 'news_article')
      .where('subject_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'news_article.create', operator: support.name },
      { action: 'news_article.publish', operator: admin.name },
      { action: 'news_article.update', operator: support.name },
      { action: 'news_article.unpublish', operator: support.name },
      { action: 'news_article.delete', operator: support.name },
    ]);
  });

  it('runs the `news` ops commands, each change audited under the operator, refusals changing nothing', async () => {
    vi.stubEnv('OPS_OPERATOR', 'news-desk');
    try {
      let lines: string[] = [];
      const run = async (...args: string[]) => {
        lines = [];
        return runOps(args, t.db, (l) => lines.push(l));
      };
      expect(await run('help')).toBe(0);
      expect(lines.join('\n')).toContain('news publish|unpublish <id>');
      expect(
        await run(
          'news',
          'add',
          'kind=announcement',
          'de.title=Hallo',
          'de.body=Eins\\n\\nZwei',
          'en.title=Hello',
          'en.body=One',
        ),
      ).toBe(0);
      const id = Number(/news (\d+) added/.exec(lines.join('\n'))?.[1]);
      expect(await run('news', 'publish', String(id))).toBe(0);
      expect(await run('news', 'edit', String(id), 'es.title=Hola', 'es.body=Uno')).toBe(0);
      expect((await ok('news/detail', { id: String(id) })).title).toBe('Hello');
      expect((await call('news/detail', { id: String(id) }, { lang: 'es' })) as Envelope).toMatchObject({
        data: { title: 'Hola', lang: 'es' },
      });
      expect(await run('news', 'show', String(id))).toBe(0);
      expect(lines).toContain('  Zwei');
      expect(await run('news', 'list')).toBe(0);
      expect(lines.join('\n')).toMatch(new RegExp(`${id} +announcement +published +de: Hallo +en: Hello +es: Hola`));
      expect(await run('news', 'unpublish', String(id))).toBe(0);
      expect(await run('news', 'remove', String(id))).toBe(0);
      const audit = await t.db
        .selectFrom('ops_audit')
        .select('action')
        .where('subject_type', '=', 'news_article')
        .where('operator', '=', 'news-desk')
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.action)).toEqual([
        'news_article.create',
        'news_article.publish',
        'news_article.update',
        'news_article.unpublish',
        'news_article.delete',
      ]);
      const before = { news: (await listNewsForOps(t.db)).length, audit: await auditCount() };
      expect(await run('news', 'add', 'kind=blog', 'en.title=A', 'en.body=B')).toBe(1);
      expect(lines).toEqual([`refused: ${translate('en', 'newsKindInvalid')} (kind)`]);
      expect(await run('news', 'add', 'de.title=A')).toBe(2);
      expect(await run('news', 'publish', 'abc')).toBe(2);
      expect(await run('news', 'edit', '999999', 'kind=news')).toBe(1);
      expect(await run('news', 'frobnicate')).toBe(2);
      expect({ news: (await listNewsForOps(t.db)).length, audit: await auditCount() }).toEqual(before);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('adds the demo news (two announcements and a news item, de and en) only when there is none', async () => {
    const fresh = await openTestDatabase(kind);
    try {
      expect(await addSampleNews(fresh.handle.db, { operator: 'demo' })).toBe(3);
      expect(await addSampleNews(fresh.handle.db, { operator: 'demo' })).toBe(0);
      const all = await listNewsForOps(fresh.handle.db);
      expect(all.map((a) => a.kind).sort()).toEqual(['announcement', 'announcement', 'news']);
      for (const a of all) {
        expect(a.published).toBe(true);
        expect(Object.keys(a.texts).sort()).toEqual(['de', 'en']);
      }
    } finally {
      await fresh.close();
    }
  });
});
