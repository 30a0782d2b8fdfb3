// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { newsCursor, newsListRequest, parseNewsCursor } from './news';
import { opsNewsSaveRequest } from './ops-news';
import { pickTextLang, textFallback } from './published-texts';

// The notices' shared rules: which text a reader gets (their language, else English, else German), the list's cursor
// and filters (the server enforces them), and the console's save form for all seven languages.

describe('news', () => {
  it('gives a reader their language, else English, else German', () => {
    expect(textFallback('ja')).toEqual(['ja', 'en', 'de']);
    expect(textFallback('en')).toEqual(['en', 'de']);
    expect(textFallback('de')).toEqual(['de', 'en']);
    expect(pickTextLang('ja', ['de', 'en', 'ja'])).toBe('ja');
    expect(pickTextLang('ko', ['de', 'en', 'ja'])).toBe('en');
    expect(pickTextLang('ko', ['de'])).toBe('de');
    expect(pickTextLang('de', ['en', 'zh'])).toBe('en');
    expect(pickTextLang('th', ['zh'])).toBeUndefined();
  });

  it('continues a page after the last article by its publication time and id', () => {
    const cursor = newsCursor({ published_at: 1_700_000_000_123, id: 42 });
    expect(cursor).toBe('1700000000123.42');
    expect(parseNewsCursor(cursor)).toEqual({ publishedAt: 1_700_000_000_123, id: 42 });
    for (const bad of ['', 'abc', '1.0', '1.', '.5', '1.2.3', '-1.2']) expect(parseNewsCursor(bad)).toBeNull();
  });

  it('takes an optional kind, cursor and limit', () => {
    expect(newsListRequest.parse({})).toEqual({});
    expect(newsListRequest.parse({ kind: ' announcement ', cursor: '5.7', limit: '10' })).toEqual({
      kind: 'announcement',
      cursor: '5.7',
      limit: 10,
    });
    expect(newsListRequest.parse({ kind: '', cursor: '' })).toEqual({ kind: undefined, cursor: undefined });
    const issue = (input: object) => newsListRequest.safeParse(input).error?.issues[0];
    expect(issue({ kind: 'blog' })).toMatchObject({ message: 'newsKindInvalid', path: ['kind'] });
    expect(issue({ cursor: 'x' })).toMatchObject({ message: 'invalidInput', path: ['cursor'] });
    expect(issue({ limit: '0' })?.message).toBe('invalidInput');
    expect(issue({ limit: '51' })?.message).toBe('invalidInput');
  });

  it('saves texts in any of the seven languages from the console', () => {
    const parsed = opsNewsSaveRequest.parse({ kind: 'news', 'th.title': 'ข่าว', 'zh.body': '正文' });
    expect(parsed).toMatchObject({ kind: 'news', 'th.title': 'ข่าว', 'zh.body': '正文' });
    expect(opsNewsSaveRequest.safeParse({ kind: 'news', 'ko.title': 'x'.repeat(121) }).success).toBe(false);
    expect(opsNewsSaveRequest.safeParse({ kind: 'blog' }).error?.issues[0]?.message).toBe('newsKindInvalid');
  });
});
