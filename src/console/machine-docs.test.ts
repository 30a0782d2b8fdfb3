import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineDoc, machineIdOf, pathsByWalk, START_EVENT, type TestPath } from './machine-docs';

const path = (walk: string, reaches: string): TestPath => ({
  walk,
  reaches,
  steps: [{ event: START_EVENT, state: reaches }],
});

describe('pathsByWalk', () => {
  it('groups the paths by walk, walks in first-seen order, paths in file order', () => {
    const a = path('buyer', 'a');
    const b = path('merchant', 'b');
    const c = path('buyer', 'c');
    const d = path('merchant', 'd');
    expect(pathsByWalk([a, b, c, d])).toEqual([
      { walk: 'buyer', paths: [a, c] },
      { walk: 'merchant', paths: [b, d] },
    ]);
  });

  it('gives no walks for no paths', () => {
    expect(pathsByWalk([])).toEqual([]);
  });
});

describe('machineIdOf', () => {
  it('reads the id of a paths file and nothing else', () => {
    expect(machineIdOf('../../../docs/machines/lever-order.paths.json')).toBe('lever-order');
    expect(machineIdOf('lever-order.paths.json')).toBe('lever-order');
    expect(machineIdOf('../../../docs/machines/lever-order.svg')).toBeNull();
    expect(machineIdOf('../../../docs/machines/Lever.paths.json')).toBeNull();
  });
});

describe('the generated files', () => {
  const dir = join(import.meta.dirname, '..', '..', 'docs', 'machines');
  const files = readdirSync(dir).filter((f) => f.endsWith('.paths.json'));

  it('hold the order machines, each read by the screen’s schema, named as its file, with its drawing beside it', () => {
    expect(files.map(machineIdOf)).toEqual(
      expect.arrayContaining([
        'c2c-order',
        'ieo-subscription',
        'lever-close-all',
        'lever-order',
        'option-contract',
        'spot-order',
      ]),
    );
    for (const file of files) {
      const doc = machineDoc.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
      expect(doc.machine).toBe(machineIdOf(file));
      expect(readdirSync(dir)).toContain(`${doc.machine}.svg`);
      expect(doc.paths.length).toBeGreaterThan(0);
      for (const p of doc.paths) expect(p.steps[0]?.event).toBe(START_EVENT);
    }
  });
});
