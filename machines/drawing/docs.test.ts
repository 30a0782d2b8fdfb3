import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MACHINES } from '../registry';
import { allMachineDocs, DOCS_DIR } from './docs';

describe('docs/machines', () => {
  it('holds exactly what `npm run machines` writes from the running code', async () => {
    const files = await allMachineDocs();
    expect(Object.keys(files)).toHaveLength(MACHINES.length * 2);
    const stale = Object.entries(files)
      .filter(
        ([name, text]) => !existsSync(join(DOCS_DIR, name)) || readFileSync(join(DOCS_DIR, name), 'utf8') !== text,
      )
      .map(([name]) => name);
    const extra = readdirSync(DOCS_DIR).filter((name) => !(name in files));
    expect({ stale, extra }, 'run `npm run machines` and commit docs/machines/').toEqual({ stale: [], extra: [] });
  }, 60_000);
});
