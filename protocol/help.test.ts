import { describe, expect, it } from 'vitest';
import { helpExcerpt, helpListRequest, helpParagraphs, helpTextLang } from './help';

// The help centre's shared rules: which text a reader gets, how a plain-text body splits into paragraphs, the list's
// excerpt, and the list call's filters (the server enforces them, the client's field mirrors them).

describe('help articles', () => {
  it('gives German readers the German text and everyone else the English one', () => {
    expect(helpTextLang('de')).toBe('de');
    for (const lang of ['en', 'ja', 'ko', 'es', 'th', 'zh'] as const) expect(helpTextLang(lang)).toBe('en');
  });

  it('splits a body at blank lines, keeping line breaks inside a paragraph', () => {
    expect(helpParagraphs('One.\n\nTwo,\nstill two.\r\n \r\nThree.\n\n\n\n')).toEqual([
      'One.',
      'Two,\nstill two.',
      'Three.',
    ]);
    expect(helpParagraphs('  \n\n ')).toEqual([]);
    expect(helpParagraphs('<b>not markup</b>')).toEqual(['<b>not markup</b>']);
  });

  it('excerpts the first paragraph on one line, cut at a word', () => {
    expect(helpExcerpt('Short\nfirst.\n\nSecond.')).toBe('Short first.');
    const long = `${'word '.repeat(40)}end`;
    const excerpt = helpExcerpt(long);
    expect(excerpt.length).toBeLessThanOrEqual(160);
    expect(excerpt).toMatch(/^word( word)*…$/);
  });

  it('takes an optional topic and a search of at most 100 characters', () => {
    expect(helpListRequest.parse({})).toEqual({});
    expect(helpListRequest.parse({ topic: ' c2c ', q: '  50% ' })).toEqual({ topic: 'c2c', q: '50%' });
    expect(helpListRequest.parse({ topic: '', q: '   ' })).toEqual({ topic: undefined, q: undefined });
    expect(helpListRequest.parse({ q: 'x'.repeat(100) }).q).toHaveLength(100);
    const issue = (input: object) => helpListRequest.safeParse(input).error?.issues[0]?.message;
    expect(issue({ q: 'x'.repeat(101) })).toBe('helpQueryTooLong');
    expect(issue({ topic: 'lottery' })).toBe('helpTopicInvalid');
  });
});
