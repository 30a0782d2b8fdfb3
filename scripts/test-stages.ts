import { spawn } from 'node:child_process';

/**
 * `npm test`: every check the project has, in stages, and a table of each stage's wall time at the end (issue 24: CI
 * must stay well inside its 90 minutes, and the table shows where the time goes), printed on failure too.
 *
 * On the 2-core CI machine, stages that leave a core idle run side by side: the type check (one core) and the lint
 * beside the unit tests, and the client build (then the size budgets that read it) beside the integration tests,
 * which wait on their servers and databases. The browser tests fill both cores themselves, so they run alone. After a
 * failed step no new step starts (as `a && b` did), unless `--keep-going`; stages that did not run show as "not run".
 */

interface Stage {
  name: string;
  command: string;
  args: string[];
}

const npx = (...args: string[]): Pick<Stage, 'command' | 'args'> => ({ command: 'npx', args });

const stages = {
  typecheck: { name: 'typecheck', ...npx('tsc', '--noEmit', '-p', 'tsconfig.json') },
  // biome, then the layer rules on resolved paths (dependency-cruiser, .dependency-cruiser.cjs).
  lint: { name: 'lint', command: 'npm', args: ['run', '--silent', 'lint'] },
  unit: { name: 'unit', ...npx('vitest', 'run', '--project', 'unit', '--project', 'server') },
  integration: { name: 'integration', ...npx('vitest', 'run', '--project', 'integration') },
  build: { name: 'build', ...npx('vite', 'build') },
  size: { name: 'size', ...npx('tsx', 'tests/size/route-budgets.ts') },
  e2e: { name: 'e2e', ...npx('vitest', 'run', '--project', 'e2e') },
} satisfies Record<string, Stage>;

/** One step's lanes run at the same time; the stages of one lane run one after the other (size needs the build). */
const plan: Stage[][][] = [
  [[stages.typecheck], [stages.lint], [stages.unit]],
  [[stages.integration], [stages.build, stages.size]],
  [[stages.e2e]],
];

type Outcome = 'passed' | 'failed' | 'not run';
interface Result {
  stage: Stage;
  outcome: Outcome;
  ms: number;
}

const keepGoing = process.argv.includes('--keep-going');
const running = new Set<ReturnType<typeof spawn>>();

/**
 * Runs one stage. Alone in its step it writes straight to the terminal (vitest keeps its live display); beside others
 * its lines are prefixed with its name, so interleaved output stays readable.
 */
function runStage(stage: Stage, shared: boolean): Promise<Result> {
  const started = performance.now();
  console.log(`\n▶ ${stage.name}: ${stage.command} ${stage.args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(stage.command, stage.args, { stdio: shared ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    running.add(child);
    if (shared) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ] as const) {
        let rest = '';
        from?.setEncoding('utf8');
        from?.on('data', (chunk: string) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) to.write(`[${stage.name}] ${line}\n`);
        });
        from?.on('end', () => {
          if (rest) to.write(`[${stage.name}] ${rest}\n`);
        });
      }
    }
    const done = (outcome: Outcome) => {
      running.delete(child);
      resolve({ stage, outcome, ms: performance.now() - started });
    };
    child.once('error', (error) => {
      console.error(`[${stage.name}] could not start: ${error.message}`);
      done('failed');
    });
    child.once('close', (code) => done(code === 0 ? 'passed' : 'failed'));
  });
}

/** A lane's stages in order; after a failure the rest of the lane does not run (size without a build is no check). */
async function runLane(lane: Stage[], shared: boolean): Promise<Result[]> {
  const results: Result[] = [];
  for (const stage of lane) {
    if (results.some((r) => r.outcome !== 'passed')) results.push({ stage, outcome: 'not run', ms: 0 });
    else results.push(await runStage(stage, shared));
  }
  return results;
}

// Wall time shown to the second: a duration, not money or a price, so rounding here is only display.
const minutes = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * What .ci/run did before `npm test` (installing chromium, `npm ci`), as `name=ms` pairs separated by commas in
 * CI_SETUP_STAGES: shown first, so one table at the end of a CI run has every stage.
 */
const setupRows = (process.env.CI_SETUP_STAGES ?? '')
  .split(',')
  .map((pair) => pair.split('='))
  .flatMap(([name, ms]) => (name && ms && Number.isFinite(Number(ms)) ? [{ name, ms: Number(ms) }] : []));

function printTable(results: Result[], totalMs: number): void {
  const names = [...results.map((r) => r.stage.name), ...setupRows.map((r) => r.name), 'total'];
  const width = Math.max(...names.map((n) => n.length));
  console.log('\nStage timings (wall time; stages marked ∥ ran side by side):');
  for (const row of setupRows)
    console.log(`  ${row.name.padEnd(width)}  ${'passed'.padEnd(7)}  ${minutes(row.ms).padStart(6)}`);
  for (const step of plan) {
    const names = new Set(step.flat().map((s) => s.name));
    for (const r of results.filter((x) => names.has(x.stage.name))) {
      const side = step.length > 1 ? '  ∥' : '';
      console.log(`  ${r.stage.name.padEnd(width)}  ${r.outcome.padEnd(7)}  ${minutes(r.ms).padStart(6)}${side}`);
    }
  }
  const setupMs = setupRows.reduce((sum, row) => sum + row.ms, 0);
  console.log(`  ${'total'.padEnd(width)}  ${''.padEnd(7)}  ${minutes(totalMs + setupMs).padStart(6)}`);
}

async function main(): Promise<number> {
  const started = performance.now();
  const results: Result[] = [];
  const stop = (signal: NodeJS.Signals) => {
    for (const child of running) child.kill(signal);
    printTable(results, performance.now() - started);
    process.exit(130);
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));

  for (const step of plan) {
    if (!keepGoing && results.some((r) => r.outcome === 'failed')) {
      results.push(...step.flat().map((stage) => ({ stage, outcome: 'not run' as const, ms: 0 })));
      continue;
    }
    const lanes = await Promise.all(step.map((lane) => runLane(lane, step.length > 1)));
    results.push(...lanes.flat());
  }
  printTable(results, performance.now() - started);
  const failed = results.filter((r) => r.outcome === 'failed').map((r) => r.stage.name);
  if (failed.length > 0) console.error(`\nfailed: ${failed.join(', ')}`);
  return failed.length > 0 ? 1 : 0;
}

process.exitCode = await main();
