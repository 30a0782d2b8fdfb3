import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per test file as measured on the CI machine; scripts/file-durations.ts refreshes it. */
const measured: Record<string, number> = JSON.parse(
  readFileSync(new URL('../tests/file-durations.json', import.meta.url), 'utf8'),
);

/**
 * Test files longest first within each project (issue 24: CI time). Vitest orders by its own cache of durations, which
 * a fresh clone lacks; it then falls back to file size, and a short file that drives long paths (machine-paths.test.ts)
 * started last kept one browser worker busy for three minutes after the others were done. Here a file's weight is
 * Vitest's cached duration when it has one, else the checked-in measurement; a file never measured goes first, as
 * Vitest does (it may be the longest).
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification): number => {
      const file = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration;
      if (cached !== undefined) return cached / 1000;
      return measured[file] ?? Number.POSITIVE_INFINITY;
    };
    // Projects run one after the other in the base order; only the order inside each project changes.
    const projectRank = new Map<string, number>();
    for (const spec of base)
      if (!projectRank.has(spec.project.name)) projectRank.set(spec.project.name, projectRank.size);
    return base
      .map((spec, index) => ({ spec, index, weight: weight(spec) }))
      .sort(
        (a, b) =>
          (projectRank.get(a.spec.project.name) ?? 0) - (projectRank.get(b.spec.project.name) ?? 0) ||
          b.weight - a.weight ||
          a.index - b.index,
      )
      .map(({ spec }) => spec);
  }
}
