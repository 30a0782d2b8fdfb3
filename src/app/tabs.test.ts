import { describe, expect, it } from 'vitest';
import { MENU, visibleMenu } from './menu';
import { pageExists } from './pages';
import { isTabPath, TABS, visibleTabs } from './tabs';

describe('tab bar (SPEC 2)', () => {
  it('lists the six tab routes in order', () => {
    expect(TABS.map((t) => t.path)).toEqual([
      '/pages/index/index',
      '/pages/trade/index',
      '/pages/option/detail',
      '/pages/lever/index',
      '/pages/template/index',
      '/pages/assets/index',
    ]);
  });

  it('shows only tabs whose page exists, and nothing when fewer than two exist', () => {
    // All six tab pages exist today: the bar shows them in SPEC order.
    expect(visibleTabs(pageExists).map((t) => t.icon)).toEqual([
      'home',
      'spot',
      'option',
      'lever',
      'finance',
      'assets',
    ]);
    expect(visibleTabs((p) => p === '/pages/index/index')).toEqual([]);
    const some = new Set(['/pages/index/index', '/pages/assets/index']);
    expect(visibleTabs((p) => some.has(p)).map((t) => t.icon)).toEqual(['home', 'assets']);
  });

  it('knows tab pages, including / for home', () => {
    expect(isTabPath('/')).toBe(true);
    expect(isTabPath('/pages/index/index')).toBe(true);
    expect(isTabPath('/pages/lever/index/')).toBe(true);
    expect(isTabPath('/pages/settings/index')).toBe(false);
  });
});

describe('left menu (SPEC 2)', () => {
  it('keeps all twelve entries but lists only those whose page exists', () => {
    expect(MENU).toHaveLength(12);
    const some = new Set(['/pages/settings/index', '/pages/assets/record', '/pages/no/such']);
    expect(visibleMenu((p) => some.has(p)).map((e) => e.labelKey)).toEqual(['menu.settings', 'menu.history']);
    expect(visibleMenu(pageExists).map((e) => e.labelKey)).toEqual(
      expect.arrayContaining(['menu.security', 'menu.settings', 'menu.history']),
    );
    expect(visibleMenu(pageExists).every((e) => pageExists(e.path))).toBe(true);
  });
});
