import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from './Dialog';

/** A dialog over a page with controls of its own, opened from one of them. */
function setup() {
  const onClose = vi.fn();
  const view = (open: boolean) => (
    <>
      <button type="button">Behind</button>
      <Dialog
        open={open}
        title="Choose"
        onClose={onClose}
        actions={
          <>
            <button type="button">Cancel</button>
            <button type="button">Confirm</button>
          </>
        }
      >
        <input aria-label="Search" />
        <button type="button" disabled>
          Off
        </button>
      </Dialog>
    </>
  );
  const { rerender } = render(view(false));
  const opener = screen.getByRole('button', { name: 'Behind' });
  opener.focus();
  rerender(view(true));
  return { onClose, opener, close: () => rerender(view(false)) };
}

const tab = (shiftKey = false) => fireEvent.keyDown(document, { key: 'Tab', shiftKey });
const focused = () =>
  (document.activeElement as HTMLElement | null)?.getAttribute('aria-label') ?? document.activeElement?.textContent;

describe('Dialog and the keyboard', () => {
  afterEach(cleanup);

  it('moves focus in, keeps Tab and Shift+Tab inside, and gives focus back when it closes', () => {
    const { opener, close } = setup();
    expect(document.activeElement).toBe(screen.getByRole('dialog'));
    // From the dialog itself Tab goes to its first control; the disabled one is skipped.
    tab();
    expect(focused()).toBe('Search');
    screen.getByRole('button', { name: 'Confirm' }).focus();
    tab();
    expect(focused()).toBe('Search');
    tab(true);
    expect(focused()).toBe('Confirm');
    // Between the first and the last, the browser's own order applies (the key is not taken).
    screen.getByRole('button', { name: 'Cancel' }).focus();
    expect(fireEvent.keyDown(document, { key: 'Tab' })).toBe(true);
    close();
    expect(document.activeElement).toBe(opener);
  });

  it('keeps focus where the user is when its page renders again with a new onClose', () => {
    const view = (onClose: () => void) => (
      <Dialog open title="Choose" onClose={onClose} actions={<button type="button">Confirm</button>}>
        <input aria-label="Search" />
      </Dialog>
    );
    const { rerender } = render(view(() => {}));
    const search = screen.getByRole('textbox', { name: 'Search' });
    search.focus();
    const latest = vi.fn();
    rerender(view(latest));
    expect(document.activeElement).toBe(search);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(latest).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape', () => {
    const { onClose } = setup();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
