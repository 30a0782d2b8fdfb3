import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startI18n } from '../lib/i18n';
import { Page } from './Page';
import { type PageChrome, PageChromeContext } from './page-chrome';

beforeAll(async () => {
  await startI18n('en');
});

afterEach(cleanup);

function renderPage(left: 'back' | 'menu' | 'none' | undefined) {
  const chrome: PageChrome = { goBack: vi.fn(), openMenu: vi.fn(), showTitle: vi.fn() };
  render(
    <PageChromeContext value={chrome}>
      <Page title="Orders" left={left} right={<button type="button">Filter</button>} className="orders">
        <p>the list</p>
      </Page>
    </PageChromeContext>,
  );
  return chrome;
}

describe('page frame', () => {
  it('draws the bar, the body and names the document through the app', () => {
    const chrome = renderPage(undefined);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Orders');
    expect(screen.getByRole('main').className).toBe('page-body orders');
    expect(screen.getByRole('main').textContent).toBe('the list');
    expect(screen.getByRole('button', { name: 'Filter' })).toBeTruthy();
    expect(chrome.showTitle).toHaveBeenCalledWith('Orders');
  });

  it('goes back by default, through the app', () => {
    const chrome = renderPage(undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(chrome.goBack).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Menu' })).toBeNull();
  });

  it('opens the left menu from a tab page, and shows neither button with left="none"', () => {
    const chrome = renderPage('menu');
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    expect(chrome.openMenu).toHaveBeenCalledTimes(1);
    cleanup();
    renderPage('none');
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Menu' })).toBeNull();
  });
});
