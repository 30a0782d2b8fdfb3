import { createMemoryHistory } from '@tanstack/react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../protocol/account';
import { clearSession, setSession } from '../state/session';
import { checkLogin, createLoginGuard, GUARD_LOCK_MS, LOGIN_PATH, loginGuard, safeBackpage } from './guard';
import { createAppRouter } from './router';

const user: User = {
  id: 1,
  username: 'bob',
  email: null,
  mobile: '1512345678',
  area_code: '49',
  invite_code: 'X1',
  lang: 'de',
  has_fund_password: true,
  created_at: 1_700_000_000,
};

describe('login guard (SPEC 4)', () => {
  it('sends a guest to login with the backpage and backtype 1 by default', () => {
    let now = 10_000;
    const guard = createLoginGuard(() => now);
    const r = checkLogin(guard, false, '/pages/settings/account/index?x=1', false);
    expect(r).toEqual({
      target: { to: LOGIN_PATH, search: { backpage: '/pages/settings/account/index?x=1', backtype: 1 } },
      replace: false,
    });
    now += GUARD_LOCK_MS;
    expect(checkLogin(guard, false, '/pages/index/index', true)?.target.search.backtype).toBe(2);
  });

  it('lets a logged-in user through without touching the lock', () => {
    const now = 0;
    const guard = createLoginGuard(() => now);
    expect(checkLogin(guard, true, '/pages/settings/security/index', false)).toBeNull();
    expect(guard.trigger('/a', false).fresh).toBe(true);
  });

  it('does not re-trigger within 1 s: keeps the first target and replaces instead of stacking', () => {
    let now = 5_000;
    const guard = createLoginGuard(() => now);
    const first = guard.trigger('/pages/settings/account/index', false);
    expect(first.fresh).toBe(true);
    now += GUARD_LOCK_MS - 1;
    const second = checkLogin(guard, false, '/pages/settings/security/index', false);
    expect(second?.replace).toBe(true);
    expect(second?.target.search.backpage).toBe('/pages/settings/account/index');
  });

  it('triggers again once 1 s has passed', () => {
    let now = 5_000;
    const guard = createLoginGuard(() => now);
    guard.trigger('/first', false);
    now += GUARD_LOCK_MS;
    const again = guard.trigger('/second', true);
    expect(again.fresh).toBe(true);
    expect(again.target.search).toEqual({ backpage: '/second', backtype: 2 });
  });

  it('never uses a foreign or login backpage', () => {
    expect(safeBackpage('//evil.example/x')).toBeNull();
    expect(safeBackpage('https://evil.example')).toBeNull();
    expect(safeBackpage('/\\evil.example')).toBeNull();
    expect(safeBackpage(`${LOGIN_PATH}?backpage=/x`)).toBeNull();
    expect(safeBackpage('/pages/settings/index')).toBe('/pages/settings/index');
    expect(safeBackpage(42)).toBeNull();
    const guard = createLoginGuard(() => 0);
    expect(guard.trigger('//evil.example', false).target.search.backpage).toBe('/');
  });
});

describe('protected routes in the router', () => {
  beforeEach(() => {
    loginGuard.reset();
    clearSession();
  });

  it('redirects a guest from a protected page to login with backpage and backtype', async () => {
    const history = createMemoryHistory({ initialEntries: ['/pages/settings/security/index'] });
    const router = createAppRouter(history);
    await router.load();
    expect(router.state.location.pathname).toBe(LOGIN_PATH);
    expect(router.state.location.search).toEqual({ backpage: '/pages/settings/security/index', backtype: 1 });
  });

  it('shows a protected page to a logged-in user, and public pages to guests', async () => {
    setSession('t', user);
    const router = createAppRouter(createMemoryHistory({ initialEntries: ['/pages/settings/account/index'] }));
    await router.load();
    expect(router.state.location.pathname).toBe('/pages/settings/account/index');

    clearSession();
    const guestRouter = createAppRouter(createMemoryHistory({ initialEntries: ['/pages/settings/index'] }));
    await guestRouter.load();
    expect(guestRouter.state.location.pathname).toBe('/pages/settings/index');
  });

  it('serves home at /', async () => {
    const router = createAppRouter(createMemoryHistory({ initialEntries: ['/'] }));
    await router.load();
    expect(router.state.matches.at(-1)?.routeId).toBe('/');
  });
});
