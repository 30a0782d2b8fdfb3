import {
  type AnyRoute,
  createRootRoute,
  createRoute,
  createRouter,
  type RouterHistory,
  redirect,
} from '@tanstack/react-router';
import { isLoggedIn } from '../state/session';
import { checkLogin, type LoginGuard, loginGuard } from './guard';
import { lazyPage } from './lazyPage';
import { NotFound } from './NotFound';
import { PAGES } from './pages';
import { Shell } from './Shell';
import { HOME_PATH, isTabPath } from './tabs';

/** Throws the login redirect for a protected page when there is no session (SPEC 4). */
export function requireLogin(location: { href: string; pathname: string }, guard: LoginGuard = loginGuard): void {
  const r = checkLogin(guard, isLoggedIn(), location.href, isTabPath(location.pathname));
  if (r) throw redirect({ to: r.target.to, search: r.target.search, replace: r.replace });
}

/** Code-based routes from the page table; history mode by default. */
export function createAppRouter(history?: RouterHistory) {
  const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFound });
  const children: AnyRoute[] = [];
  for (const def of PAGES) {
    const component = lazyPage(def.load);
    children.push(
      createRoute({
        getParentRoute: () => rootRoute,
        path: def.path,
        component,
        ...(def.auth ? { beforeLoad: ({ location }) => requireLogin(location) } : {}),
      }),
    );
    // The home tab is also served at `/` (same component, so it loads once).
    if (def.path === HOME_PATH) children.push(createRoute({ getParentRoute: () => rootRoute, path: '/', component }));
  }
  return createRouter({
    routeTree: rootRoute.addChildren(children),
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFound,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
