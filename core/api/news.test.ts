import { describe, expect, it } from 'vitest';
import { fetchAnnouncements, fetchNews, fetchNewsArticle } from './news';
import { failAnswer, fakeApiServer, okAnswer } from './testing';

// The envelope rules are core/api/client.test.ts's; here only the notices': the paths and methods, the fields sent
// (no empty filters), and a missing notice told apart from a failed call.

const server = fakeApiServer();
const notice = {
  id: 4,
  kind: 'announcement',
  title: 'Maintenance',
  body: 'A.\n\nB.',
  lang: 'en',
  published_at: 1,
  updated_at: 2,
  read: true,
};

describe('news calls', () => {
  it('reads pages and announcements, sending only the filters given', async () => {
    server.answer = () => okAnswer({ items: [], next_cursor: null });
    await fetchNews({});
    await fetchNews({ kind: 'news', cursor: '5.7' });
    await fetchNews({ kind: null, cursor: null });
    server.answer = () => okAnswer({ items: [], unread: null });
    expect(await fetchAnnouncements()).toEqual({ items: [], unread: null });
    expect(server.sent).toEqual([
      { path: 'news/list', method: 'POST', form: {} },
      { path: 'news/list', method: 'POST', form: { kind: 'news', cursor: '5.7' } },
      { path: 'news/list', method: 'POST', form: {} },
      { path: 'news/announcement', method: 'POST', form: {} },
    ]);
  });

  it('reads one notice; a missing one is null, a failed call false', async () => {
    server.answer = () => okAnswer(notice);
    expect(await fetchNewsArticle(4)).toEqual(notice);
    expect(server.sent.at(-1)).toEqual({ path: 'news/detail', method: 'POST', form: { id: '4' } });
    server.answer = () => failAnswer('This notice does not exist', 'id');
    expect(await fetchNewsArticle(5)).toBeNull();
    server.answer = () => Promise.reject(new TypeError('network down'));
    expect(await fetchNewsArticle(5)).toBe(false);
  });
});
