import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, NodeResult, Result, RunOptions } from 'axe-core';
import type { Page, Request } from 'playwright-core';

/**
 * Accessibility checks for every page the browser tests visit (issue 8). The harness hands tests a page that is
 * watched: before anything that changes the page (a click, a fill, a key press, a navigation…) and when the test
 * ends, the page is checked with axe-core if it has changed since its last check: another URL, a reload, another
 * theme or language, a dialog opened or closed, error messages shown or cleared. A test author cannot forget it:
 * there is no call to make.
 *
 * A check waits until the page's own requests have finished (the route's module, its data), freezes transitions and
 * animations so colours are read as they end, runs axe in the page's theme and then the colour rules again in the
 * other theme, so a page whose test runs in dark only is still held to the light theme's contrast too. Serious and
 * critical violations fail the test with a readable list. Nothing is excluded.
 */

/** Impacts that fail a test. Moderate and minor findings are not reported. */
const FAILING: ReadonlySet<string> = new Set(['serious', 'critical']);

/** The rules whose outcome depends on the theme's colours: these run again in the other theme. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeWindow {
  axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> };
}

/**
 * axe-core on the page's document (the app has no frames), with all its rules or only `rules`. Its 550 KB source is
 * evaluated once per document, where @axe-core/playwright evaluated it twice per check, and only violations are
 * collected in full (`resultTypes`): the browser tests run axe hundreds of times, on two cores shared with the
 * servers and the other browsers (issue 24: CI time).
 */
export async function runAxe(page: Page, rules?: readonly string[]): Promise<AxeResults> {
  const loaded = await page.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    (only) => {
      const axe = (window as AxeWindow).axe;
      if (!axe) throw new Error('axe-core did not load');
      return axe.run(document, {
        resultTypes: ['violations'],
        ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
      });
    },
    rules ? [...rules] : null,
  );
}

/** How long a check waits for the page's requests to finish before it checks the page as it is. */
const SETTLE_LIMIT_MS = 5_000;

/** Methods that act on the page: a pending check runs before them. Reading and waiting methods never trigger one. */
const PAGE_ACTIONS = new Set([
  'goto',
  'reload',
  'goBack',
  'goForward',
  'click',
  'dblclick',
  'tap',
  'fill',
  'type',
  'press',
  'check',
  'uncheck',
  'setChecked',
  'selectOption',
  'setInputFiles',
  'hover',
  'focus',
  'dragAndDrop',
  'dispatchEvent',
]);
const LOCATOR_ACTIONS = new Set([
  'click',
  'dblclick',
  'tap',
  'fill',
  'clear',
  'type',
  'press',
  'pressSequentially',
  'check',
  'uncheck',
  'setChecked',
  'selectOption',
  'selectText',
  'setInputFiles',
  'hover',
  'focus',
  'blur',
  'dragTo',
  'drop',
  'dispatchEvent',
]);
const INPUT_ACTIONS = new Set(['press', 'type', 'insertText', 'down', 'up', 'click', 'dblclick', 'wheel', 'tap']);

/** Axe's findings that fail a test, from one run. */
export interface A11yFinding {
  theme: string;
  violation: Result;
}

/** What identifies a state worth checking: where the page is and what it shows. */
const stateKey = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const root = document.documentElement;
    const count = (selector: string) => document.querySelectorAll(selector).length;
    return [
      location.href,
      root.dataset.theme ?? 'dark',
      root.lang,
      count('[role="dialog"], [role="alertdialog"], dialog[open]'),
      count('[role="alert"]:not(:empty), [role="status"]:not(:empty)'),
      count('[aria-invalid="true"]'),
    ].join(' | ');
  });

/** Requests of the page itself: the app's modules, styles and API calls; the socket's transport is always open. */
const tracked = (request: Request): boolean =>
  !['websocket', 'eventsource', 'media'].includes(request.resourceType()) && !request.url().includes('/socket.io/');

/** Counts the page's requests in flight, so a check can wait until the page has what it asked for. */
class RequestTracker {
  private inFlight = new Set<Request>();
  private waiters: (() => void)[] = [];

  constructor(page: Page) {
    page.on('request', (r) => {
      if (tracked(r)) this.inFlight.add(r);
    });
    const done = (r: Request) => {
      if (!this.inFlight.delete(r) || this.inFlight.size > 0) return;
      for (const wake of this.waiters.splice(0)) wake();
    };
    // Requests a new document abandons end as failed (net::ERR_ABORTED), so none stays counted.
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  }

