/** What Tab can reach: links, enabled form controls and anything with a non-negative tabindex. */
const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable="true"]',
].join(',');

/** Whether the browser draws it (a visually hidden input is drawn, clipped; a `display: none` one is not). */
const drawn = (el: HTMLElement): boolean =>
  typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true }) : true;

/** The elements Tab reaches inside `root`, in document order (the app uses no positive tabindex). */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => !el.closest('[inert]') && drawn(el));
}

/**
 * Keeps Tab and Shift+Tab inside a modal (the WAI-ARIA modal dialog pattern): past the last control focus goes to the
 * first and back, so a keyboard user never lands on the page behind it, which `aria-modal` hides from a screen reader.
 * Call it from the modal's keydown listener; keys other than Tab are left alone.
 */
export function keepFocusInside(root: HTMLElement, event: KeyboardEvent): void {
  if (event.key !== 'Tab') return;
  const items = tabbables(root);
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  const outside = !(active instanceof HTMLElement) || !root.contains(active) || active === root;
  if (!first || !last) {
    event.preventDefault();
    root.focus();
  } else if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
