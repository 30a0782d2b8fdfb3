import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { ALL_LANGS, DEFAULT_LANG } from '../protocol/lang';
import { MARKET_SNAPSHOT_MARK } from '../protocol/market-snapshot';
import { ICON_PATHS } from '../src/components/icon-paths';
import { escapeHtml } from '../src/first-paint/html';
import { type MarketWords, SNAPSHOT_CALL } from '../src/first-paint/market';
import { TAB_ROUTES, type TabWords } from '../src/first-paint/trade-tab';
import { FIRST_ROUTE_PAGE, HOME_PATH, SHELL_NAMESPACES } from '../src/lib/first-route';
import { STALE_AFTER_MS } from '../streams/freshness';

/**
 * The first visit's first paint (issue 15, cold start: LCP ≤ 2.5 s on a slow phone). Without it a phone on a slow
 * network sees nothing until the shell chunk has arrived and run (a second of script at 4x slowdown), and only then
 * asks for the home page's chunk and its tables: a second slow round trip before the page's largest text paints.
 * The build adds to index.html:
 *
 * - the home page's stylesheet, so its hero is styled from the first paint, and after it the room for the market
 *   snapshot (index.html's mark, which the server fills on every page it answers);
 * - a script in the head, before the stylesheets, that asks for the current language's shell and market tables and
 *   the opened page's chunks (home's, or any other page's: routeFiles) beside the shell (modulepreload) instead of
 *   after it; and one after the snapshot's room that asks for the snapshot when the page came without it (the
 *   service worker's copy);
 * - a script after the stylesheets that applies the opened page's own styles (preloaded by the head script) as the
 *   app's loader would, so that what is drawn of that page before any script is styled as the app draws it;
 * - a script right after #root that draws, for a guest on the home route, the page's navigation bar and hero in the
 *   stored language, from the same tables and icons the app uses; for a member opening the Spot tab or a real book's
 *   Lever or Option tab, that tab's page down to its price header from the snapshot (src/first-paint/trade-tab.ts).
 *   React replaces it with the same markup at the same size when it renders (tests/e2e/first-paint.test.ts and
 *   first-paint-tabs.test.ts hold the two to the same boxes), so nothing shifts. Another route or a browser without
 *   storage gets the plain empty root.
 */

/** The route the app opens on, as its path and as `/`. */
const HOME_PATHS = ['/', HOME_PATH];
/** The tables the first render needs: the shell's and the home page's feature's. */
const firstTables = (homeFeature: string): string[] => [...SHELL_NAMESPACES, homeFeature];

interface HeroText {
  brand: string;
  menu: string;
  settings: string;
  kicker: string;
  title: string;
  lead: string;
  login: string;
  register: string;
}

/** An <Icon> as React renders it (src/components/Icon.tsx): decorative, or an image named by `label`. */
function icon(name: keyof typeof ICON_PATHS, size = 22, label?: string): string {
  const named = label === undefined ? 'aria-hidden="true"' : `role="img" aria-label="${escapeHtml(label)}"`;
  return (
    `<svg class="icon" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" ` +
    `stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" ${named}>` +
    (label === undefined ? '' : `<title>${escapeHtml(label)}</title>`) +
    `<path d="${ICON_PATHS[name]}"></path></svg>`
  );
}

/**
 * The guest's home as src/features/market/pages/index/index.tsx (Guest) renders it inside src/app/Shell.tsx and
 * src/app/Page.tsx, down to the hero: the same elements and classes, so the same CSS gives the same boxes.
 */
export function heroMarkup(text: HeroText): string {
  const t = Object.fromEntries(Object.entries(text).map(([k, v]) => [k, escapeHtml(v)])) as unknown as HeroText;
  return (
    `<div class="app-frame" data-first-paint=""><div class="page"><header class="navbar">` +
    `<div class="navbar-side"><button type="button" class="icon-btn" aria-label="${t.menu}" aria-haspopup="dialog">` +
    `${icon('menu')}</button></div><h1 class="navbar-title">${t.brand}</h1>` +
    `<div class="navbar-side navbar-right"><a href="/pages/settings/index" class="icon-btn" aria-label="${t.settings}">` +
    `${icon('settings')}</a></div></header><main class="page-body"><section class="hero">` +
    `<span class="hero-kicker">${icon('layers', 16)}${t.kicker}</span><h2 class="hero-title">${t.title}</h2>` +
    `<p class="hero-text">${t.lead}</p><div class="btn-row">` +
    `<a href="/pages/user/login/login" class="btn btn-primary"><span class="btn-label">${t.login}</span></a>` +
    `<a href="/pages/user/choose" class="btn btn-secondary"><span class="btn-label">${t.register}</span></a>` +
    `</div></section></main></div></div>`
  );
}

