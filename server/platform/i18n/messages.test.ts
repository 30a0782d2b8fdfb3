import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_LANGS, type Lang } from '../../../protocol';
import { addMessages, isMessageKey, langFromHeader, translate } from './messages';

const LOCALES = fileURLToPath(new URL('../../../locales', import.meta.url));
const readFile = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(file, 'utf8'));
/** One language's messages: the shared table and every domain's (locales/<lang>/errors/<domain>.json). */
const read = (lang: string): Record<string, string> => {
  const dir = path.join(LOCALES, lang, 'errors');
  const domains = fs.readdirSync(dir).map((name) => readFile(path.join(dir, name)));
  return Object.assign(readFile(path.join(LOCALES, lang, 'errors.json')), ...domains);
};
/** A domain's table as its errors.ts hands it over, read from the files (platform code imports no domain). */
const domainTable = (name: string) =>
  Object.fromEntries(
    ALL_LANGS.map((lang) => [lang, readFile(path.join(LOCALES, lang, 'errors', `${name}.json`))]),
  ) as Record<Lang, Record<string, string>>;

const account = domainTable('account');

describe('server messages', () => {
  it('every language has exactly the German keys, none empty, placeholders kept', () => {
    const reference = read('de');
    for (const lang of ALL_LANGS) {
      const table = read(lang);
      expect(Object.keys(table).sort(), lang).toEqual(Object.keys(reference).sort());
      for (const [key, text] of Object.entries(table)) {
        expect(text.trim(), `${lang}.${key}`).not.toBe('');
        expect(text.match(/\{\{\w+\}\}/g) ?? [], `${lang}.${key}`).toEqual(reference[key]?.match(/\{\{\w+\}\}/g) ?? []);
      }
    }
  });

  it('every key the protocol schemas use exists', async () => {
    const fields = fs.readFileSync(fileURLToPath(new URL('../../../protocol/fields.ts', import.meta.url)), 'utf8');
    const account = fs.readFileSync(fileURLToPath(new URL('../../../protocol/account.ts', import.meta.url)), 'utf8');
    const keys = [...`${fields}\n${account}`.matchAll(/(?:error|message): '(\w+)'/g)].map((m) => m[1] ?? '');
    expect(keys.length).toBeGreaterThan(10);
    for (const key of keys) expect(isMessageKey(key), key).toBe(true);
    // Keys passed to helpers such as text('phoneRequired') and tickedField('agreementRequired').
    for (const m of `${fields}\n${account}`.matchAll(/(?:text|tickedField)\('(\w+)'/g)) {
      expect(isMessageKey(m[1] ?? ''), m[1]).toBe(true);
    }
  });

  it('translates the keys of a domain once its table is added, and refuses a key defined twice', () => {
    expect(translate('en', 'loginFailed')).toBe('Invalid input');
    addMessages([account]);
    expect(isMessageKey('loginFailed')).toBe(true);
    expect(() => addMessages([{ ...account }])).toThrow(/is defined twice/);
  });

  it('translates, falls back to invalidInput for unknown keys and fills placeholders', () => {
    addMessages([account]);
    expect(translate('en', 'loginFailed')).toBe('Wrong account or password');
    expect(translate('de', 'loginFailed')).toBe('Konto oder Passwort ist falsch');
    expect(translate('en', 'Invalid input: expected string')).toBe('Invalid input');
    expect(translate('en', '__proto__')).toBe('Invalid input');
    expect(translate('en', 'codeMailText', { code: '123456' })).toContain('123456');
    expect(translate('ja', 'codeMailText', { code: '654321' })).toContain('654321');
  });

  it('reads the language header, German when missing or unknown', () => {
    expect(langFromHeader(undefined)).toBe('de');
    expect(langFromHeader('')).toBe('de');
    expect(langFromHeader('fr')).toBe('de');
    expect(langFromHeader('EN')).toBe('en');
    expect(langFromHeader('zh-CN')).toBe('zh');
    expect(langFromHeader('ko_KR')).toBe('ko');
    expect(langFromHeader(['th', 'en'])).toBe('th');
  });
});
