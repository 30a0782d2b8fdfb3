import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HookedServer, startServer } from './harness';
import { depositDirectly } from './ledger-seed';
import { beginLeverPath, endLeverPath, type LeverRun, leverDrivers, leverShows } from './machine-paths/lever-order';
import {
  beginOptionPath,
  endOptionPath,
  type OptionRun,
  optionDrivers,
  optionShows,
} from './machine-paths/option-contract';
import { type MachinePath, pathsOf, type Step } from './machine-paths/plan';
import { closeSession, openSession, picture, type Session } from './machine-paths/session';

/**
 * Model-based tests through the real UI (issue 15): every shortest path of the option contract and lever order
 * machines' `shortest` walks (machines/<product>/*.model.ts, listed for QA in docs/machines/<id>.paths.json) drives the
 * real app in Chromium against the real server, one test per path, generated from the machine. At every step the
 * page must show the step's state: the machine's drawing ("show order flow") marks exactly its states, and the
 * status the user reads says the same. Time is moved, never waited for: the server's clock through its job clock
 * hook (CLOCK_HOOK=1), the page's through Playwright's clock, in lockstep; the market ticks, stands still or takes
 * one step when a path says so.
 *
 * One server for the file; per machine one logged-in browser context, and a fresh page for each path.
 */

interface MachineUnderTest<Run> {
  id: string;
  email: string;
  lang: 'de' | 'en';
  theme: 'dark' | 'light';
  /** Test set-up, not a product path: money in the real account for the paths that must use it. */
  fund: { to: 'option' | 'contract' };
  begin(session: Session, path: MachinePath): Promise<Run>;
  drivers: Record<string, (run: Run, step: Step) => Promise<void>>;
  shows(run: Run, step: Step): Promise<void>;
  /** The page the step's picture is taken of. */
  pageOf(run: Run): import('playwright-core').Page | undefined;
  end(run: Run): Promise<void>;
}

const optionContract: MachineUnderTest<OptionRun> = {
  id: 'option-contract',
  email: 'paths-options@example.com',
  lang: 'en',
  theme: 'dark',
  fund: { to: 'option' },
  begin: beginOptionPath,
  drivers: optionDrivers,
  shows: optionShows,
  pageOf: (run) => run.followed[0]?.page,
  end: endOptionPath,
};

const leverOrder: MachineUnderTest<LeverRun> = {
  id: 'lever-order',
  email: 'paths-lever@example.com',
  lang: 'de',
  theme: 'light',
  fund: { to: 'contract' },
  begin: beginLeverPath,
  drivers: leverDrivers,
  shows: leverShows,
  pageOf: (run) => run.page,
  end: endLeverPath,
};

let server: HookedServer;

beforeAll(async () => {
  server = await startServer({ clockHook: true });
});

afterAll(async () => {
  await server?.stop();
});

it("dates the server's answers by the hook's clock, which a page reads as server time", async () => {
  const moved = await server.advanceClock(120_000, { market: 'held' });
  const res = await fetch(`${server.url}/api/get/lang`, { method: 'POST' });
  const dated = Date.parse(res.headers.get('date') ?? '');
  // Whole seconds, taken a moment after the answer; the real clock is two minutes behind.
  expect(Math.abs(dated - moved.now)).toBeLessThan(10_000);
  expect(dated - Date.now()).toBeGreaterThan(100_000);
});

function describeMachine<Run>(machine: MachineUnderTest<Run>): void {
  describe(`${machine.id}: every shortest path through the app`, () => {
    let session: Session | undefined;
    beforeAll(async () => {
      session = await openSession(server, machine);
      await depositDirectly(server, {
        userId: session.user.user.id,
        requestId: `e2e-paths-${machine.id}`,
        currency: 'USDT',
        amount: '100',
        to: machine.fund.to,
      });
    });
    afterAll(async () => {
      await closeSession(session);
    });

    for (const path of pathsOf(machine.id, 'shortest')) {
      it(path.title, async () => {
        const s = session as Session;
        const run = await machine.begin(s, path);
        try {
          for (const [k, step] of path.steps.entries()) {
            const drive = machine.drivers[step.event];
            if (!drive) throw new Error(`no driver for ${step.event}`);
            await drive(run, step);
            await machine.shows(run, step);
            const page = machine.pageOf(run);
            if (page) await picture(page, `${machine.id}-${path.reaches}-${k}-${step.event}`);
          }
        } catch (err) {
          // What the page showed when the path failed, for the report.
          const page = machine.pageOf(run);
          if (page) await picture(page, `${machine.id}-${path.reaches}-failed`).catch(() => {});
          throw err;
        } finally {
          await machine.end(run);
        }
      });
    }
  });
}

describeMachine(optionContract);
describeMachine(leverOrder);