/** A key's text in a table (dotted path), or an error naming it: the build fails rather than paint a gap. */
function textAt(table: unknown, key: string, where: string): string {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], table);
  if (typeof value !== 'string') throw new Error(`first paint: ${where} has no text at ${key}`);
  return value;
}

/** The hero's texts in one language, from its tables under locales/. */
export function heroText(root: string, lang: string): HeroText {
  const read = (ns: string) => JSON.parse(readFileSync(join(root, 'locales', lang, `${ns}.json`), 'utf8')) as unknown;
  const app = read('app');
  const market = read('market');
  const at = (table: unknown, ns: string, key: string) => textAt(table, key, `locales/${lang}/${ns}.json`);
  return {
    brand: at(app, 'app', 'brand'),
    menu: at(app, 'app', 'nav.menu'),
    settings: at(app, 'app', 'settings.title'),
    kicker: at(market, 'market', 'home.kicker'),
    title: at(market, 'market', 'home.title'),
    lead: at(market, 'market', 'home.lead'),
    login: at(app, 'app', 'auth.login'),
    register: at(app, 'app', 'auth.register'),
  };
}

/** The market list's words in one language, from its table under locales/ (src/first-paint/market.ts). */
export function marketWords(root: string, lang: string): MarketWords {
  const table = JSON.parse(readFileSync(join(root, 'locales', lang, 'market.json'), 'utf8')) as unknown;
  const at = (key: string) => textAt(table, `market.${key}`, `locales/${lang}/market.json`);
  return {
    title: at('title'),
    favourites: at('tabs.favourites'),
    coins: at('tabs.coins'),
    stocks: at('tabs.stocks'),
    search: at('search'),
    pair: at('columns.pair'),
    volume: at('columns.volume'),
    last: at('columns.last'),
    change: at('columns.change'),
    vol: at('vol'),
    searchIcon: icon('search', 18),
  };
}

/** The trading tabs' words in one language, from their tables under locales/ (src/first-paint/trade-tab.ts). */
export function tabWords(root: string, lang: string): TabWords {
  const tables = new Map<string, unknown>();
  const at = (ns: string, key: string) => {
    if (!tables.has(ns)) {
      tables.set(ns, JSON.parse(readFileSync(join(root, 'locales', lang, `${ns}.json`), 'utf8')) as unknown);
    }
    return textAt(tables.get(ns), key, `locales/${lang}/${ns}.json`);
  };
  return {
    menu: at('app', 'nav.menu'),
    lever: {
      title: at('lever', 'lever.title'),
      rules: at('lever', 'lever.ruleLink'),
      real: at('lever', 'lever.book.real'),
      toSimulator: at('lever', 'lever.book.toSimulator'),
      lastPrice: at('lever', 'lever.lastPrice'),
    },
    option: {
      title: at('options', 'options.title'),
      rules: at('options', 'options.rules.title'),
      real: at('options', 'options.book.real'),
      toSimulator: at('options', 'options.book.toSimulator'),
      lastPrice: at('options', 'options.lastPrice'),
      caption: at('options', 'options.chart.caption'),
    },
    spot: {
      title: at('spot', 'spot.title'),
      choosePair: at('spot', 'spot.choosePair'),
      chartOf: at('spot', 'spot.chartOf'),
      chart: at('spot', 'spot.chart'),
    },
    icons: {
      menu: icon('menu'),
      document: icon('document', 20),
      chevron: icon('chevron', 16, at('spot', 'spot.choosePair')),
      pulse: icon('pulse', 18),
    },
  };
}

/**
 * src/first-paint/painter.ts as one inline script (an IIFE naming `__twPaint`), with the app's own number formatting
 * bundled in: the first paint's market list and tab headers follow the same figure rules as the app's.
 */
async function painter(root: string): Promise<string> {
  const out = await build({
    entryPoints: [join(root, 'src', 'first-paint', 'painter.ts')],
    bundle: true,
    format: 'iife',
    globalName: '__twPaint',
    minify: true,
    write: false,
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
  });
  const code = out.outputFiles[0]?.text;
  if (!code) throw new Error('first paint: the painter did not build');
  return code;
}

