import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_LANGS } from '../../protocol/lang';

const root = join(__dirname, '..', '..', 'locales');

/** Flattens a table to its leaf key paths (array items count as keys too, so sections must line up). */
function keysOf(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

function emptyLeaves(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => emptyLeaves(v, prefix ? `${prefix}.${k}` : k));
  }
  return typeof value === 'string' && value.trim() !== '' ? [] : [prefix];
}

const folders = readdirSync(root).filter((f) => statSync(join(root, f)).isDirectory());
const read = (lang: string, file: string): unknown => JSON.parse(readFileSync(join(root, lang, file), 'utf8'));

describe('locale parity', () => {
  it('has exactly the seven languages', () => {
    expect([...folders].sort()).toEqual([...ALL_LANGS].sort());
  });

  for (const file of ['app.json', 'errors.json']) {
    it(`${file}: every language has the same keys as German, and no empty texts`, () => {
      const de = keysOf(read('de', file)).sort();
      expect(de.length).toBeGreaterThan(10);
      for (const lang of folders) {
        const table = read(lang, file);
        expect({ lang, keys: keysOf(table).sort() }).toEqual({ lang, keys: de });
        expect({ lang, empty: emptyLeaves(table) }).toEqual({ lang, empty: [] });
      }
    });
  }

  it('keeps {{placeholders}} and <tags> the same in every language', () => {
    const marks = (s: string) => [...s.matchAll(/{{\s*\w+\s*}}|<\/?\w+>/g)].map((m) => m[0].replace(/\s/g, '')).sort();
    const leaves = (value: unknown, prefix = ''): [string, string][] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k))
        : [[prefix, String(value)]];
    for (const file of ['app.json', 'errors.json']) {
      const de = new Map(leaves(read('de', file)));
      for (const lang of folders) {
        for (const [key, text] of leaves(read(lang, file))) {
          expect({ lang, key, marks: marks(text) }).toEqual({ lang, key, marks: marks(de.get(key) ?? '') });
        }
      }
    }
  });
});
