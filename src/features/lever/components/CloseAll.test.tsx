import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiText } from '../../../../core/api/client';
import { closingTwo } from '../../../../machines/lever/close-all/closeAll.model';
import { i18n, loadNamespace, startI18n } from '../../../lib/i18n';
import { toasts } from '../../../state/toasts';
import { okEnvelope } from '../../../test-support/in-router';
import CloseAll from './CloseAll';

/**
 * Close-all drawn from its machine (machines/lever/close-all): the button opens the sheet with how many hold, confirm
 * sends the book's close-all and the toast says how many went into closing; a failure stays on the sheet; stale
 * prices or nothing holding keep the button off. The machine's own rules are its unit test's.
 */

/** A fetch that answers lever/close_all with `answer` (or fails like a dropped line), recording the bodies sent. */
function closeAllAnswers(answer: unknown | Error) {
  const bodies: unknown[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    expect(url.pathname).toBe('/api/lever/close_all');
    bodies.push(init?.body ?? (input instanceof Request ? await input.text() : null));
    if (answer instanceof Error) throw answer;
    return new Response(JSON.stringify(okEnvelope(answer)), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, bodies };
}

beforeAll(async () => {
  await startI18n('en');
  await i18n.changeLanguage('en');
  await loadNamespace('lever');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toasts.items.splice(0);
});

describe('close-all', () => {
  it('confirms how many, closes the book’s holding positions and says so in a toast', async () => {
    const { fetch } = closeAllAnswers({ positions: closingTwo });
    render(<CloseAll book="simulator" holding={2} stale={false} />);
    fireEvent.click(screen.getByTestId('close-all'));
    expect(screen.getByTestId('close-all-count').textContent).toBe('2');
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('confirm-action'));
    await waitFor(() => expect(toasts.items.map((i) => i.text)).toEqual([i18n.t('lever.closeAll.done', { count: 2 })]));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('confirm-action')).toBeNull();
  });

  it('keeps the sheet up with the failure when no answer comes, to confirm again', async () => {
    const { bodies } = closeAllAnswers(new TypeError('Failed to fetch'));
    render(<CloseAll book="real" holding={1} stale={false} />);
    fireEvent.click(screen.getByTestId('close-all'));
    fireEvent.click(screen.getByTestId('confirm-action'));
    await waitFor(() => expect(screen.getByTestId('confirm-action').hasAttribute('disabled')).toBe(false));
    // The failure's message in the note's place, not the note.
    const notes = [...document.querySelectorAll('.note')].map((n) => n.textContent ?? '');
    expect(notes).not.toContain(i18n.t('lever.closeAll.note'));
    expect(notes).toContain(apiText('offline'));
    expect(String(bodies[0])).toContain('real');
    expect(toasts.items).toEqual([]);
  });

  it('back closes the sheet without sending anything', () => {
    const { fetch } = closeAllAnswers({ positions: [] });
    render(<CloseAll book="simulator" holding={2} stale={false} />);
    fireEvent.click(screen.getByTestId('close-all'));
    fireEvent.click(screen.getByTestId('confirm-back'));
    expect(screen.queryByTestId('confirm-action')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('is off while prices are stale or nothing holds, and on once fresh with something holding', () => {
    const view = render(<CloseAll book="simulator" holding={2} stale={true} />);
    const button = () => screen.getByTestId('close-all');
    expect(button().hasAttribute('disabled')).toBe(true);
    view.rerender(<CloseAll book="simulator" holding={0} stale={false} />);
    expect(button().hasAttribute('disabled')).toBe(true);
    view.rerender(<CloseAll book="simulator" holding={2} stale={false} />);
    expect(button().hasAttribute('disabled')).toBe(false);
  });

  it('blocks confirming when prices go stale with the sheet up', () => {
    const { fetch } = closeAllAnswers({ positions: [] });
    const view = render(<CloseAll book="simulator" holding={2} stale={false} />);
    fireEvent.click(screen.getByTestId('close-all'));
    act(() => view.rerender(<CloseAll book="simulator" holding={2} stale={true} />));
    expect(screen.getByTestId('confirm-action').hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(i18n.t('lever.staleBlocked'))).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});
