import {
  CHAR_WIDTH,
  FONT_SIZE,
  LINE_HEIGHT,
  type PlacedChart,
  type PlacedState,
  type Point,
  TITLE_HEIGHT,
} from './layout';

/**
 * A laid-out chart as a standalone SVG document, written by our code: states as rounded boxes (compound states
 * around their children, regions of a parallel state dashed, final states with a double border), each start dot with
 * its arrow, transitions as arrows labelled with their events and guards, timers (`after <delay>`) dashed. Every state is
 * a `<g data-state="<id>">`, so the app marks the live states by id (src/components/MachineChart.tsx). Colours are CSS
 * variables with light fallbacks: the app's themes set them; the README shows the fallbacks.
 */

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Coordinates keep one decimal: enough for the screen, and the files stay stable and small. */
const n = (v: number): string => String(Math.round(v * 10) / 10);

// Scoped to the drawing: an inline <svg>'s <style> applies to the whole page it sits in.
const STYLE = `
.m-chart .m-state>rect{fill:var(--machine-state,#f4f6fa);stroke:var(--machine-line,#5b6475);stroke-width:1.2}
.m-chart .m-compound>rect{fill:var(--machine-group,rgba(91,100,117,.06))}
.m-chart .m-region>rect{fill:none;stroke-dasharray:5 4}
.m-chart .m-final>rect.m-inner{fill:none}
.m-chart .m-state text{fill:var(--machine-text,#1d2230)}
.m-chart .m-state[data-current]>rect{stroke:var(--machine-current,#2f6fde);stroke-width:2.6;fill:var(--machine-current-bg,#e4edfc)}
.m-chart .m-edge path{fill:none;stroke:var(--machine-line,#5b6475);stroke-width:1.1}
.m-chart .m-timer path{stroke-dasharray:4 3}
.m-chart .m-edge text,.m-chart .m-title{fill:var(--machine-label,#3b4354)}
.m-chart .m-start circle{fill:var(--machine-text,#1d2230)}
.m-chart .m-start path{fill:none;stroke:var(--machine-text,#1d2230);stroke-width:1.1}
.m-chart text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:${FONT_SIZE}px}
`.trim();

const pathOf = (points: readonly Point[]): string =>
  points.map((p, i) => `${i === 0 ? 'M' : 'L'}${n(p.x)} ${n(p.y)}`).join(' ');

function stateSvg(s: PlacedState): string {
  const kind = s.children.length > 0 ? 'compound' : s.state.kind === 'final' ? 'final' : 'atomic';
  const classes = ['m-state', `m-${kind}`, ...(s.region ? ['m-region'] : [])].join(' ');
  const rect = `<rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.width)}" height="${n(s.height)}" rx="7"/>`;
  const inner =
    kind === 'final'
      ? `<rect class="m-inner" x="${n(s.x + 3)}" y="${n(s.y + 3)}" width="${n(s.width - 6)}" height="${n(s.height - 6)}" rx="5"/>`
      : '';
  const text =
    kind === 'compound'
      ? `<text x="${n(s.x + 10)}" y="${n(s.y + TITLE_HEIGHT - 6)}" font-weight="600">${escapeXml(s.state.key)}</text>`
      : `<text x="${n(s.x + s.width / 2)}" y="${n(s.y + s.height / 2 + FONT_SIZE / 2 - 1)}" text-anchor="middle">${escapeXml(s.state.key)}</text>`;
  const children = s.children.map(stateSvg).join('');
  return `<g class="${classes}" data-state="${escapeXml(s.state.id)}">${rect}${inner}${text}${children}</g>`;
}

/** The SVG document of `placed`, titled `title` (for screen readers and the file). */
export function chartSvg(placed: PlacedChart, title: string): string {
  // The app gives each inlined copy its own prefix for this id (src/components/MachineChart.tsx).
  const marker = `m-arrow-${placed.chart.machine.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const edges = placed.transitions
    .filter((t) => t.points.length > 1)
    .map((t) => {
      const { transition: tr, label } = t;
      const lines = tr.labels;
      const text = label
        ? `<text x="${n(label.x + 2)}" y="${n(label.y + LINE_HEIGHT - 3)}">${lines
            .map((l, i) => `<tspan x="${n(label.x + 2)}" dy="${i === 0 ? 0 : LINE_HEIGHT}">${escapeXml(l)}</tspan>`)
            .join('')}</text>`
        : '';
      const cls = tr.timer ? 'm-edge m-timer' : 'm-edge';
      return `<g class="${cls}" data-source="${escapeXml(tr.source)}" data-target="${escapeXml(tr.target)}"><path d="${pathOf(t.points)}" marker-end="url(#${marker})"/>${text}</g>`;
    })
    .join('');
  const starts = placed.starts
    .map(
      (s) =>
        `<g class="m-start"><circle cx="${n(s.dot.x + s.dot.width / 2)}" cy="${n(s.dot.y + s.dot.height / 2)}" r="${n(s.dot.width / 2)}"/>${
          s.points.length > 1 ? `<path d="${pathOf(s.points)}" marker-end="url(#${marker})"/>` : ''
        }</g>`,
    )
    .join('');
  // The machine's own transitions, taken in any state, as lines above the drawing ("any state: EVENT → target").
  const keyOf = (id: string) => id.slice(id.lastIndexOf('.') + 1);
  const anyLines = placed.anyState.flatMap((t) =>
    t.labels.map((l) => (t.target === t.source ? `any state: ${l}` : `any state: ${l} → ${keyOf(t.target)}`)),
  );
  const header = anyLines.length > 0 ? anyLines.length * LINE_HEIGHT + 10 : 0;
  const anyText = anyLines
    .map((l, i) => `<text class="m-title" x="4" y="${n((i + 1) * LINE_HEIGHT - 2)}">${escapeXml(l)}</text>`)
    .join('');
  const width = Math.max(placed.width, ...anyLines.map((l) => Math.ceil(l.length * CHAR_WIDTH) + 8)) + 2;
  const height = placed.height + header + 2;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="m-chart" lang="en" viewBox="-1 -1 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<style>${STYLE}</style>`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="var(--machine-line,#5b6475)"/></marker></defs>`,
    `<g class="m-any">${anyText}</g>`,
    `<g transform="translate(0 ${header})">`,
    `<g class="m-states">${placed.states.map(stateSvg).join('')}</g>`,
    `<g class="m-edges">${edges}${starts}</g>`,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
