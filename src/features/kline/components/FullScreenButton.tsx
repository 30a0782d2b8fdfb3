import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/** Full screen on and off (an outline of a screen's corners, inward to leave; the label says which). */
export function FullScreenButton({ on, toggle }: { on: boolean; toggle: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <button type="button" className="chart-tool" onClick={toggle} data-testid="fullscreen">
      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" className="chart-tool-icon">
        <path d={on ? 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5' : 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5'} />
      </svg>
      {on ? t('kline.exitFullScreen') : t('kline.fullScreen')}
    </button>
  );
}
