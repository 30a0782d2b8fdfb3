import { lazy, type ReactElement, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './bell.css';

/** The sheet loads on the first tap: a list of twenty bells carries none of it. */
const AlertSheet = lazy(() => import('./AlertSheet').then((m) => ({ default: m.AlertSheet })));

/** A bell (drawn here: it is the alerts feature's own mark, not one of the shell's icons). */
export function BellGlyph({ size = 18 }: { size?: number }): ReactElement {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M6 16V11a6 6 0 0112 0v5l1.5 2h-15L6 16zM10 20.5a2 2 0 004 0" />
    </svg>
  );
}

/** The bell button and, once tapped, its sheet for `symbol`. */
export function AlertBell({ symbol }: { symbol: string }): ReactElement {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="icon-btn alert-bell"
        aria-label={t('alerts.bell', { symbol })}
        aria-haspopup="dialog"
        data-testid={`alert-bell-${symbol}`}
        onClick={() => setOpen(true)}
      >
        <BellGlyph />
      </button>
      {open ? (
        <Suspense fallback={null}>
          <AlertSheet symbol={symbol} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
