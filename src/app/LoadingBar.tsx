import { type ReactElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { loading } from '../state/loading';

/** Shown after a short delay so quick calls do not flicker. */
const SHOW_AFTER_MS = 250;

/** The global loading indicator of API calls (SPEC 7): a thin bar at the top of the frame. */
export function LoadingBar(): ReactElement | null {
  const { t } = useTranslation();
  const { pending } = useSnapshot(loading);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (pending === 0) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  if (!shown) return null;
  return (
    <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} data-testid="loading">
      <span className="loading-bar-fill" />
    </div>
  );
}
