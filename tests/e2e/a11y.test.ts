import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type Browser, browserPerTest, type RunningServer, startServer } from './harness';

/**
 * The accessibility watch itself (./a11y.ts): a page that changes is checked before the test's next action, in both
 * themes, and a violation fails with a readable list. Each case puts a known violation on a real page and removes it
 * again, so the check at the end of the test passes.
 */
let server: RunningServer;
let browser: Browser;
let page: Page;

browserPerTest(
  startServer,
  (s) => {
    server = s;
  },
  (b) => {
    browser = b;
    page = b.page;
  },
);

/** Adds an element to the page (shown as an alert, so the page counts as changed) and returns how to remove it. */
async function inject(html: string): Promise<() => Promise<void>> {
  await page.evaluate((markup) => {
    const box = document.createElement('div');
    box.id = 'a11y-probe';
    box.setAttribute('role', 'alert');
    box.innerHTML = markup;
    document.querySelector('.page-body')?.prepend(box);
  }, html);
  return () => page.evaluate(() => document.getElementById('a11y-probe')?.remove());
}

const failureOf = (action: Promise<unknown>) =>
  action.then(
    () => '',
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );

describe('the accessibility watch', () => {
  it('fails the next action on a changed page with rule, impact, target and HTML', async () => {
    await page.goto(`${server.url}/pages/user/login/login`);
    await page.getByRole('heading').first().waitFor();
    const remove = await inject('<p class="probe-grey" style="color:#777;background:#888">Kaum lesbar</p>');
    const message = await failureOf(page.getByRole('textbox').first().click());
    expect(message).toContain('Accessibility: 2 serious or critical axe violation(s), 2 node(s)');
    expect(message).toContain('on /pages/user/login/login (before click)');
    expect(message).toContain('- color-contrast [serious] in the dark theme');
    expect(message).toContain('- color-contrast [serious] in the light theme');
    expect(message).toContain('targets: .probe-grey');
    expect(message).toContain('html: <p class="probe-grey"');
    expect(message).toContain('contrast of');
    await remove();
  });

  it('holds a page shown in dark to the light theme too', async () => {
    await page.goto(`${server.url}/pages/user/login/login`);
    await page.getByRole('heading').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    // The dark theme's muted grey on the page background: readable in dark, too faint on the light background.
    const remove = await inject('<p class="probe-fixed" style="color:#8892aa;background:var(--bg)">Nur im Dunkeln</p>');
    const message = await failureOf(browser.checkA11y('probe'));
    expect(message).toContain('- color-contrast [serious] in the light theme');
    expect(message).not.toContain('in the dark theme');
    expect(message).toContain('targets: .probe-fixed');
    // The check put the page's own theme back.
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await remove();
  });
});
