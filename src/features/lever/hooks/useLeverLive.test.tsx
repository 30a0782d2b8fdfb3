import { cleanup, waitFor } from '@testing-library/react';
import { BehaviorSubject, EMPTY, NEVER, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PositionsClient } from '../../../../workers/lever/positions';
import { showLivePage } from '../../../test-support/live-page';
import { useLeverLive } from './useLeverLive';

/**
 * The page's side of the live lever book: the hook starts a controller (book machine and positions worker) for the
 * book shown, stops the old one on a switch without handing it to the page again, and stops the current one, worker
 * included, when the page leaves. Subjects stand for the streams, an in-thread worker for the worker.
 */

const workers = vi.hoisted(() => ({ disposed: 0 }));

vi.mock('../../../../streams/lever/positions', async (actual) => ({
  ...(await actual<typeof import('../../../../streams/lever/positions')>()),
  leverPositions: () => ({ open$: new BehaviorSubject([]), changes$: new Subject() }),
  leverMarks: () => NEVER,
}));
vi.mock('../../../../streams/market', () => ({
  coinQuotes: () => ({ freshness: { stale$: new BehaviorSubject(false) } }),
}));
vi.mock('../../../../streams/socket', () => ({ realtime: () => ({ reconnected$: EMPTY }) }));
// The deal never answers here: the book runs without it, as it does until the first answer comes.
vi.mock('./useLeverDeal', () => ({
  leverDealQuery: (book: string) => ({ queryKey: ['lever-deal-test', book], queryFn: () => new Promise(() => {}) }),
}));
vi.mock('../../../../workers/lever/positions', async (actual) => {
  const real = await actual<typeof import('../../../../workers/lever/positions')>();
  return {
    ...real,
    createPositionsWorker: (): PositionsClient => {
      const worker = real.createInThreadPositions();
      return {
        ...worker,
        dispose: () => {
          workers.disposed += 1;
          worker.dispose();
        },
      };
    },
  };
});

describe('useLeverLive', () => {
  afterEach(cleanup);

  it('runs one controller per book shown and stops it, worker included, on a switch and when the page leaves', async () => {
    // Loaded once before the page asks for it twice at a time (two books), so both asks get the test's worker.
    await import('../../../../workers/lever/positions');
    const page = await showLivePage(useLeverLive, 'real');
    expect(page.first.actor.getSnapshot().status).toBe('active');
    // switchTo asserts that the real book's controller is stopped by then and never handed to the page again.
    const simulator = await page.switchTo('simulator');
    expect(simulator.actor.getSnapshot().status).toBe('active');
    page.leave();
    expect(simulator.actor.getSnapshot().status).toBe('stopped');
    // Each controller's worker (it comes up through a promise) is let go of once its book stops.
    await waitFor(() => expect(workers.disposed).toBe(2), { timeout: 10_000 });
  });
});
