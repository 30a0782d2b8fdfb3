import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { BehaviorSubject, EMPTY, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SpotLive } from '../../../../machines/spot/live';
import { useSpotLive } from './useSpotLive';

/**
 * The page's side of the live spot book: the hook starts the controller when the page mounts and stops it, with every
 * order machine, when the page leaves. Subjects stand for the app's streams.
 */

vi.mock('../../../../streams/spot/orders', () => ({
  spotOrders: () => ({ open$: new BehaviorSubject([]), changes$: new Subject() }),
}));
vi.mock('../../../../streams/market', () => ({
  coinQuotes: () => ({ freshness: { stale$: new BehaviorSubject(false) } }),
}));
vi.mock('../../../../streams/socket', () => ({ realtime: () => ({ reconnected$: EMPTY }) }));

function Page({ seen }: { seen: (live: SpotLive | null) => void }) {
  seen(useSpotLive());
  return null;
}

describe('useSpotLive', () => {
  afterEach(cleanup);

  it('starts the book when the page mounts and stops it, ticket included, when the page leaves', async () => {
    const seen: (SpotLive | null)[] = [];
    const page = render(
      <QueryClientProvider client={new QueryClient()}>
        <Page seen={(live) => seen.push(live)} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(seen.at(-1)).not.toBeNull());
    const live = seen.at(-1);
    if (!live) throw new Error('no controller');
    expect(live.actor.getSnapshot().status).toBe('active');
    const ticket = live.actor.getSnapshot().context.ticket;
    page.unmount();
    expect(live.actor.getSnapshot().status).toBe('stopped');
    expect(ticket.getSnapshot().status).toBe('stopped');
  });
});
