/**
 * What a first visit loads before the app's first render (DESIGN "Fast on a phone"), as plain values: the app itself,
 * the build (vite.config.ts: the precache and the first paint of index.html) and the size check
 * (tests/size/route-budgets.ts) all read them from here.
 */

/** The home tab's page: the route a first visit opens (also served at `/`, by the server, which knows it too). */
export { HOME_PATH } from '../../protocol/pages';

/** The home page's module, as the build names it (a module id or a manifest key ends with it). */
export const FIRST_ROUTE_PAGE = /src\/features\/market\/pages\/index\/index\.tsx$/;

/** The namespaces the app loads before its first render: the shell's own and the one shared with the server. */
export const SHELL_NAMESPACES = ['app', 'errors'] as const;
