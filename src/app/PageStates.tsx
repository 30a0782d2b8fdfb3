import { ErrorComponent, type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { Spinner } from '../components/Controls';
import { Icon } from '../components/Icon';
import { NavBar } from '../components/NavBar';
import { ChunkLoadError, LOADING_DELAY_MS, LOADING_TIMEOUT_MS } from './pageChunk';

/**
 * The router's pending view of a page (it appears LOADING_DELAY_MS after the navigation began). The router has no
 * limit on how long it stays: at LOADING_TIMEOUT_MS it turns into the timeout view, and the page still replaces it
 * when it arrives.
 */
export function PagePending(): ReactElement {
  const { t } = useTranslation();
  const [slow, setSlow] = useState(false);
  const [wait, setWait] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `wait` starts a new wait on Retry
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), LOADING_TIMEOUT_MS - LOADING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wait]);
  if (slow) {
    return (
      <PageProblem
        title={t('lazy.slowTitle')}
        text={t('lazy.slowText')}
        onRetry={() => {
          setSlow(false);
          setWait((w) => w + 1);
        }}
      />
    );
  }
  return (
    <div className="page">
      <NavBar title="" />
      <div className="page-center">
        <Spinner label={t('common.loading')} />
      </div>
    </div>
  );
}

/**
 * The router's error view of a page: a module (or its strings) that could not be loaded gets the chunk-load view, whose
 * Retry loads the route again; any other error keeps the router's own view.
 */
export function PageLoadError(props: ErrorComponentProps): ReactElement {
  return props.error instanceof ChunkLoadError ? <ChunkFailed error={props.error} /> : <ErrorComponent {...props} />;
}

function ChunkFailed({ error }: { error: ChunkLoadError }): ReactElement {
  const { t } = useTranslation();
  const router = useRouter();
  useEffect(() => console.warn('page failed to load', error), [error]);
  return (
    <PageProblem title={t('lazy.chunkTitle')} text={t('lazy.chunkText')} onRetry={() => void router.invalidate()} />
  );
}

function PageProblem({ title, text, onRetry }: { title: string; text: string; onRetry: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="page">
      <NavBar title="" />
      <div className="page-center state-view" role="alert">
        <span className="state-icon">
          <Icon name="alert" size={28} />
        </span>
        <h1 className="state-title">{title}</h1>
        <p className="state-text">{text}</p>
        <Button onClick={onRetry}>{t('common.retry')}</Button>
      </div>
    </div>
  );
}
