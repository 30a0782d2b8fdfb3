import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { BehaviorSubject, EMPTY, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OptionLive } from '../../../../machines/options/live';
import type { OptionAccount } from '../../../../protocol/options';
import { useOptionLive } from './useOptionLive';

/**
 * The page's side of the live option book: the hook starts a controller for the book shown, a new one when the page
 * switches books (the old one stopped, and never handed to the page again), and stops it when the page leaves.
 */

vi.mock('../../../../streams/options/contracts', () => ({
  optionContracts: () => ({ open$: new BehaviorSubject([]), changes$: new Subject() }),
}));
vi.mock('../../../../streams/market', () => ({
  coinQuotes: () => ({ freshness: { stale$: new BehaviorSubject(false) } }),
}));
vi.mock('../../../../streams/socket', () => ({ realtime: () => ({ reconnected$: EMPTY }) }));

function Page({ book, seen }: { book: OptionAccount; seen: (live: OptionLive | null) => void }) {
  seen(useOptionLive(book));
  return null;
}

describe('useOptionLive', () => {
  afterEach(cleanup);

  it("runs one controller per book shown, stops the old book's on a switch, and stops it when the page leaves", async () => {
    const seen: (OptionLive | null)[] = [];
    const client = new QueryClient();
    const page = (book: OptionAccount) => (
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
    const simulator = seen.at(-1);
    expect(real?.actor.getSnapshot().status).toBe('stopped');
    // From the switch on, the page is never handed the real book's controller (stopped by then) again.
    expect(seen.slice(switched)).not.toContain(real);
    view.unmount();
    expect(simulator?.actor.getSnapshot().status).toBe('stopped');
  });
});
