import { describe, expect, it, vi } from 'vitest';
import { fetchHelpArticle, fetchHelpArticles, fetchHelpTopics } from './help';
import { failAnswer, fakeApiServer, okAnswer } from './testing';

// The envelope rules are core/api/client.test.ts's; here only the help centre's: the paths and methods, the fields
// sent (no empty filters), the answers parsed by the contract, and a missing article told apart from a failed call.

const server = fakeApiServer();
const article = { id: 4, topic: 'deposit', title: 'How to deposit', body: 'A.\n\nB.', lang: 'en', updated_at: 1 };

describe('help calls', () => {
  it('reads the topics and the articles, sending only the filters given', async () => {
    server.answer = () => okAnswer({ topics: [{ topic: 'deposit', count: 2 }] });
    expect(await fetchHelpTopics()).toEqual({ topics: [{ topic: 'deposit', count: 2 }] });
    server.answer = () => okAnswer({ articles: [] });
    await fetchHelpArticles({});
    await fetchHelpArticles({ topic: 'c2c', q: '  50% off ' });
    await fetchHelpArticles({ topic: null, q: '   ' });
    expect(server.sent).toEqual([
      { path: 'help/topics', method: 'GET', form: {} },
      { path: 'help/list', method: 'GET', form: {} },
      { path: 'help/list', method: 'GET', form: { topic: 'c2c', q: '50% off' } },
      { path: 'help/list', method: 'GET', form: {} },
    ]);
  });

  it('reads one article; a missing one is null, a failed call false', async () => {
    server.answer = () => okAnswer(article);
    expect(await fetchHelpArticle(4)).toEqual(article);
    expect(server.sent.at(-1)).toEqual({ path: 'help/detail', method: 'GET', form: { id: '4' } });
    server.answer = () => failAnswer('This help article does not exist', 'id');
    expect(await fetchHelpArticle(5)).toBeNull();
    server.answer = () => Promise.reject(new TypeError('network down'));
    expect(await fetchHelpArticle(5)).toBe(false);
    // An answer that breaks the contract is a failure, not an article (the client warns about it).
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.answer = () => okAnswer({ ...article, topic: 'lottery' });
    expect(await fetchHelpArticle(4)).toBe(false);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
