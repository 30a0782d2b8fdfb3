import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN "The data flow, one way": dependencies point down and never back up. This reads every import of the client
 * layers and checks the rules, so a new file that breaks them fails here instead of relying on memory.
 */

const root = resolve(__dirname, '..', '..');

function sourcesUnder(dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const path = join(abs, name);
    if (statSync(path).isDirectory()) return sourcesUnder(relative(root, path));
    return /\.(ts|tsx)$/.test(name) ? [relative(root, path)] : [];
  });
}

/** Import specifiers of a file (static, dynamic and side-effect imports, re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
  return found.filter((s) => s !== '');
}

/** Where an import points: a project folder (`src`, `core`, ...) for relative ones, else the package name. */
function target(file: string, spec: string): string {
  if (!spec.startsWith('.'))
    return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);
  return relative(root, resolve(dirname(join(root, file)), spec));
}

const inFolder = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** Known exceptions, each with the reason it is still there. */
const ALLOWED: Record<string, string[]> = {
  // Decimal comes from src/lib/money.ts until it moves to core/money.ts (another change is rewriting money.ts).
  'streams/candles.ts': ['src/lib/money'],
};

describe('client layers: one-way dependencies', () => {
  it('core/, streams/, machines/ and workers/ import only core/, protocol/ and libraries: never src/, never React', () => {
    const problems: string[] = [];
    for (const layer of ['core', 'streams', 'machines', 'workers']) {
      for (const file of sourcesUnder(layer)) {
        for (const spec of importsOf(file)) {
          const to = target(file, spec);
          const isOurs = spec.startsWith('.');
          const ok = isOurs
            ? ['core', 'protocol', 'streams', 'machines', 'workers'].some((f) => inFolder(to, f)) &&
              (layer === 'core' ? inFolder(to, 'core') || inFolder(to, 'protocol') : true)
            : ![
                'react',
                'react-dom',
                '@tanstack/react-query',
                '@tanstack/react-router',
                'react-i18next',
                'valtio',
              ].includes(to);
          if (!ok && !ALLOWED[file]?.includes(to)) problems.push(`${file} imports ${spec}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('streams/ reaches core/ only through its public modules, and core/ never reaches streams/', () => {
    const problems = sourcesUnder('core').flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.') && inFolder(target(file, spec), 'streams'))
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(problems).toEqual([]);
  });

  it('src/components/ is presentational: no API calls, stores, streams or sockets', () => {
    const problems: string[] = [];
    for (const file of sourcesUnder('src/components')) {
      for (const spec of importsOf(file)) {
        const to = target(file, spec);
        const bad =
          inFolder(to, 'core') ||
          inFolder(to, 'streams') ||
          inFolder(to, 'src/state') ||
          inFolder(to, 'src/data') ||
          inFolder(to, 'src/features') ||
          ['valtio', 'ky', 'socket.io-client', '@tanstack/react-query'].includes(to);
        if (bad) problems.push(`${file} imports ${spec}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('one place per library: ky in core/api/client.ts, socket.io-client in streams/socket.ts', () => {
    const all = ['src', 'core', 'streams', 'machines', 'workers'].flatMap(sourcesUnder);
    const users = (lib: string) => all.filter((file) => importsOf(file).includes(lib)).sort();
    expect(users('ky')).toEqual(['core/api/client.ts']);
    expect(users('socket.io-client')).toEqual(['streams/socket.ts']);
  });

  it('features do not import each other', () => {
    const problems: string[] = [];
    for (const file of sourcesUnder('src/features')) {
      const own = file.split('/')[2];
      for (const spec of importsOf(file)) {
        const to = target(file, spec);
        if (inFolder(to, 'src/features') && to.split('/')[2] !== own) problems.push(`${file} imports ${spec}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
