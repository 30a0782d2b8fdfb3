import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserPerTest, type RunningServer, shot, startServer } from './harness';
import { text } from './locale';
import { loggedInUser } from './users';

/**
 * Issue 15: every control reachable and usable by keyboard, with a visible focus. Tab walks the home page, the spot
 * trade page and the spot page's pair picker (a modal dialog) in a real Chromium at 375x812; at each stop the focused
 * element must be drawn and not hidden under the fixed bars, have an accessible name, and look different from when
 * it is not focused (its outline or shadow, or its field's ring). The dialog keeps Tab inside, Enter picks a pair,
 * Escape closes it and focus goes back to where it was.
 */
let server: RunningServer;
let page: Page;

/** More stops than any of these pages has: a walk that does not come round by then is stuck. */
const MAX_STOPS = 160;

/** What one Tab stop looked like. */
interface Stop {
  /** Tag, classes and test id: enough to find it in a failure message. */
  what: string;
  /** Role and accessible name as the accessibility tree has them (`- button "Menu"`). */
  aria: string;
  visible: boolean;
  /** The outline and shadow of it, its parent (a field's ring) and its next sibling (a styled checkbox), unfocused. */
  blurred: string;
  focused: string;
  /** The document's body had focus: the walk left the page's controls (the end of the order). */
  body: boolean;
}

/** Transitions end at once, so a focus ring is read as it ends (its colour fades in over 0.15 s otherwise). */
const NO_TRANSITIONS = '*, *::before, *::after { transition: none !important; }';

/**
 * The focused element, described in the page; it is blurred for a moment to read how it looks unfocused, then focused
 * again, so the next Tab goes on from it (and a dialog's own Tab handling sees focus inside).
 */
function readStop(): Promise<Omit<Stop, 'aria'>> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { what: 'body', visible: false, blurred: '', focused: '', body: true };
    const look = () =>
      [el, el.parentElement, el.nextElementSibling]
        .map((n) => {
          if (!n) return '';
          const s = getComputedStyle(n);
          return `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} / ${s.boxShadow}`;
        })
        .join(' | ');
    // A visually hidden input (a styled checkbox) is seen through its label.
    const shown = (el instanceof HTMLInputElement && el.labels?.[0]) || el;
    const r = shown.getBoundingClientRect();
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    const onTop = !!top && (shown.contains(top) || top.contains(shown) || el.contains(top));
    const inView = r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight;
    const focused = look();
    el.blur();
    const blurred = look();
    el.focus({ preventScroll: true });
    return {
      what: `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}`,
      visible: inView && onTop,
      focused,
      blurred,
      body: false,
    };
  });
}

/**
 * Presses Tab until focus comes round to where it started (or leaves the page's controls) and returns each stop.
 */
async function walk(within?: Locator): Promise<Stop[]> {
  await page.addStyleTag({ content: NO_TRANSITIONS });
  const stops: Stop[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < MAX_STOPS; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => {
      const el = document.activeElement as (HTMLElement & { __tabStop?: string }) | null;
      if (!el || el === document.body) return 'body';
      el.__tabStop ??= String(Math.random());
      return el.__tabStop;
    });
    if (within && id !== 'body') {
      expect(await within.evaluate((d) => d.contains(document.activeElement)), 'focus stays in the dialog').toBe(true);
    }
    if (seen.has(id) || (id === 'body' && stops.length > 0)) return stops;
    seen.add(id);
    const aria = id === 'body' ? '' : await page.locator(':focus').ariaSnapshot();
    stops.push({ ...(await readStop()), aria: aria.split('\n')[0] ?? '' });
  }
  throw new Error(`Tab did not come round within ${MAX_STOPS} stops`);
}

/** `- button "Menu"` → its name; a role line without a name (`- link`) has none. */
const nameOf = (aria: string): string =>
  aria
    .match(/^- [\w-]+ (?:"(.+)"|\/(.+)\/)/)
    ?.slice(1)
    .find(Boolean) ?? '';

/** Every stop drawn, named and marked; the failures listed together, so one run shows them all. */
function expectUsableStops(stops: readonly Stop[], minimum: number): void {
  expect(stops.length).toBeGreaterThanOrEqual(minimum);
  const problems = stops.flatMap((s) => [
    ...(s.visible ? [] : [`${s.what}: not visible when focused`]),
    ...(nameOf(s.aria) ? [] : [`${s.what}: no accessible name (${s.aria})`]),
    ...(s.focused !== s.blurred ? [] : [`${s.what}: no focus indicator (${s.focused})`]),
  ]);
  expect(problems).toEqual([]);
}

describe('the keyboard', () => {
  browserPerTest(
    () => startServer(),
    (s) => {
      server = s;
    },
    (b) => {
      page = b.page;
    },
  );

  it('reaches every control of the home page, each named, visible and marked when focused', async () => {
    await loggedInUser(server, page, 'keyboard-home@example.com', { lang: 'de' });
    await page.goto(`${server.url}/pages/index/index`);
    await expect.poll(() => page.getByTestId('last').first().textContent(), { timeout: 15_000 }).toMatch(/\d/);
    const stops = await walk();
    // The navigation bar's menu, the market list's controls and all six tabs are on the way.
    const names = stops.map((s) => nameOf(s.aria));
    expect(names).toContain(text('de', 'nav.menu'));
    for (const tab of ['home', 'spot', 'option', 'lever', 'finance', 'assets']) {
      expect(names).toContain(text('de', `tabs.${tab}`));
    }
    expectUsableStops(stops, 20);
  });

  it('trades on the spot page and picks a pair in its dialog by keyboard alone', async () => {
    await loggedInUser(server, page, 'keyboard-spot@example.com', { theme: 'light' });
    await page.goto(`${server.url}/pages/trade/index?symbol=BTC`);
    await expect.poll(() => page.getByTestId('spot-last').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    const stops = await walk();
    expectUsableStops(stops, 15);
    // The ticket's side and type switches, its quantity and the submit are among them. The type switch is a tab list:
    // one stop (the chosen type, market), and the arrow keys choose within it.
    const names = stops.map((s) => nameOf(s.aria));
    expect(names).toContain(text('en', 'spot.market'));
    expect(names).not.toContain(text('en', 'spot.limit'));
    expect(names.some((n) => n.startsWith(text('en', 'spot.submitBuy').split('{{')[0] ?? '-'))).toBe(true);
    const types = page.getByRole('tablist', { name: text('en', 'spot.orderType') });
    await types.getByRole('tab', { name: text('en', 'spot.market') }).focus();
    await page.keyboard.press('ArrowRight');
    const limit = types.getByRole('tab', { name: text('en', 'spot.limit') });
    expect(await limit.getAttribute('aria-selected')).toBe('true');
    expect(await limit.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.getByLabel(text('en', 'spot.price')).waitFor();

    // The pair picker opens from its button with Enter; focus moves into it and Tab stays inside.
    const opener = page.getByTestId('pair-button');
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: text('en', 'spot.choosePair') });
    await dialog.waitFor();
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await shot(page, 'keyboard-pair-picker');
    const inDialog = await walk(dialog);
    expectUsableStops(inDialog, 3);
    expect(inDialog.map((s) => nameOf(s.aria))).toContain(text('en', 'spot.search'));

    // Escape closes it and focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await opener.evaluate((b) => b === document.activeElement)).toBe(true);

    // Enter on a pair picks it.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.getByLabel(text('en', 'spot.search')).focus();
    await page.keyboard.type('ETH');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('pair-ETH');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('symbol') === 'ETH');
    await dialog.waitFor({ state: 'detached' });
  });
});
