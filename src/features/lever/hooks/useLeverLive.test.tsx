import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { BehaviorSubject, EMPTY, NEVER, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeverLive } from '../../../../machines/lever/live';
import type { LeverAccount } from '../../../../protocol/lever';
import type { PositionsClient } from '../../../../workers/lever/positions';
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

function Page({ book, seen }: { book: LeverAccount; seen: (live: LeverLive | null) => void }) {
  seen(useLeverLive(book));
  return null;
}

describe('useLeverLive', () => {
  afterEach(cleanup);

  it('runs one controller per book shown and stops it, worker included, on a switch and when the page leaves', async () => {
    // Loaded once before the page asks for it twice at a time (two books), so both asks get the test's worker.
    await import('../../../../workers/lever/positions');
    const seen: (LeverLive | null)[] = [];
    const client = new QueryClient();
    const page = (book: LeverAccount) => (
      <QueryClientProvider client={client}>
        <Page book={book} seen={(live) => seen.push(live)} />
      </QueryClientProvider>
    );
    const view = render(page('real'));
    await waitFor(() => expect(seen.at(-1)?.book).toBe('real'));
    const real = seen.at(-1);
    const switched = seen.length;
    view.rerender(page('simulator'));
    await waitFor(() => expect(seen.at(-1)?.book).toBe('simulator'));
    expect(real?.actor.getSnapshot().status).toBe('stopped');
    expect(seen.slice(switched)).not.toContain(real);
    const simulator = seen.at(-1);
    view.unmount();
    expect(simulator?.actor.getSnapshot().status).toBe('stopped');
    // Each controller's worker (it comes up through a promise) is let go of once its book stops.
    await waitFor(() => expect(workers.disposed).toBe(2), { timeout: 10_000 });
  });
});