/** The chunk files (and their CSS) of the bundle this build writes, as the plugin reads them. */
interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  isEntry: boolean;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** What the head script preloads and the home page's stylesheets, found in the bundle. */
function firstFiles(bundle: Record<string, { type: string }>) {
  const chunks = Object.values(bundle).filter((c): c is BuiltChunk => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: BuiltChunk[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (c: BuiltChunk | undefined) => {
      if (!c || seen.has(c.fileName)) return;
      seen.add(c.fileName);
      for (const dep of c.imports) visit(byFile.get(dep));
    };
    for (const c of start) visit(c);
    return seen;
  };
  const shell = closure(chunks.filter((c) => c.isEntry));
  const home = chunks.find((c) => c.facadeModuleId !== null && FIRST_ROUTE_PAGE.test(c.facadeModuleId));
  const homeFeature = /\/src\/features\/([^/]+)\//.exec(home?.facadeModuleId ?? '')?.[1];
  if (!home || !homeFeature) throw new Error('first paint: the home page is not in the bundle');
  const homeFiles = [...closure([home])].filter((f) => !shell.has(f));
  const homeCss = homeFiles.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]);
  const tables: Record<string, string[]> = {};
  for (const lang of ALL_LANGS) {
    tables[lang] = firstTables(homeFeature).map((ns) => {
      const table = chunks.find((c) => c.facadeModuleId?.endsWith(`/locales/${lang}/${ns}.json`));
      if (!table) throw new Error(`first paint: no chunk of locales/${lang}/${ns}.json`);
      return table.fileName;
    });
  }
  return { homeFiles, homeCss, tables, routes: routeFiles(chunks, closure, shell) };
}

/**
 * Every other page's own files (its chunk and the chunks it imports, not the shell's), for the head script to ask
 * for at once when a visit opens on that page: without it they are asked for only once the shell has run, and on a
 * slow network each round of a page's small shared chunks costs a full round trip (issue 27: the Lever tab opened
 * first waited three seconds for them). Stylesheets are preloaded too. Compact: the files once, each page's as
 * indices into them.
 */
function routeFiles(
  chunks: BuiltChunk[],
  closure: (start: BuiltChunk[]) => Set<string>,
  shell: Set<string>,
): { files: string[]; pages: Record<string, number[]> } {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const files: string[] = [];
  const index = new Map<string, number>();
  const at = (file: string) => {
    let k = index.get(file);
    if (k === undefined) {
      k = files.push(file) - 1;
      index.set(file, k);
    }
    return k;
  };
  const pages: Record<string, number[]> = {};
  for (const chunk of chunks) {
    // A page module is src/features/<feature>/pages/<the rest of its path>.tsx (src/lib/feature.ts).
    const rest = /\/src\/features\/[^/]+\/pages\/(.+)\.tsx$/.exec(chunk.facadeModuleId ?? '')?.[1];
    if (!rest || FIRST_ROUTE_PAGE.test(chunk.facadeModuleId ?? '')) continue;
    const own = [...closure([chunk])].filter((f) => !shell.has(f));
    pages[`/pages/${rest}`] = [...own, ...cssInOrder(chunk, byFile, shell)].map(at);
  }
  return { files, pages };
}

/**
 * A page's stylesheets in the order the app's own loader would add them (Vite's preload helper: each chunk's imports'
 * styles before its own, depth first). The head script adds them as stylesheets, not preloads, and the loader then
 * finds them present: the cascade between them must be the app's (an `.is-up` colour of one file after a button's
 * colour of another made the option tab's buttons unreadable).
 */
function cssInOrder(page: BuiltChunk, byFile: Map<string, BuiltChunk>, shell: Set<string>): string[] {
  const seen = new Set<string>();
  const css: string[] = [];
  const visit = (c: BuiltChunk | undefined) => {
    if (!c || seen.has(c.fileName) || shell.has(c.fileName)) return;
    seen.add(c.fileName);
    for (const dep of c.imports) visit(byFile.get(dep));
    for (const file of c.viteMetadata?.importedCss ?? []) if (!css.includes(file)) css.push(file);
  };
  visit(page);
  return css;
}

