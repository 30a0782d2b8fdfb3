import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../data/query';
import { i18n, startI18n } from '../lib/i18n';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, LOADING_DELAY_MS, LOADING_TIMEOUT_MS, loadChunk } from './pageChunk';
import type { PageDef } from './pages';
import { createAppRouter } from './router';

type PageModule = { default: ComponentType };
const Hello: ComponentType = () => <p>hello page</p>;
const PATH = '/pages/test/page';

function deferred<T>() {
  let resolve: (v: T) => void = () => {};
  let reject: (e: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The app's router (its pending and error views, timings and chunk loading) with one page whose module is `load`. */
async function openPage(load: () => Promise<PageModule>) {
  const page: PageDef = { path: PATH, feature: 'market', load, auth: false };
  const router = createAppRouter(createMemoryHistory({ initialEntries: [PATH] }), [page]);
  await act(async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </QueryClientProvider>,
    );
  });
  return router;
}

/** The page's loading view: a spinner announced as Loading… (the shell has live regions of its own). */
const loadingView = () => screen.queryByText('Loading…')?.closest('[role="status"]') ?? null;

const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

beforeAll(async () => {
  await startI18n('en');
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  // React reports the error a route's boundary caught.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('loadChunk', () => {
  it('wraps an import failure in a ChunkLoadError that keeps its message', async () => {
    const failed = loadChunk(() => Promise.reject(new Error('Failed to fetch dynamically imported module: x.js')));
    await expect(failed).rejects.toBeInstanceOf(ChunkLoadError);
    await expect(failed).rejects.toThrow('Failed to fetch dynamically imported module: x.js');
  });

  it('fails with a ChunkLoadError after 120 s', async () => {
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    const never = new Promise<never>(() => {});
    const p = loadChunk(() => never);
    let seen: unknown = null;
    p.catch((e: unknown) => {
      seen = e;
    });
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(seen).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toBeInstanceOf(ChunkLoadError);
  });
});

describe('a lazily loaded page (the router’s pending and error views)', () => {
  it('shows nothing for 200 ms, then the loading view, then the page', async () => {
    expect(LOADING_DELAY_MS).toBe(200);
    const chunk = deferred<PageModule>();
    await openPage(() => chunk.promise);
    await advance(LOADING_DELAY_MS - 1);
    expect(loadingView()).toBeNull();
    await advance(1);
    expect(loadingView()?.textContent).toBe('Loading…');
    await act(async () => {
      chunk.resolve({ default: Hello });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('hello page')).toBeTruthy();
    expect(loadingView()).toBeNull();
  });

  it('never shows the loading view when the chunk is quick', async () => {
    await openPage(async () => ({ default: Hello }));
    await advance(10);
    expect(screen.getByText('hello page')).toBeTruthy();
    expect(loadingView()).toBeNull();
  });

  it('switches to the timeout view after 60 s, and still shows the page if it arrives later', async () => {
    expect(LOADING_TIMEOUT_MS).toBe(60_000);
    const chunk = deferred<PageModule>();
    await openPage(() => chunk.promise);
    await advance(LOADING_TIMEOUT_MS - 1);
    expect(screen.queryByRole('alert')).toBeNull();
    await advance(1);
    expect(screen.getByRole('alert').textContent).toContain('This is taking longer than usual');
    await act(async () => {
      chunk.resolve({ default: Hello });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('hello page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the chunk-load error with Retry, and Retry loads again', async () => {
    let attempts = 0;
    await openPage(() => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('network')) : Promise.resolve({ default: Hello });
    });
    await advance(0);
    expect(screen.getByRole('alert').textContent).toContain('The page could not be loaded');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(attempts).toBe(2);
    expect(screen.getByText('hello page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the chunk-load error when the import takes over 120 s', async () => {
    await openPage(() => new Promise<never>(() => {}));
    await advance(CHUNK_TIMEOUT_MS);
    expect(screen.getByRole('alert').textContent).toContain('The page could not be loaded');
  });
});
