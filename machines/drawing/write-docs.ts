import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allMachineDocs, DOCS_DIR } from './docs';

/**
 * `npm run machines`: draws every machine of machines/registry.ts and lists its test paths under docs/machines/,
 * removing files of machines no longer listed. `npm test` fails when these files differ from what this writes
 * (machines/drawing/docs.test.ts), so the README's pictures are always the running code.
 */
const files = await allMachineDocs();
mkdirSync(DOCS_DIR, { recursive: true });
for (const name of readdirSync(DOCS_DIR)) if (!(name in files)) rmSync(join(DOCS_DIR, name));
for (const [name, text] of Object.entries(files)) writeFileSync(join(DOCS_DIR, name), text);
console.log(`wrote ${Object.keys(files).length} files to ${DOCS_DIR}/`);
