import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, startI18n } from '../lib/i18n';
import { clearSession } from '../state/session';
import { setMenuOpen } from '../state/ui';
import { createAppRouter } from './router';

function renderAt(path: string) {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }));
  render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return router;
}

beforeAll(async () => {
  await startI18n('en');
});

beforeEach(() => {
  clearSession();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data: [] }))),
  );
});

afterEach(() => {
  cleanup();
  setMenuOpen(false);
  vi.unstubAllGlobals();
});

describe('shell', () => {
  it('shows a not-found view with a link home for unknown paths', async () => {
    renderAt('/pages/no/such/page');
    expect(await screen.findByRole('heading', { name: 'This page does not exist' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/pages/index/index');
  });

  it('renders the guest home with login and register, and no one-item tab bar', async () => {
    renderAt('/');
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main sections' })).toBeNull();
  });

  it('opens the left menu with only existing entries plus login/register for guests', async () => {
    renderAt('/pages/index/index');
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    const labels = Array.from(drawer.querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual(['Log in', 'Register', 'Security centre', 'Settings']);
  });

  it('changes the theme from the settings page', async () => {
    renderAt('/pages/settings/index');
    const sw = await screen.findByRole('switch', { name: 'Dark mode' });
    expect(document.documentElement.dataset.theme ?? 'dark').toBe('dark');
    await act(async () => {
      fireEvent.click(sw);
    });
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(JSON.parse(localStorage.getItem('tw.app') ?? '{}').theme).toBe('light');
    await act(async () => {
      fireEvent.click(sw);
    });
    expect(document.documentElement.dataset.theme).toBe('dark');
  });
});
