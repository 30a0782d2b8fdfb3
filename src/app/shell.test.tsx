import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../data/query';
import { i18n, startI18n } from '../lib/i18n';
import { clearSession, session } from '../state/session';
import { setMenuOpen } from '../state/ui';
import { connectApi } from './api-wiring';
import { MENU } from './menu';
import { createAppRouter } from './router';

function renderAt(path: string) {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return router;
}

beforeAll(async () => {
  await startI18n('en');
  connectApi();
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

// Each test loads real pages (their modules are transformed on first use): on a busy 2-core machine that alone can
// take most of Vitest's default 5 s, so the limit is the one findBy waits allow (tests/unit/setup.ts), twice.
describe('shell', { timeout: 20_000 }, () => {
  it('shows a not-found view with a link home for unknown paths', async () => {
    renderAt('/pages/no/such/page');
    expect(await screen.findByRole('heading', { name: 'This page does not exist' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/pages/index/index');
  });

  it('renders the guest home with login and register, and the tab bar of the tab pages that exist', async () => {
    renderAt('/');
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register' })).toBeTruthy();
    const tabs = screen.getByRole('navigation', { name: 'Main sections' });
    expect(Array.from(tabs.querySelectorAll('a')).map((a) => a.textContent)).toEqual([
      'Home',
      'Spot',
      'Options',
      'Contracts',
      'Trust',
      'Assets',
    ]);
  });

  it('opens the left menu with its entries plus login/register for guests', async () => {
    renderAt('/pages/index/index');
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    const labels = Array.from(drawer.querySelectorAll('a')).map((a) => a.textContent);
    const entries = MENU.map((e) => i18n.t(e.labelKey));
    expect(labels).toEqual(['Log in', 'Register', ...entries]);
    expect(labels).toEqual(expect.arrayContaining(['Security centre', 'Settings', 'Transaction history']));
  });

  it('logs in and replaces the login page with the backpage', async () => {
    const user = {
      id: 5,
      username: 'dora',
      email: 'dora@example.com',
      mobile: null,
      area_code: null,
      invite_code: 'D0RA11',
      lang: 'en',
      has_fund_password: false,
      created_at: 1_700_000_000_000,
    };
    const fetchMock = vi.fn(async (input: Request | string | URL) => {
      const path = input instanceof Request ? new URL(input.url).pathname : String(input);
      const data =
        path === '/api/user/login' ? { token: 'tok-dora', user } : path === '/api/set/lang' ? { lang: 'en' } : [];
      return new Response(JSON.stringify({ type: 'ok', code: 1, message: 'OK', data }));
    });
    vi.stubGlobal('fetch', fetchMock);
    const router = renderAt('/pages/user/login/login?backpage=%2Fpages%2Fsettings%2Findex&backtype=1');
    fireEvent.change(await screen.findByLabelText('E-mail or username'), { target: { value: 'dora@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret12' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/pages/settings/index'), { timeout: 10_000 });
    expect(router.history.length).toBe(1);
    expect(session.token).toBe('tok-dora');
    expect(session.user?.username).toBe('dora');
    const loginCall = fetchMock.mock.calls.find(([r]) => r instanceof Request && r.url.endsWith('/api/user/login'));
    expect(loginCall).toBeTruthy();
  });

  it('validates the login form with the shared schema before calling the server', async () => {
    renderAt('/pages/user/login/login');
    const submit = await screen.findByRole('button', { name: 'Log in' });
    await act(async () => {
      fireEvent.click(submit);
    });
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual(['Please enter your phone number, e-mail or username', 'Please enter a password']);
    expect(vi.mocked(fetch).mock.calls.some(([r]) => r instanceof Request && r.url.endsWith('/api/user/login'))).toBe(
      false,
    );
  });

  it('names the document after the page, beside the brand', async () => {
    renderAt('/pages/settings/index');
    await screen.findByRole('switch', { name: 'Dark mode' });
    const title = screen.getByRole('heading', { level: 1 }).textContent;
    expect(title).toBeTruthy();
    expect(document.title).toBe(`${title} · ${i18n.t('brand')}`);
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
