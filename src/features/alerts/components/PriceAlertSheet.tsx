import { lazy, type ReactElement, Suspense } from 'react';
import { loadNamespace } from '../../../lib/i18n';
import './bell.css';

/** The sheet with its strings, loaded when first asked for. */
const AlertSheet = lazy(() =>
  Promise.all([import('./AlertSheet'), loadNamespace('alerts')]).then(([m]) => ({ default: m.AlertSheet })),
);

/**
 * The sheet that sets a price alert on `symbol`, for a page that opens it itself (the market list, for a row held):
 * it brings its own strings, so the page borrows nothing.
 */
export function PriceAlertSheet({ symbol, onClose }: { symbol: string; onClose: () => void }): ReactElement {
  return (
    <Suspense fallback={null}>
      <AlertSheet symbol={symbol} onClose={onClose} />
    </Suspense>
  );
}