  get idle(): boolean {
    return this.inFlight.size === 0;
  }

  /** Resolves when no request is in flight, or at `deadline` (returns false then). */
  whenIdle(deadline: number): Promise<boolean> {
    if (this.idle) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/** Waits for the page's requests to finish and for React to commit what they brought (two frames with none new). */
async function settle(page: Page, requests: RequestTracker): Promise<void> {
  await page.waitForLoadState('load');
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  while (Date.now() < deadline) {
    if (!(await requests.whenIdle(deadline))) return;
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    if (requests.idle) return;
  }
}

const FREEZE_ID = 'e2e-a11y-freeze';

/** Transitions and animations end at once while a check reads colours, so no colour is read half-way. */
const freeze = (page: Page, on: boolean) =>
  page.evaluate(
    ([id, on]) => {
      document.getElementById(id)?.remove();
      if (!on) return;
      const style = document.createElement('style');
      style.id = id;
      style.textContent =
        '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; animation-delay: 0s !important; }';
      document.head.append(style);
    },
    [FREEZE_ID, on] as const,
  );

/** Sets the root's theme the way the app does (data-theme and color-scheme); returns how to put it back. */
async function switchTheme(page: Page, theme: string): Promise<() => Promise<void>> {
  const before = await page.evaluate((theme) => {
    const root = document.documentElement;
    const was = { theme: root.getAttribute('data-theme'), scheme: root.style.colorScheme };
    root.dataset.theme = theme;
    root.style.colorScheme = theme;
    return was;
  }, theme);
  return async () => {
    await page.evaluate((was) => {
      const root = document.documentElement;
      if (was.theme === null) root.removeAttribute('data-theme');
      else root.setAttribute('data-theme', was.theme);
      root.style.colorScheme = was.scheme;
    }, before);
  };
}

const failing = (results: AxeResults, theme: string): A11yFinding[] =>
  results.violations.filter((v) => FAILING.has(v.impact ?? '')).map((violation) => ({ theme, violation }));

const MAX_TARGETS = 8;

const nodeWhy = (node: NodeResult): string =>
  [...node.any, ...node.all, ...node.none]
    .map((c) => c.message)
    .filter(Boolean)
    .join('; ');

/** The readable list a failing check reports: rule, impact, where, one HTML snippet and why. */
export function describeFindings(where: string, findings: readonly A11yFinding[]): string {
  const nodes = findings.reduce((n, f) => n + f.violation.nodes.length, 0);
  const lines = [`Accessibility: ${findings.length} serious or critical axe violation(s), ${nodes} node(s), ${where}`];
  for (const { theme, violation } of findings) {
    const first = violation.nodes[0];
    const targets = violation.nodes.map((n) => n.target.map(String).join(' >>> '));
    const more = targets.length > MAX_TARGETS ? ` (+${targets.length - MAX_TARGETS} more)` : '';
    lines.push(
      `- ${violation.id} [${violation.impact}] in the ${theme} theme: ${violation.help}`,
      `    targets: ${targets.slice(0, MAX_TARGETS).join(', ')}${more}`,
    );
    if (first) {
      lines.push(`    html: ${first.html.replace(/\s+/g, ' ').slice(0, 300)}`);
      const why = nodeWhy(first);
      if (why) lines.push(`    why: ${why.slice(0, 400)}`);
    }
    lines.push(`    see: ${violation.helpUrl}`);
  }
  return lines.join('\n');
}

/**
 * Checks the page as it is now: all of axe's rules in the page's theme, the colour rules in the other theme.
 * Returns the serious and critical findings (the caller decides whether to throw).
 */
export async function auditPage(page: Page): Promise<A11yFinding[]> {
  await freeze(page, true);
  try {
    const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? 'dark');
    const findings = failing(await runAxe(page), theme);
    const other = theme === 'light' ? 'dark' : 'light';
    const restore = await switchTheme(page, other);
    try {
      const results = await runAxe(page, COLOUR_RULES);
      findings.push(...failing(results, other));
    } finally {
      await restore();
    }
    return findings;
  } finally {
    await freeze(page, false);
  }
}

/** Settles the page, checks it and throws the readable list when it has serious or critical violations. */
export async function checkA11y(page: Page, requests?: RequestTracker, why = 'checked'): Promise<void> {
  const started = Date.now();
  if (requests) await settle(page, requests);
  const url = new URL(page.url());
  const settled = Date.now();
  const findings = await auditPage(page);
  if (process.env.E2E_A11Y_LOG) {
    const ms = `settled in ${settled - started} ms, checked in ${Date.now() - settled} ms`;
    console.log(`a11y: ${url.pathname}${url.search} (${why}): ${findings.length} finding(s); ${ms}`);
  }
  if (findings.length > 0) {
    throw new Error(describeFindings(`on ${url.pathname}${url.search} (${why})`, findings));
  }
}

/** The watch over one page: which state was last checked, and whether the page changed since. */
class A11yWatch {
  private lastKey = '';
  private navigated = false;
  private running: Promise<void> | null = null;
  readonly requests: RequestTracker;

