import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Fair outcomes (DESIGN, RULES "No operator control over results"): the only code that writes a contract's result
 * is the settlement, and it writes only what `optionResult` (protocol/rules/options.ts) computed from recorded ticks.
 * This reads the server's source: any new writer of `option_contracts` (a call, an ops command, a job) fails it.
 */
const SERVER = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sources(SERVER).map((path) => ({ path: relative(SERVER, path), text: readFileSync(path, 'utf8') }));
const writers = (pattern: RegExp) => files.filter((f) => pattern.test(f.text)).map((f) => f.path);

describe('who may write an option result', () => {
  it('only the settlement updates contracts, and only submission inserts them', () => {
    expect(writers(/updateTable\(\s*'option_contracts'/)).toEqual(['domains/options/settle.ts']);
    expect(writers(/insertInto\(\s*'option_contracts'/)).toEqual(['domains/options/submit.ts']);
    // No raw SQL around the query builder either.
    expect(writers(/(update|insert\s+into|delete\s+from)\s+"?option_contracts/i)).toEqual([]);
    expect(writers(/deleteFrom\(\s*'option_contracts'/)).toEqual([]);
  });

  it('a new contract starts waiting with no result; a result comes only from optionResult', () => {
    const submit = files.find((f) => f.path === 'domains/options/submit.ts')?.text ?? '';
    const insert = submit.slice(submit.indexOf("insertInto('option_contracts')"));
    const values = insert.slice(0, insert.indexOf('.returningAll()'));
    expect(values).toContain("state: 'waiting'");
    expect(values).not.toMatch(/exit_|payout|settled_at/);

    const settle = files.find((f) => f.path === 'domains/options/settle.ts')?.text ?? '';
    // Results are never written as literals: the one result assignment is each decision's result, and a decision's
    // result is only ever the rule's output.
    expect(settle).not.toMatch(/(state|result):\s*'(won|lost|flat|refunded)'/);
    expect(settle.match(/const settlement = optionResult\(/g)).toHaveLength(1);
    expect(settle.match(/result: settlement\.result/g)).toHaveLength(1);
    expect(settle.match(/state: caseText\(\s*chunk\.map\(\(d\) => \[d\.row\.id, d\.result\]\)/g)).toHaveLength(1);
    // The other state changes are the entry (waiting → running) and the no-tick cancel (waiting → cancelled).
    expect([...settle.matchAll(/state:\s*'(\w+)'/g)].map((m) => m[1]).sort()).toEqual(['cancelled', 'running']);
  });
});
