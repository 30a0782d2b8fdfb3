/**
 * Client routes the server must know by name: the home tab's page, which the server also serves at `/` with the
 * market's snapshot written in (server/platform/http/app-document.ts).
 */
export const HOME_PATH = '/pages/index/index';
