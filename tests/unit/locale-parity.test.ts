// @vitest-environment node
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_LANGS } from '../../protocol/lang';
import { SHELL_NAMESPACES } from '../../src/lib/first-route';

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
/**
 * The namespaces each feature registers (`namespace: '…'` in src/features/<f>/feature.ts) and the support console's
 * own (src/console/, loaded by its entry).
 */
const FEATURE_NAMESPACES = [
  ...readdirSync(join(root, '..', 'src', 'features')).flatMap((folder) => {
    const file = join(root, '..', 'src', 'features', folder, 'feature.ts');
    const found = existsSync(file) ? /namespace: '([a-z0-9]+)'/.exec(readFileSync(file, 'utf8')) : null;
    return found?.[1] ? [found[1]] : [];
  }),
  'console',
];
/**
 * Every table: the namespaces (src/lib/i18n.ts: the shell's, the shared errors, and one per feature), and each server
 * domain's own refusal messages (locales/<lang>/errors/<domain>.json, named by its defineDomain).
 */
const domainErrors = readdirSync(join(root, 'de', 'errors')).map((file) => `errors/${file}`);
const files = [...[...SHELL_NAMESPACES, ...FEATURE_NAMESPACES].map((ns) => `${ns}.json`), ...domainErrors];
const tablesIn = (lang: string) => [
  ...readdirSync(join(root, lang)).filter((f) => f.endsWith('.json')),
  ...readdirSync(join(root, lang, 'errors')).map((file) => `errors/${file}`),
];

describe('locale parity', () => {
  it('has exactly the seven languages', () => {
    expect([...folders].sort()).toEqual([...ALL_LANGS].sort());
  });

  it('has exactly the namespace tables the app loads, in every language', () => {
    for (const lang of folders)
      expect({ lang, files: tablesIn(lang).sort() }).toEqual({ lang, files: [...files].sort() });
  });

  for (const file of files) {
    it(`${file}: every language has the same keys as German, and no empty texts`, () => {
      const de = keysOf(read('de', file)).sort();
      // A domain's own refusals may be one or two; a namespace table far fewer than a dozen keys is a broken one.
      expect(de.length).toBeGreaterThan(file.startsWith('errors/') ? 0 : 10);
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
    for (const file of files) {
      const de = new Map(leaves(read('de', file)));
      for (const lang of folders) {
        for (const [key, text] of leaves(read(lang, file))) {
          expect({ lang, key, marks: marks(text) }).toEqual({ lang, key, marks: marks(de.get(key) ?? '') });
        }
      }
    }
  });
});

/** Source files of the client (tests left out), relative to the project root. */
function sources(dir: string): string[] {
  return readdirSync(join(root, '..', dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

describe('namespaces', () => {
  /** Top-level group → the namespace table that holds it (German; the parity tests above hold the others to it). */
  const owner = new Map<string, string>();
  for (const ns of [...SHELL_NAMESPACES, ...FEATURE_NAMESPACES].filter((n) => n !== 'errors')) {
    for (const group of Object.keys(read('de', `${ns}.json`) as object)) {
      if (owner.has(group)) throw new Error(`group ${group} is in both ${owner.get(group)} and ${ns}`);
      owner.set(group, ns);
    }
  }

  it('uses, in each feature, only keys of the shell or of its own namespace (the only ones its pages load)', () => {
    const wrong: string[] = [];
    for (const file of ['src', 'core', 'streams'].flatMap(sources)) {
      // A feature's folder, or the support console (src/console/, its own part of the app with its own namespace).
      const found = /^src\/(?:features\/([^/]+)|(console))\//.exec(file);
      const feature = found?.[1] ?? found?.[2] ?? null;
      const text = readFileSync(join(root, '..', file), 'utf8');
      for (const m of text.matchAll(/['"`](?:app:)?([A-Za-z][A-Za-z0-9]*)\./g)) {
        const ns = owner.get(m[1] ?? '');
        if (ns && ns !== 'app' && ns !== feature) wrong.push(`${file}: ${m[1]}.* is in ${ns}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('loads each page with the namespace of the feature it belongs to', () => {
    // Each feature registers its pages in its own feature.ts (src/app/features.ts lists the features): the page
    // modules are the feature's own, and the strings loaded with them are the feature's namespace.
    const featuresDir = join(root, '..', 'src', 'features');
    let pages = 0;
    for (const folder of readdirSync(featuresDir)) {
      const file = join(featuresDir, folder, 'feature.ts');
      if (!existsSync(file)) continue;
      const text = readFileSync(file, 'utf8');
      // A page's data prefetch (feature.ts `prefetch`, from the feature's queries.ts) is not a page.
      const loads = [...text.matchAll(/import\('([^']+)'\)/g)].map((m) => m[1]).filter((l) => l !== './queries');
      pages += loads.length;
      expect({ folder, loads: loads.filter((l) => !l?.startsWith('./pages/')) }).toEqual({ folder, loads: [] });
      if (loads.length > 0)
        expect({ folder, ns: /namespace: '([a-z][a-z0-9]*)'/.exec(text)?.[1] }).toEqual({ folder, ns: folder });
    }
    expect(pages).toBeGreaterThan(10);
  });
});
