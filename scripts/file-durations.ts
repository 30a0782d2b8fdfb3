import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * Refreshes tests/file-durations.json, the seconds each slow test file took, from Vitest JSON reports:
 *
 *   npx vitest run --project e2e --reporter=json --outputFile=/tmp/e2e.json
 *   npx tsx scripts/file-durations.ts /tmp/e2e.json [/tmp/integration.json …]
 *
 * The sequencer (scripts/longest-first.ts) starts the longest files first on a fresh clone, which has no Vitest cache
 * of its own: with the longest file started last, a worker runs it alone while the others stand idle.
 */
interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const TABLE = 'tests/file-durations.json';
const table: Record<string, number> = JSON.parse(readFileSync(TABLE, 'utf8'));
for (const reportFile of process.argv.slice(2)) {
  const report: Report = JSON.parse(readFileSync(reportFile, 'utf8'));
  for (const file of report.testResults) {
    // Whole seconds: the order is what matters, not the last digit of a noisy figure.
    table[relative(process.cwd(), file.name)] = Math.max(1, Math.ceil((file.endTime - file.startTime) / 1000));
  }
}
const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(TABLE, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${TABLE}: ${Object.keys(sorted).length} files`);
