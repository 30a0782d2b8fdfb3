import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runIeoCommand, runIeoSteps, withIeo } from '../../server/domains/ieo';
import { Ledger } from '../../server/ledger/ledger';
import { browserPerTest, type InProcessServer, shot, startServerInProcess } from './harness';
import { depositDirectly, withServerDatabase } from './ledger-seed';
import { loggedInUser } from './users';

/**
 * IEO in a real Chromium at 375x812 against the real server: a user subscribes to a project in its window, the
 * project's steps run at their times (the job itself, run at each time on the server's database: no result is faked)
 * and the order page follows them live: allotted, paid, listed with the coins locked, then unlocked and spendable.
 */
let server: InProcessServer;
let page: Page;

const MINUTE = 60_000;

interface Project {
  id: number;
  allot_at: number;
  pay_until: number;
  list_at: number;
  unlock_at: number;
}

/** The operator's `ieo create`, run on the server's database; returns the project's times. */
async function createProject(coin: string): Promise<Project> {
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  return withServerDatabase(server, async (handle) => {
    const lines: string[] = [];
    const code = await runIeoCommand(
      [
        'create',
        `coin=${coin}`,
        `name=${coin} Token`,
        'price=0.05',
        'listing=0.08',
        'supply=1000000',
        'cap=5000',
        'total=100000000',
        'circulating=20000000',
        `start=${iso(now - 1_000)}`,
        `end=${iso(now + 10 * MINUTE)}`,
        `allot=${iso(now + 10 * MINUTE)}`,
        `pay=${iso(now + 20 * MINUTE)}`,
        `list=${iso(now + 20 * MINUTE)}`,
        `unlock=${iso(now + 24 * 60 * MINUTE)}`,
        'desc=A browser test project.',
      ],
      handle.db,
      (l) => lines.push(l),
    );
    if (code !== 0) throw new Error(lines.join('\n'));
    return withIeo(handle.db)
      .selectFrom('ieo_projects')
      .select(['id', 'allot_at', 'pay_until', 'list_at', 'unlock_at'])
      .where('coin', '=', coin)
      .executeTakeFirstOrThrow();
  });
}

/** The IEO job, run at `at` (the test's way to reach a project's step time without waiting for it). */
const stepsAt = (at: number) =>
  withServerDatabase(server, (handle) =>
    runIeoSteps({ database: handle, ledger: new Ledger(handle), now: () => at }, { at }),
  );

describe('ieo in the browser', () => {
  browserPerTest(
    () => startServerInProcess(),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('subscribes, gets an allotment, pays, sees the coins locked at listing and then unlocked', async () => {
    const project = await createProject('WEBT');
    const session = await loggedInUser(server, page, 'ieo-buyer@example.com');
    await depositDirectly(server, {
      userId: session.user.id,
      requestId: 'e2e-ieo',
      currency: 'USDT',
      amount: '100',
      to: 'coin',
    });

    await page.goto(`${server.url}/pages/publication/index`);
    const card = page.getByTestId(`ieo-project-${project.id}`);
    await card.waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('WEBT');
    await shot(page, 'ieo-list-dark-en');
    await card.click();
    await page.getByTestId('ieo-subscribe').click();

    await page.getByTestId('ieo-quantity').fill('1000');
    await expect.poll(() => page.getByTestId('ieo-cost').textContent(), { timeout: 15_000 }).toContain('50');
    await shot(page, 'ieo-purchase-dark-en');
    await page.getByTestId('ieo-submit').click();
    await page.waitForURL(/assets\/ieo\/orderDetail/, { timeout: 15_000 });
    const status = page.getByTestId('ieo-ipo-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^1/);

    // The allotment time comes: everything asked is allotted (demand within supply), live on the page.
    await stepsAt(project.allot_at);
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^3/);
    expect(await page.getByTestId('ieo-payment').textContent()).toContain('50');
    await shot(page, 'ieo-allotted-dark-en');
    await page.getByTestId('ieo-pay-submit').click();
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^4/);

    // Listing: the payment is posted, the coins credited and locked.
    await stepsAt(project.list_at);
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^5/);
    await shot(page, 'ieo-locked-dark-en');
    const coin = async () =>
      (await withServerDatabase(server, async (handle) => new Ledger(handle).balances(session.user.id, 'real'))).find(
        (b) => b.currency === 'WEBT' && b.type === 'coin',
      );
    expect(await coin()).toMatchObject({ balance: 100_000_000_000, held: 100_000_000_000 });

    // Unlock: spendable.
    await stepsAt(project.unlock_at);
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^6/);
    expect(await coin()).toMatchObject({ balance: 100_000_000_000, held: 0, available: 100_000_000_000 });
    // The Assets tab leads to the subscriptions.
    await page.goto(`${server.url}/pages/assets/index`);
    await page.getByTestId('assets-ieo').click();
    await page.waitForURL(/assets\/ieo\/index/, { timeout: 15_000 });
    await page.goto(`${server.url}/pages/assets/ieo/orderList`);
    await expect.poll(() => page.getByTestId('ieo-orders').textContent(), { timeout: 15_000 }).toContain('WEBT');
    await shot(page, 'ieo-orders-dark-en');
  });

  it('reads naturally in German in the light theme', async () => {
    const project = await createProject('WEBD');
    await loggedInUser(server, page, 'ieo-de@example.com', { lang: 'de', theme: 'light' });
    await page.goto(`${server.url}/pages/publication/details?id=${project.id}`);
    await page.getByTestId('ieo-rule').waitFor({ timeout: 15_000 });
    await shot(page, 'ieo-details-light-de');
    await page.goto(`${server.url}/pages/publication/index`);
    await page.getByTestId(`ieo-project-${project.id}`).waitFor({ timeout: 15_000 });
    await shot(page, 'ieo-list-light-de');
  });
});
