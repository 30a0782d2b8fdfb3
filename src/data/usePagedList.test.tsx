import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from './query';
import { type Paged, usePagedList } from './usePagedList';

/** A server of ids 1..n, newest (highest) first, two per page. */
function pages(n: () => number, fail: { next: boolean }) {
  const calls: (number | null)[] = [];
  const fetchPage = async (beforeId: number | null): Promise<Paged<number> | false> => {
    calls.push(beforeId);
    if (fail.next) {
      fail.next = false;
      return false;
    }
    const top = beforeId === null ? n() : beforeId - 1;
    const items = [top, top - 1].filter((x) => x > 0);
    const last = items.at(-1);
    return { items, next_before_id: last !== undefined && last > 1 ? last : null };
  };
  return { fetchPage, calls };
}

function setup(total: { n: number }, fail = { next: false }) {
  const client = createQueryClient();
  const server = pages(() => total.n, fail);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => usePagedList(['test', 'list'], server.fetchPage), { wrapper });
  return { ...hook, server, client };
}

afterEach(() => cleanup());

describe('usePagedList', () => {
  it('loads the newest page, then older ones by cursor', async () => {
    const { result, server } = setup({ n: 5 });
    expect(result.current.state).toBe('loading');
    await waitFor(() => expect(result.current.state).toBe('ready'));
    expect(result.current.items).toEqual([5, 4]);
    expect(result.current.hasMore).toBe(true);
    // Each page is waited for on screen before the next is asked for (a busy machine renders late).
    await act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toEqual([5, 4, 3, 2]));
    await act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toEqual([5, 4, 3, 2, 1]));
    expect(result.current.hasMore).toBe(false);
    expect(server.calls).toEqual([null, 4, 2]);
  });

  it('refreshes from the newest page only, as the first load did', async () => {
    const total = { n: 5 };
    const { result, server } = setup(total);
    await waitFor(() => expect(result.current.state).toBe('ready'));
    await act(() => result.current.loadMore());
    total.n = 7;
    await act(() => result.current.reload());
    await waitFor(() => expect(result.current.items).toEqual([7, 6]));
    expect(server.calls).toEqual([null, 4, null]);
  });

  it('shows an error only when there is nothing to show, and keeps the list when a refresh fails', async () => {
    const fail = { next: true };
    const { result, server } = setup({ n: 3 }, fail);
    await waitFor(() => expect(result.current.state).toBe('error'));
    await act(() => result.current.reload());
    await waitFor(() => expect(result.current.state).toBe('ready'));
    expect(result.current.items).toEqual([3, 2]);
    fail.next = true;
    await act(() => result.current.reload());
    await waitFor(() => expect(server.calls).toHaveLength(3));
    expect(result.current.state).toBe('ready');
    expect(result.current.items).toEqual([3, 2]);
  });
});
