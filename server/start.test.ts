import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientIsStale, newestChange } from './start';

describe('npm start rebuilds the client only when stale', () => {
  let root: string;
  const write = (rel: string, mtimeSeconds: number) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, rel);
    fs.utimesSync(file, mtimeSeconds, mtimeSeconds);
  };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-start-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is stale without a build', () => {
    write('src/main.tsx', 1_000);
    expect(clientIsStale(root)).toBe(true);
  });

  it('is fresh when the build is newer than every source, stale when any source is newer', () => {
    for (const rel of ['src/routes/a.tsx', 'locales/de/app.json', 'protocol/x.ts', 'index.html', 'vite.config.ts']) {
      write(rel, 1_000);
    }
    write('dist/index.html', 2_000);
    // Folders' own mtimes count too; pin them below the build.
    for (const dir of ['src', 'src/routes', 'locales', 'locales/de', 'protocol']) {
      fs.utimesSync(path.join(root, dir), 1_000, 1_000);
    }
    expect(clientIsStale(root)).toBe(false);
    write('locales/de/app.json', 3_000);
    expect(clientIsStale(root)).toBe(true);
  });

  it('newestChange looks inside folders and ignores missing paths', () => {
    write('a/b/c.txt', 5_000);
    fs.utimesSync(path.join(root, 'a', 'b'), 1_000, 1_000);
    fs.utimesSync(path.join(root, 'a'), 1_000, 1_000);
    expect(newestChange(path.join(root, 'a'))).toBe(5_000_000);
    expect(newestChange(path.join(root, 'missing'))).toBe(0);
  });
});
