import type { ReactElement } from 'react';
import { useSnapshot } from 'valtio';
import { dismissToast, toasts } from '../state/toasts';

/** Short stacked messages, announced politely to screen readers. */
export function Toasts(): ReactElement {
  const snap = useSnapshot(toasts);
  return (
    <div className="toasts" role="status" aria-live="polite" aria-atomic="false">
      {snap.items.map((t) => (
        <button
          type="button"
          key={t.id}
          className={`toast toast-${t.kind}`}
          onClick={() => dismissToast(t.id)}
          data-testid="toast"
        >
          {t.text}
        </button>
      ))}
    </div>
  );
}
