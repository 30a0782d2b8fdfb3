import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * How far each product reaches outside its own folders: for every domain of server/domains/, the files elsewhere
 * that import one of its own modules (server/domains/<x>/, src/features/<x>/, machines/<x>/, streams/<x>/,
 * protocol/<x>.ts, protocol/rules/<x>.ts) or name one of their paths, its locale namespace (locales/<lang>/<x>.json)
 * or its server messages (locales/<lang>/errors/<x>.json).
 * DESIGN: a new product touches its own folders and one line in each composition point; this prints how far each
 * one is from that. `npx tsx scripts/product-reach.ts [--files] [domain...]`; tests are counted apart.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCANNED = ['server', 'src', 'core', 'machines', 'streams', 'workers', 'protocol', 'scripts', 'tests'];
const SKIPPED = new Set(['node_modules', 'dist', '.git']);

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

function sourceFiles(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** A relative import as the project path it points at (without extension), or null for a package. */
function target(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return rel(path.resolve(path.dirname(from), specifier)).replace(/\.(ts|tsx|js)$/, '');
}

/** The client features of a product where they are more than the one named after it (details load apart). */
const FEATURES_OF: Record<string, string[]> = { lever: ['lever', 'leverdetail'] };

/** Whether `p` (a project path without extension) is one of `domain`'s own places. */
function owned(domain: string, p: string): boolean {
  const inFolder = (folder: string) => p === folder || p.startsWith(`${folder}/`);
  return (
    inFolder(`server/domains/${domain}`) ||
    (FEATURES_OF[domain] ?? [domain]).some((feature) => inFolder(`src/features/${feature}`)) ||
    inFolder(`workers/${domain}`) ||
    // The product's own module in a layer that keeps one per area (DESIGN: core/api/<area>.ts): a file of its own,
    // not a shared one it edits.
    p === `core/api/${domain}` ||
    p === `core/recheck/${domain}` ||
    inFolder(`machines/${domain}`) ||
    inFolder(`streams/${domain}`) ||
    p === `protocol/${domain}` ||
    p === `protocol/rules/${domain}` ||
    new RegExp(`^locales/[^/]+/(errors/)?${domain}\\.json$`).test(p)
  );
}

/** Why `file` names `domain`: the imports of its places and the literal mentions of their paths, or none. */
function reasons(file: string, text: string, domain: string): string[] {
  const found = new Set<string>();
  const { importedFiles } = ts.preProcessFile(text, true, true);
  for (const { fileName } of importedFiles) {
    const p = target(file, fileName);
    if (p && owned(domain, p)) found.add(`imports ${p}`);
  }
  const places = [
    `domains/${domain}/`,
    ...(FEATURES_OF[domain] ?? [domain]).map((feature) => `features/${feature}/`),
    `machines/${domain}/`,
    `streams/${domain}/`,
    `/${domain}.json`,
  ];
  for (const place of places) if (text.includes(place) && found.size === 0) found.add(`mentions ${place}`);
  return [...found];
}

const args = process.argv.slice(2);
const listFiles = args.includes('--files');
const asked = args.filter((a) => !a.startsWith('--'));
const domains = (asked.length > 0 ? asked : fs.readdirSync(path.join(ROOT, 'server/domains')))
  .filter((d) => fs.statSync(path.join(ROOT, 'server/domains', d)).isDirectory())
  .sort();
const files = SCANNED.flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
const texts = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));
const isTest = (p: string) => p.startsWith('tests/') || /\.test\.tsx?$/.test(p) || p.endsWith('/testing.ts');

const rows: string[][] = [];
for (const domain of domains) {
  const reach = new Map<string, string[]>();
  for (const [file, text] of texts) {
    const p = rel(file).replace(/\.(ts|tsx)$/, '');
    if (owned(domain, p)) continue;
    const why = reasons(file, text, domain);
    if (why.length > 0) reach.set(rel(file), why);
  }
  const product = [...reach.keys()].filter((f) => !isTest(f));
  const server = product.filter((f) => f.startsWith('server/'));
  const client = product.filter((f) => /^(src|core|machines|streams|workers)\//.test(f));
  const other = product.filter((f) => !server.includes(f) && !client.includes(f));
  const tests = [...reach.keys()].filter(isTest);
  rows.push([domain, String(server.length), String(client.length), String(other.length), String(tests.length)]);
  if (listFiles) {
    console.log(`${domain}:`);
    for (const f of product) console.log(`  ${f}  (${reach.get(f)?.join(', ')})`);
  }
}

const header = ['domain', 'server', 'client', 'protocol/other', 'tests'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
console.log(line(header));
for (const row of rows) console.log(line(row));
