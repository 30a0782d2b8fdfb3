import { type ComponentType, createElement, type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { Spinner } from '../components/Controls';
import { Icon } from '../components/Icon';
import { NavBar } from './NavBar';

/** SPEC 2, 8, 9: the loading view waits 200 ms; loading and error views time out after 60 s; a chunk gets 120 s. */
export const LOADING_DELAY_MS = 200;
export const LOADING_TIMEOUT_MS = 60_000;
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/** Resolves with the module, or rejects with a ChunkLoadError when the import fails or takes longer than `timeoutMs`. */
export function loadChunk<T>(importer: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`chunk not loaded within ${timeoutMs} ms`)), timeoutMs);
    importer().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(err instanceof Error ? err.message : String(err)));
      },
    );
  });
}

type Phase = 'waiting' | 'loading' | 'slow' | 'failed' | 'ready';

/** One lazily loaded page module: loads once, forgets a failed attempt so Retry can load again. */
interface PageChunk {
  load: () => Promise<ComponentType>;
  loaded: () => ComponentType | null;
}

function pageChunk(importer: () => Promise<{ default: ComponentType }>): PageChunk {
  let loaded: ComponentType | null = null;
  let pending: Promise<ComponentType> | null = null;
  return {
    loaded: () => loaded,
    load: () => {
      pending ??= loadChunk(importer).then(
        (m) => {
          loaded = m.default;
          return m.default;
        },
        (err: unknown) => {
          pending = null;
          throw err;
        },
      );
      return pending;
    },
  };
}

/** Shows the page once its chunk is there, with the SPEC timings for the loading and error views. */
function LazyLoader({ chunk }: { chunk: PageChunk }): ReactElement | null {
  const [phase, setPhase] = useState<Phase>(chunk.loaded() ? 'ready' : 'waiting');
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts loading on Retry
  useEffect(() => {
    if (chunk.loaded()) return;
    let alive = true;
    const showLoading = setTimeout(() => alive && setPhase((p) => (p === 'waiting' ? 'loading' : p)), LOADING_DELAY_MS);
    const tooSlow = setTimeout(() => alive && setPhase((p) => (p === 'ready' ? p : 'slow')), LOADING_TIMEOUT_MS);
    chunk.load().then(
      () => alive && setPhase('ready'),
      (err: unknown) => {
        console.warn('page failed to load', err);
        if (alive) setPhase('failed');
      },
    );
    return () => {
      alive = false;
      clearTimeout(showLoading);
      clearTimeout(tooSlow);
    };
  }, [chunk, attempt]);

  const Page = chunk.loaded();
  if (phase === 'ready' && Page) return <Page />;
  if (phase === 'waiting') return null;
  if (phase === 'loading') return <LoadingView />;
  return (
    <PageError
      kind={phase === 'slow' ? 'slow' : 'chunk'}
      onRetry={() => {
        setPhase('waiting');
        setAttempt((a) => a + 1);
      }}
    />
  );
}

/** Deliberately no `preload` property: the router would then wait for the chunk itself, outside these timings. */
export type LazyPage = () => ReactElement | null;

type PageImporter = () => Promise<{ default: ComponentType }>;

/** One chunk per importer: the route's component and `preloadPage` share it, so a preloaded page renders at once. */
const chunks = new WeakMap<PageImporter, PageChunk>();
function chunkOf(importer: PageImporter): PageChunk {
  let chunk = chunks.get(importer);
  if (!chunk) {
    chunk = pageChunk(importer);
    chunks.set(importer, chunk);
  }
  return chunk;
}

/** A route component that loads its page module on first render (SPEC 2, 8, 9). */
export function lazyPage(importer: PageImporter): LazyPage {
  const chunk = chunkOf(importer);
  return () => createElement(LazyLoader, { chunk });
}

/**
 * Loads a page's module before its route renders (the first page, beside the shell's tables): its route's component
 * then draws the page on its first render instead of an empty frame. Rejects as the route's own load would.
 */
export function preloadPage(importer: PageImporter): Promise<ComponentType> {
  return chunkOf(importer).load();
}

function LoadingView(): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="page">
      <NavBar title="" />
      <div className="page-center">
        <Spinner label={t('common.loading')} />
      </div>
    </div>
  );
}

function PageError({ kind, onRetry }: { kind: 'slow' | 'chunk'; onRetry: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="page">
      <NavBar title="" />
      <div className="page-center state-view" role="alert">
        <span className="state-icon">
          <Icon name="alert" size={28} />
        </span>
        <h1 className="state-title">{kind === 'slow' ? t('lazy.slowTitle') : t('lazy.chunkTitle')}</h1>
        <p className="state-text">{kind === 'slow' ? t('lazy.slowText') : t('lazy.chunkText')}</p>
        <Button onClick={onRetry}>{t('common.retry')}</Button>
      </div>
    </div>
  );
}
