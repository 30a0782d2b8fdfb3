import { describe, expect, it } from 'vitest';
import { FEATURES, pageModule } from './features';
import { MENU } from './menu';
import { TABS } from './tabs';

const places = (entries: readonly { at: number }[]) => entries.map((e) => e.at).sort((a, b) => a - b);
const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('feature registrations', () => {
  it('give each feature its own strings', () => {
    const namespaces = FEATURES.map((f) => f.namespace);
    expect(new Set(namespaces).size).toBe(namespaces.length);
  });

  it('place the tabs and menu entries 1, 2, 3 … with no place taken twice', () => {
    expect(places(TABS)).toEqual(oneToN(TABS.length));
    expect(places(MENU)).toEqual(oneToN(MENU.length));
  });

  it('put tabs and menu entries only on pages of their own feature', () => {
    for (const f of FEATURES) {
      const own = new Set(f.pages.map((p) => p.path));
      expect([...(f.tabs ?? []), ...(f.menu ?? [])].filter((e) => !own.has(e.path))).toEqual([]);
    }
  });

  it('borrow only other features’ strings', () => {
    for (const f of FEATURES) expect(f.pages.filter((p) => p.borrows?.includes(f.namespace))).toEqual([]);
  });

  it('name each page module after its route, in the feature’s pages folder', () => {
    const spot = FEATURES.find((f) => f.namespace === 'spot');
    expect(spot && pageModule(spot, '/pages/trade/index')).toBe('src/features/spot/pages/trade/index.tsx');
  });
});