/** JSON for an inline script: `<` escaped, so no text in it can close the script element. */
const inlineJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** The head script: which files to ask for at once, by the stored language and the route. */
function preloadScript(
  homeFiles: string[],
  tables: Record<string, string[]>,
  routes: { files: string[]; pages: Record<string, number[]> },
): string {
  return `(() => {
  try {
    const tables = ${inlineJson(tables)};
    const stored = localStorage.getItem('lang');
    const lang = Object.hasOwn(tables, stored) ? stored : ${JSON.stringify(DEFAULT_LANG)};
    const path = location.pathname.replace(/\\/+$/, '') || '/';
    const home = ${JSON.stringify(HOME_PATHS)}.includes(path);
    const routes = ${inlineJson(routes)};
    const page = Object.hasOwn(routes.pages, path) ? routes.pages[path].map((k) => routes.files[k]) : [];
    // The page's styles first (over HTTP/1.1's six connections, the first six requests go out at once); for a trading
    // tab a member opens, whose header is drawn before any script, pageStylesScript applies them, in the app's order.
    const css = page.filter((file) => file.endsWith('.css'));
    const app = JSON.parse(localStorage.getItem('tw.app') || '{}');
    const member = app && typeof app.token === 'string' && app.token !== '' && Boolean(app.user);
    window.__twPageCss = member && ${JSON.stringify(TAB_ROUTES)}.includes(path) ? css : [];
    const files = home
      ? [...tables[lang], ...${JSON.stringify(homeFiles)}]
      : [...css, ...tables[lang], ...page.filter((file) => !file.endsWith('.css'))];
    for (const file of files) {
      const link = document.createElement('link');
      if (file.endsWith('.css')) {
        link.rel = 'preload';
        link.as = 'style';
      } else {
        link.rel = 'modulepreload';
      }
      link.crossOrigin = '';
      link.href = '/' + file;
      document.head.appendChild(link);
    }
  } catch {
    // No storage: the app asks for what it needs when it starts.
  }
})();`;
}

/**
 * The head script after the build's stylesheets: for a trading tab a member opens, whose header is drawn before any
 * script (src/first-paint/trade-tab.ts), the page's own styles (preloaded by the head script) applied now, after the
 * shell's, as the app's loader would add them (which then finds them present). `__twPageStyles` says when they have
 * loaded: the header is drawn only then, styled as the app draws it (a stylesheet a script adds holds back neither
 * scripts nor, outside Chromium's `blocking`, rendering).
 */
function pageStylesScript(): string {
  return `(() => {
  const loaded = (window.__twPageCss || []).map((file) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.crossOrigin = '';
    link.setAttribute('blocking', 'render');
    link.href = '/' + file;
    const done = new Promise((resolve) => {
      link.onload = () => resolve(true);
      link.onerror = () => resolve(false);
    });
    document.head.appendChild(link);
    return done;
  });
  window.__twPageStyles = Promise.all(loaded).then((all) => all.every(Boolean));
})();`;
}

/**
 * The head script after the snapshot's room: for a page without the server's snapshot, the snapshot call at once.
 * After the room, so it sees a snapshot the server wrote; after the stylesheets too, which it waits for (an inline
 * script runs once the styles before it have loaded), which costs nothing here: the cached copy's styles come from
 * the service worker.
 */
function snapshotAskScript(): string {
  return `(() => {
  // A page without the server's snapshot (the service worker's cached copy, on any route: whichever page opens
  // first may show prices): ask for one now, the earliest moment, in parallel with the cached files
  // (src/first-paint/market.ts takes the answer).
  if (!document.getElementById('tw-market')) {
    const asked = fetch(${JSON.stringify(SNAPSHOT_CALL)}, { credentials: 'same-origin' });
    window.__twSnapshot = asked.then((response) => ({ response, arrivedAt: Date.now() }));
    window.__twSnapshot.catch(() => {});
  }
})();`;
}

/**
 * The body script: the guest's hero on the home route, in the stored language, and under it, a frame later, the
 * market list from the snapshot the server wrote into the page, or, in the service worker's cached copy, from the one
 * it asks for at once (src/first-paint/market.ts); none once stale. A member opening a trading tab first gets its
 * price header from the page's snapshot (src/first-paint/trade-tab.ts).
 */