  constructor(private readonly page: Page) {
    this.requests = new RequestTracker(page);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.navigated = true;
    });
  }

  /**
   * Checks the page if it changed since the last check, or in any case with `always` (`why` says what is about to
   * happen, for the report).
   */
  async flush(why: string, always = false): Promise<void> {
    if (this.running) await this.running.catch(() => {});
    this.running = this.run(why, always).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(why: string, always: boolean): Promise<void> {
    if (this.page.isClosed() || this.page.url() === 'about:blank') return;
    const key = await this.currentKey();
    if (key === null || (key === this.lastKey && !this.navigated && !always)) return;
    this.navigated = false;
    await checkA11y(this.page, this.requests, why);
    // The page may have moved on while it settled; remember what was checked.
    this.lastKey = (await this.currentKey()) ?? key;
  }

  private async currentKey(): Promise<string | null> {
    try {
      return await stateKey(this.page);
    } catch {
      // A document is being replaced: the next action finds the new one.
      await this.page.waitForLoadState('domcontentloaded').catch(() => {});
      return stateKey(this.page).catch(() => null);
    }
  }
}

type AnyFn = (...args: unknown[]) => unknown;

const watches = new WeakMap<Page, A11yWatch>();

/**
 * Checks a watched page now, changed or not: for a state the test shows without acting on it (the harness's `shot`
 * calls it, so every state a test takes a picture of is checked too). Does nothing for a page the harness did not
 * hand out.
 */
export async function checkpoint(page: Page, why: string): Promise<void> {
  await watches.get(page)?.flush(why, true);
}

/**
 * The page a test gets: the same Playwright page, whose actions (and those of every locator, frame locator, keyboard,
 * mouse and touchscreen reached from it) first let the watch check the page if it changed. `check(why)` checks it
 * now (the harness calls it when a test ends).
 */
export function watchedPage(page: Page): { page: Page; check(why: string): Promise<void> } {
  const watch = new A11yWatch(page);
  const locatorProto = Object.getPrototypeOf(page.locator(':root'));
  const frameLocatorProto = Object.getPrototypeOf(page.frameLocator('iframe'));
  const proxies = new WeakMap<object, object>();

  const wrap = (value: unknown): unknown => {
    if (value === page) return proxyPage;
    if (typeof value !== 'object' || value === null) return value;
    const proto = Object.getPrototypeOf(value);
    if (proto === locatorProto) return proxy(value, LOCATOR_ACTIONS);
    if (proto === frameLocatorProto) return proxy(value, new Set());
    if (Array.isArray(value)) return value.map(wrap);
    return value;
  };

  function proxy<T extends object>(target: T, actions: ReadonlySet<string>, inputs?: Record<string, object>): T {
    const known = proxies.get(target);
    if (known) return known as T;
    const made = new Proxy(target, {
      get(obj, prop) {
        if (typeof prop === 'string' && inputs && prop in inputs) return inputs[prop];
        const value = Reflect.get(obj, prop, obj);
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        const fn = value as AnyFn;
        if (actions.has(prop)) {
          return async (...args: unknown[]) => {
            await watch.flush(`before ${prop}`);
            return wrap(await fn.apply(obj, args));
          };
        }
        return (...args: unknown[]) => {
          const result = fn.apply(obj, args);
          return result instanceof Promise ? result.then(wrap) : wrap(result);
        };
      },
    });
    proxies.set(target, made);
    return made;
  }

  const inputs = {
    keyboard: proxy(page.keyboard, INPUT_ACTIONS),
    mouse: proxy(page.mouse, INPUT_ACTIONS),
    touchscreen: proxy(page.touchscreen, INPUT_ACTIONS),
  };
  const proxyPage = proxy(page, PAGE_ACTIONS, inputs);
  watches.set(proxyPage, watch);
  watches.set(page, watch);
  return { page: proxyPage, check: (why) => watch.flush(why) };
}
