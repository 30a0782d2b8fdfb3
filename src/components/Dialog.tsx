import { type ReactElement, type ReactNode, useEffect, useId, useRef } from 'react';
import { keepFocusInside } from './modalFocus';

/** A modal dialog: focus moves in and Tab keeps it there, Escape and the backdrop close it, focus goes back after. */
export function Dialog({
  open,
  title,
  children,
  actions,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  actions: ReactNode;
  onClose: () => void;
}): ReactElement | null {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // The newest onClose, read when a key comes: callers pass a new function on every render (a page with live prices
  // renders many times a second), and opening again on each one took focus back to the dialog while the user typed.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close.current();
      else if (ref.current) keepFocusInside(ref.current, e);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      before?.focus();
    };
  }, [open]);
  if (!open) return null;
  return (
    <div className="dialog-layer">
      <button type="button" className="dialog-backdrop" aria-hidden="true" tabIndex={-1} onClick={onClose} />
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={ref}>
        <h2 className="dialog-title" id={titleId}>
          {title}
        </h2>
        {children ? <div className="dialog-body">{children}</div> : null}
        <div className="dialog-actions">{actions}</div>
      </div>
    </div>
  );
}
