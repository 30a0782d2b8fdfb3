import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/**
 * Draws the installed app's PNG icons (public/icons/) from public/favicon.svg, once, with the system Chromium the
 * browser tests use (no image library to install). Run again after the logo changes:
 * `npx tsx scripts/draw-icons.ts`, then commit the PNGs.
 *
 * - icon-192 / icon-512 (purpose "any"): the logo as it is, its rounded corners transparent.
 * - icon-maskable-512 (purpose "maskable"): full bleed in the logo's background colour, the logo scaled into the
 *   central safe zone (a circle of 80 % of the width), so a launcher's circle, squircle or square crop never cuts it.
 * - apple-touch-icon-180: full bleed too (iOS rounds the corners itself and paints transparent ones black).
 */
const root = join(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'public', 'favicon.svg'), 'utf8');
/** The logo's own background (its rounded square), used to fill the full-bleed icons. */
const background = /<rect[^>]*fill="(#[0-9a-fA-F]{3,8})"/.exec(svg)?.[1] ?? '#0b0f19';

interface IconSpec {
  file: string;
  size: number;
  /** Share of the width the logo takes; the rest is `fill` (transparent when null). */
  logo: number;
  fill: string | null;
}

const ICONS: IconSpec[] = [
  { file: 'icon-192.png', size: 192, logo: 1, fill: null },
  { file: 'icon-512.png', size: 512, logo: 1, fill: null },
  // 0.7 of the width keeps the drawn strokes (the inner 70 % of the logo) well inside the 80 % safe circle.
  { file: 'icon-maskable-512.png', size: 512, logo: 0.7, fill: background },
  { file: 'apple-touch-icon-180.png', size: 180, logo: 0.86, fill: background },
];

const page = (icon: IconSpec) => `<!doctype html><html><head><style>
  html, body { margin: 0; width: ${icon.size}px; height: ${icon.size}px; background: ${icon.fill ?? 'transparent'}; }
  body { display: grid; place-items: center; }
  svg { width: ${Math.round(icon.size * icon.logo)}px; height: ${Math.round(icon.size * icon.logo)}px; display: block; }
</style></head><body>${svg}</body></html>`;

async function main(): Promise<void> {
  const out = join(root, 'public', 'icons');
  mkdirSync(out, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'draw-icons-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    deviceScaleFactor: 1,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const tab = context.pages()[0] ?? (await context.newPage());
    for (const icon of ICONS) {
      await tab.setViewportSize({ width: icon.size, height: icon.size });
      await tab.setContent(page(icon));
      await tab.screenshot({ path: join(out, icon.file), omitBackground: icon.fill === null });
      console.log(`public/icons/${icon.file} (${icon.size}x${icon.size})`);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

await main();
