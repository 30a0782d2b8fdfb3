import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir, precompressFile } from '../../scripts/precompress';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const script = (n: number) =>
  `export const table = ${JSON.stringify(Array.from({ length: n }, (_, k) => `row ${k}`))};\n`;

describe('the build copies', () => {
  it('writes .br and .gz beside each text file worth it, each decoding to the file', () => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'shell.js'), script(500));
    writeFileSync(join(dir, 'tiny.css'), 'a{color:red}');
    writeFileSync(join(dir, 'icon.png'), Buffer.alloc(4_000, 7));
    expect(precompressDir(dir)).toBe(1);
    const raw = readFileSync(join(dir, 'assets', 'shell.js'));
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets', 'shell.js.br')))).toEqual(raw);
    expect(gunzipSync(readFileSync(join(dir, 'assets', 'shell.js.gz')))).toEqual(raw);
    // Too small to gain, and not text: sent as they are.
    expect(existsSync(join(dir, 'tiny.css.br'))).toBe(false);
    expect(existsSync(join(dir, 'icon.png.gz'))).toBe(false);
  });

  it('replaces the copies of a file edited after the build, and drops them when it is too small to gain', () => {
    dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    const file = join(dir, 'index.html');
    writeFileSync(file, `<html>${script(300)}</html>`);
    precompressFile(file);
    writeFileSync(file, `<html>${script(400)}<!-- next --></html>`);
    expect(precompressFile(file)).toBe(true);
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toContain('<!-- next -->');
    writeFileSync(file, '<html></html>');
    expect(precompressFile(file)).toBe(false);
    expect(existsSync(`${file}.br`)).toBe(false);
    expect(existsSync(`${file}.gz`)).toBe(false);
  });
});
