import { describe, expect, it } from 'vitest';
import { MENU } from './menu';
import { isTabPath, TABS } from './tabs';

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

  it('draws them with the SPEC icons in order', () => {
    expect(TABS.map((t) => t.icon)).toEqual(['home', 'spot', 'option', 'lever', 'finance', 'assets']);
  });

  it('knows tab pages, including / for home', () => {
    expect(isTabPath('/')).toBe(true);
    expect(isTabPath('/pages/index/index')).toBe(true);
    expect(isTabPath('/pages/lever/index/')).toBe(true);
    expect(isTabPath('/pages/settings/index')).toBe(false);
  });
});

describe('left menu (SPEC 2)', () => {
  it('lists the twelve entries in SPEC order', () => {
    expect(MENU.map((e) => e.labelKey)).toEqual([
      'menu.deposit',
      'menu.quickDeposit',
      'menu.withdraw',
      'menu.referral',
      'menu.kyc',
      'menu.security',
      'menu.address',
      'menu.contact',
      'menu.help',
      'menu.valuation',
      'menu.settings',
      'menu.history',
    ]);
  });
});
