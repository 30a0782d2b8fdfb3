import { type ReactElement, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { Icon } from './Icon';

/**
 * The drawings `npm run machines` writes from the running code (docs/machines/<id>.svg; `npm test` fails when they
 * are out of date), each loaded only when a page shows it. They are our own generated files with every text escaped.
 */
const DRAWINGS = import.meta.glob<string>('../../docs/machines/*.svg', { query: '?raw', import: 'default' });

const ZOOM_STEP = 1.25;
const ZOOM_MIN = 0.2;
const ZOOM_MAX = 2;
/** The first view on a phone: the labels stay readable (about 9px), the current state centred. */
const ZOOM_FIRST = 0.8;

/** The drawing's own width (its `width` attribute), which zooming scales. */
const naturalWidth = (el: HTMLElement | null): number => Number(el?.querySelector('svg')?.getAttribute('width') ?? 0);

/**
 * An order's state machine drawn beside it with the order's current states marked (their state ids, as the drawing's
 * `data-state`), for QA engineers who check order flows on the machines that drive them (DESIGN "Who uses it"). Pans
 * by scrolling (touch or mouse) and zooms with its buttons; opens fitted to the width with the current state in view.
 */
export function MachineChart({
  drawing,
  current,
  title,
  announce = false,
}: {
  /** The registry id of the machine (machines/registry.ts), e.g. `lever-order`. */
  drawing: string;
  /** The states to mark (the drawing's `data-state` ids); none for the machine alone. */
  current: readonly string[];
  title: string;
  /** Say each change of state to screen readers: on a page about one order, not on every row of a list. */
  announce?: boolean;
}): ReactElement {
  const { t } = useTranslation();
  // Each inlined copy gets its own ids (a list shows one drawing per row; the arrowhead's id must stay unique).
  const uid = useId().replace(/[^A-Za-z0-9_-]/g, '');
  const headingId = `${uid}-title`;
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [zoom, setZoom] = useState<number | 'fit' | null>(null);
  const view = useRef<HTMLElement>(null);
  const currentKey = current.join(' ');

  useEffect(() => {
    setSvg(null);
    setFailed(false);
    const load = DRAWINGS[`../../docs/machines/${drawing}.svg`];
    if (!load) {
      setFailed(true);
      return;
    }
    let live = true;
    load().then(
      (text) => live && setSvg(text.replaceAll('m-arrow-', `${uid}-m-arrow-`)),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [drawing, uid]);

  // Readable at first (or whole when it fits), whole with "Fit"; each zoom step scales the drawing's own size (its
  // viewBox keeps the shape).
  useLayoutEffect(() => {
    const el = view.current;
    const drawn = el?.querySelector('svg');
    if (!el || !drawn || svg === null) return;
    const width = naturalWidth(el);
    const fit = Math.min(1, el.clientWidth / Math.max(width, 1));
    const scale = zoom === 'fit' ? fit : (zoom ?? Math.max(fit, ZOOM_FIRST));
    // Whole CSS pixels for the layout width (a drawing size, not an amount).
    drawn.style.width = `${Math.round(width * scale)}px`;
  }, [svg, zoom]);

  // Mark the current states and bring the first into view when the order moves (after the size is set).
  useLayoutEffect(() => {
    const el = view.current;
    if (!el || svg === null) return;
    for (const g of el.querySelectorAll('[data-current]')) g.removeAttribute('data-current');
    let first: Element | null = null;
    for (const id of currentKey.split(' ')) {
      const g = el.querySelector(`g[data-state="${CSS.escape(id)}"]`);
      g?.setAttribute('data-current', '');
      first ??= g;
    }
    if (first) {
      const box = first.getBoundingClientRect();
      const frame = el.getBoundingClientRect();
      el.scrollLeft += box.left - frame.left - frame.width / 2 + box.width / 2;
      el.scrollTop += box.top - frame.top - frame.height / 2 + box.height / 2;
    }
  }, [svg, currentKey]);

  const zoomBy = (factor: number) => {
    const el = view.current;
    const width = naturalWidth(el);
    if (!el || width === 0) return;
    const now = (el.querySelector('svg')?.getBoundingClientRect().width ?? width) / width;
    setZoom(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, now * factor)));
  };

  const names = current.map((id) => id.slice(id.lastIndexOf('.') + 1)).join(', ');
  return (
    <div className="card machine-chart" data-testid="machine-chart" data-drawing={drawing}>
      <h3 className="machine-chart-title" id={headingId}>
        {title}
      </h3>
      {/* Without current states (the console's Machines screen) the drawing is the machine alone: no order to mark. */}
      {current.length > 0 ? (
        <>
          <p className="machine-chart-note">{t('machineChart.note')}</p>
          <p className="machine-chart-now" aria-live={announce ? 'polite' : undefined} data-testid="machine-chart-now">
            {t('machineChart.now')} <strong>{names}</strong>
          </p>
        </>
      ) : null}
      {failed ? (
        <p className="machine-chart-note">{t('common.loadFailed')}</p>
      ) : svg === null ? (
        <p className="machine-chart-note">{t('common.loading')}</p>
      ) : (
        <>
          <div className="machine-chart-tools">
            <Button variant="secondary" onClick={() => zoomBy(1 / ZOOM_STEP)} aria-label={t('machineChart.zoomOut')}>
              <Icon name="minus" size={18} />
            </Button>
            <Button variant="secondary" onClick={() => zoomBy(ZOOM_STEP)} aria-label={t('machineChart.zoomIn')}>
              <Icon name="plus" size={18} />
            </Button>
            <Button variant="ghost" onClick={() => setZoom('fit')}>
              {t('machineChart.fit')}
            </Button>
          </div>
          {/* biome-ignore-start lint/security/noDangerouslySetInnerHtml: our own generated drawing, every text escaped (machines/drawing/svg.ts) */}
          {/* biome-ignore-start lint/a11y/noNoninteractiveTabindex: a region that scrolls both ways must take focus, so a keyboard pans it with the arrow keys (axe scrollable-region-focusable) */}
          <section
            className="machine-chart-view"
            ref={view}
            tabIndex={0}
            aria-labelledby={headingId}
            dangerouslySetInnerHTML={{ __html: svg }}
          />
          {/* biome-ignore-end lint/a11y/noNoninteractiveTabindex: see above */}
          {/* biome-ignore-end lint/security/noDangerouslySetInnerHtml: see above */}
        </>
      )}
    </div>
  );
}
