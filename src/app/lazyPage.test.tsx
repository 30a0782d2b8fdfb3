import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../lib/i18n';
import {
  CHUNK_TIMEOUT_MS,
  ChunkLoadError,
  LOADING_DELAY_MS,
  LOADING_TIMEOUT_MS,
  lazyPage,
  loadChunk,
} from './lazyPage';

vi.mock('./NavBar', () => ({ NavBar: () => null }));

const Hello: ComponentType = () => <p>hello page</p>;

function deferred<T>() {
  let resolve: (v: T) => void = () => {};
  let reject: (e: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

beforeAll(async () => {
  await startI18n('en');
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('loadChunk', () => {
  it('wraps an import failure in a ChunkLoadError', async () => {
    await expect(loadChunk(() => Promise.reject(new Error('404')))).rejects.toBeInstanceOf(ChunkLoadError);
  });

  it('fails with a ChunkLoadError after 120 s', async () => {
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    const never = new Promise<never>(() => {});
    const p = loadChunk(() => never);
    const seen = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await seen).toBeInstanceOf(ChunkLoadError);
  });
});

describe('lazy page', () => {
  it('shows nothing for 200 ms, then the loading view, then the page', async () => {
    const chunk = deferred<{ default: ComponentType }>();
    const Page = lazyPage(() => chunk.promise);
    render(<Page />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LOADING_DELAY_MS - 1);
    });
    expect(screen.queryByRole('status')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    await act(async () => {
      chunk.resolve({ default: Hello });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('hello page')).toBeTruthy();
  });

  it('never shows the loading view when the chunk is quick', async () => {
    const Page = lazyPage(async () => ({ default: Hello }));
    render(<Page />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(screen.getByText('hello page')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('switches to the timeout view after 60 s, and still shows the page if it arrives later', async () => {
    const chunk = deferred<{ default: ComponentType }>();
    const Page = lazyPage(() => chunk.promise);
    render(<Page />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LOADING_TIMEOUT_MS);
    });
    expect(screen.getByRole('alert').textContent).toContain('This is taking longer than usual');
    await act(async () => {
      chunk.resolve({ default: Hello });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('hello page')).toBeTruthy();
  });

  it('shows the chunk-load error with Retry, and Retry loads again', async () => {
    let attempts = 0;
    const Page = lazyPage(() => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('network')) : Promise.resolve({ default: Hello });
    });
    render(<Page />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('alert').textContent).toContain('The page could not be loaded');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(attempts).toBe(2);
    expect(screen.getByText('hello page')).toBeTruthy();
  });

  it('shows the chunk-load error when the import takes over 120 s', async () => {
    const Page = lazyPage(() => new Promise<never>(() => {}));
    render(<Page />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS);
    });
    expect(screen.getByRole('alert').textContent).toContain('The page could not be loaded');
  });
});