function firstPaintScript(
  heroes: Record<string, string>,
  words: Record<string, MarketWords>,
  tabs: Record<string, TabWords>,
): string {
  return `(() => {
  try {
    const heroes = ${inlineJson(heroes)};
    const stored = localStorage.getItem('lang');
    const lang = Object.hasOwn(heroes, stored) ? stored : ${JSON.stringify(DEFAULT_LANG)};
    const path = location.pathname.replace(/\\/+$/, '') || '/';
    const app = JSON.parse(localStorage.getItem('tw.app') || '{}');
    // A member as the app counts one (src/state/session.ts isLoggedIn): a session token and its user.
    const member = app && typeof app.token === 'string' && app.token !== '' && Boolean(app.user);
    const root = document.getElementById('root');
    const paint = window.__twPaint;
    if (root && !member && ${JSON.stringify(HOME_PATHS)}.includes(path)) {
      root.innerHTML = heroes[lang];
      // A cached copy of the page carries no snapshot: ask for one now, beside the cached scripts.
      const fetched = paint.fetchSnapshot().catch(() => {});
      // The list right after the hero's first frame, not before it (the hero is the largest paint), or when a
      // fetched snapshot arrives, whichever is later.
      const words = ${inlineJson(words)}[lang];
      const list = () => {
        try {
          paint.paintMarket(root, words, lang, ${STALE_AFTER_MS});
        } catch {
          // A snapshot that does not read: the app draws the list itself.
        }
      };
      requestAnimationFrame(() =>
        setTimeout(() => {
          list();
          fetched.then(list);
        }),
      );
    } else {
      // A member's trading tab opened first: its price header from the page's snapshot (an auth page: a guest is
      // sent to the login), once the page's styles are in.
      const words = ${inlineJson(tabs)}[lang];
      const drawn = (root && member ? window.__twPageStyles || Promise.resolve(false) : Promise.resolve(false)).then(
        (styled) => {
          try {
            return styled && paint.paintTab(root, words, lang, ${STALE_AFTER_MS});
          } catch {
            // A snapshot that does not read: the app draws the tab itself.
            return false;
          }
        },
      );
      // A fetched snapshot goes where the app looks for one (a page from the service worker's copy), and its price into
      // the tab's early header while the app has not read it.
      paint
        .fetchSnapshot()
        .catch(() => {})
        .then(() => drawn)
        .then((early) => early && paint.priceTab(root, lang, ${STALE_AFTER_MS}))
        .catch(() => {});
    }
  } catch {
    // No storage or no JSON: the app paints the page itself.
  }
})();`;
}

export function firstPaint(root: string): Plugin {
  return {
    name: 'tradewave:first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(page, ctx) {
        if (!ctx.bundle) return page;
        const { homeFiles, homeCss, tables, routes } = firstFiles(ctx.bundle);
        const heroes = Object.fromEntries(ALL_LANGS.map((lang) => [lang, heroMarkup(heroText(root, lang))]));
        const words = Object.fromEntries(ALL_LANGS.map((lang) => [lang, marketWords(root, lang)]));
        const tabs = Object.fromEntries(ALL_LANGS.map((lang) => [lang, tabWords(root, lang)]));
        // The home page's stylesheets after the build's own, then the snapshot's room: the browser sees every style
        // and script tag before the snapshot's bytes, and the head script, injected right after, looks for it.
        const styles = homeCss.map((href) => `<link rel="stylesheet" crossorigin href="/${href}">\n`).join('');
        // The preloads before the stylesheets: an inline script runs only once the stylesheets before it have loaded,
        // which on a slow network held every preload back by a round trip and the styles' download.
        const entry = page.indexOf('<script type="module"');
        if (entry < 0) throw new Error('first paint: index.html names no entry script');
        const preloads = `<script>${preloadScript(homeFiles, tables, routes)}</script>\n`;
        const html = (page.slice(0, entry) + preloads + page.slice(entry))
          .replace(MARKET_SNAPSHOT_MARK, '')
          .replace('</head>', `${styles}${MARKET_SNAPSHOT_MARK}\n</head>`);
        const tags: HtmlTagDescriptor[] = [
          { tag: 'script', children: pageStylesScript(), injectTo: 'head' },
          { tag: 'script', children: snapshotAskScript(), injectTo: 'head' },
          // At the end of the body: after #root, run once the stylesheets are in, right before the first paint: the
          // market painter, then the script that draws the hero and the list with it.
          { tag: 'script', children: await painter(root), injectTo: 'body' },
          { tag: 'script', children: firstPaintScript(heroes, words, tabs), injectTo: 'body' },
        ];
        return { html, tags };
      },
    },
  };
}
