import { Link } from '@tanstack/react-router';
import { lazy, memo, type ReactElement, type RefObject, Suspense, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverPosition } from '../../../../protocol/lever';
import { fromUnits, toUnits } from '../../../../protocol/rules/spot';
import { OrderFlow } from '../../../app/OrderFlow';
import { Button } from '../../../components/Button';
import { formatPrice } from '../../../lib/format';
import { formatAmount, formatPercent, formatPnl, formatSignedPercent, signClass } from '../format';
import { useFigures } from '../hooks/useFigures';
import { useOnScreen } from '../hooks/useOnScreen';
import { usePositionRow } from '../hooks/usePositionRow';
import type { FigureBoard } from '../live/figureBoard';
import { RowHead } from './RowHead';

// The inline forms load when one is opened: most rows are only watched.
const StopsForm = lazy(() => import('./StopsForm'));
const MarginForm = lazy(() => import('./MarginForm'));

type Panel = 'stops' | 'margin' | null;

/**
 * An open position (holding or closing): its live figures from the worker (floating P&L, ROE, liquidation price
 * and how far the mark is from it, coloured as it nears), published once a frame; and its actions through its own
 * order machine: close, take-profit and stop-loss, add margin (isolated), and its detail page.
 */
/** Memoised: a row renders again only when its position, board, scales or the price gate change. */
export const PositionRow = memo(function PositionRow({
  position,
  board,
  priceScale,
  quoteScale,
  fresh,
}: {
  position: LeverPosition;
  board: FigureBoard | null;
  priceScale: number;
  quoteScale: number;
  fresh: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const { view, snapshot, send } = usePositionRow(position, fresh);
  const [panel, setPanel] = useState<Panel>(null);
  const row = useRef<HTMLLIElement>(null);
  const shown = view.position ?? position;
  const margin = marginHeld(shown.initial_margin, shown.additional_margin, quoteScale);
  // The actions show while the position is open; the machine says which are on (stale prices switch them off).
  const holding = view.phase === 'holding';
  const toggle = (next: Panel) => setPanel((p) => (p === next ? null : next));

  return (
    <li
      ref={row}
      className="lever-row card is-safe"
      data-testid={`position-${shown.id}`}
      data-phase={view.phase}
      data-warning="safe"
    >
      <RowHead position={shown} labelKey={view.labelKey} />
      <LiveFacts position={shown} board={board} priceScale={priceScale} margin={margin} row={row} />
      {view.error ? (
        <p className="field-msg field-error" role="alert" data-testid="row-error">
          {view.error}
        </p>
      ) : null}
      <div className="lever-actions">
        {holding || view.phase === 'closeRequested' ? (
          <Button
            variant="secondary"
            className="btn-small"
            busy={view.phase === 'closeRequested'}
            disabled={!view.closeEnabled}
            aria-label={t('lever.row.closeLabel', { no: shown.order_no })}
            onClick={() => send({ type: 'CLOSE' })}
            data-testid="row-close"
          >
            {t('lever.row.close')}
          </Button>
        ) : null}
        {holding ? (
          <Button
            variant="ghost"
            className="btn-small"
            disabled={!view.setStopEnabled}
            aria-expanded={panel === 'stops'}
            onClick={() => toggle('stops')}
            data-testid="row-stops-open"
          >
            {t('lever.row.stopsAction')}
          </Button>
        ) : null}
        {holding && shown.margin_mode === 'isolated' ? (
          <Button
            variant="ghost"
            className="btn-small"
            disabled={!view.addMarginEnabled}
            aria-expanded={panel === 'margin'}
            onClick={() => toggle('margin')}
            data-testid="row-margin-open"
          >
            {t('lever.row.addMargin')}
          </Button>
        ) : null}
        <Link to="/pages/lever/info" search={{ id: shown.id }} className="lever-link">
          {t('lever.row.details')}
        </Link>
      </div>
      {panel === 'stops' && (view.setStopEnabled || view.phase === 'settingStop') ? (
        <Suspense fallback={null}>
          <StopsForm
            position={shown}
            priceScale={priceScale}
            busy={view.phase === 'settingStop'}
            onSave={(stops) => {
              send({ type: 'SET_STOP', stops });
              setPanel(null);
            }}
            onCancel={() => setPanel(null)}
          />
        </Suspense>
      ) : null}
      {panel === 'margin' && (view.addMarginEnabled || view.phase === 'addingMargin') ? (
        <Suspense fallback={null}>
          <MarginForm
            position={shown}
            priceScale={priceScale}
            quoteScale={quoteScale}
            currentLiquidation={board?.get(shown.id)?.liquidationPrice ?? shown.Liquidation_Price}
            busy={view.phase === 'addingMargin'}
            onAdd={(amount) => {
              send({ type: 'ADD_MARGIN', amount });
              setPanel(null);
            }}
            onCancel={() => setPanel(null)}
          />
        </Suspense>
      ) : null}
      <OrderFlow drawing="lever-order" snapshot={snapshot} title={t('machineChart.title')} />
    </li>
  );
});

/**
 * The row's figures. Only this part renders when the worker publishes new figures (once a frame at most), not the
 * row with its machine and buttons: with a hundred positions ticking, re-rendering whole rows cost most of each
 * frame. The warning level is the row's class, set here on the row's element for the same reason.
 */
function LiveFacts({
  position: shown,
  board,
  priceScale,
  margin,
  row,
}: {
  position: LeverPosition;
  board: FigureBoard | null;
  priceScale: number;
  margin: string | null;
  row: RefObject<HTMLLIElement | null>;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // Rows out of sight take no figures (and so do not render every frame); they catch up as they come into view.
  const onScreen = useOnScreen(row);
  const live = useFigures(onScreen ? board : null, shown.id);
  const warning = live?.warning ?? 'safe';
  const price = (v: string | null | undefined) => (v ? formatPrice(v, lang, priceScale) : '–');
  useLayoutEffect(() => {
    const li = row.current;
    if (!li) return;
    li.classList.remove('is-safe', 'is-near', 'is-danger');
    li.classList.add(`is-${warning}`);
    li.dataset.warning = warning;
  }, [row, warning]);
  return (
    <>
      <dl className="lever-facts">
        <div>
          <dt>{t('lever.row.pnl')}</dt>
          <dd className={signClass(live?.pnl ?? null)} data-testid="row-pnl">
            {live ? formatPnl(live.pnl, lang) : '–'}
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.roe')}</dt>
          <dd className={signClass(live?.roe ?? null)} data-testid="row-roe">
            {live?.roe ? formatSignedPercent(live.roe, lang) : '–'}
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.lots')}</dt>
          <dd>{shown.lots}</dd>
        </div>
        <div>
          <dt>{t('lever.row.entry')}</dt>
          <dd>{price(shown.entry_price)}</dd>
        </div>
        <div>
          <dt>{t('lever.row.mark')}</dt>
          <dd data-testid="row-mark">{price(live?.mark)}</dd>
        </div>
        <div>
          <dt>{t('lever.row.margin')}</dt>
          <dd data-testid="row-margin">{margin ? formatAmount(margin, lang) : '–'}</dd>
        </div>
        <div>
          <dt>{t('lever.row.liquidation')}</dt>
          <dd className="lever-liq" data-testid="row-liquidation">
            {price(live?.liquidationPrice)}
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.distance')}</dt>
          <dd className="lever-liq" data-testid="row-distance">
            {live?.liquidationDistance ? formatPercent(live.liquidationDistance, lang) : '–'}
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.stops')}</dt>
          <dd data-testid="row-stops">
            {price(shown.profit_take_price)} / {price(shown.stop_loss_price)}
          </dd>
        </div>
      </dl>
      {warning !== 'safe' ? (
        <p className="lever-warning" role="status">
          {t(warning === 'danger' ? 'lever.row.danger' : 'lever.row.near')}
        </p>
      ) : null}
    </>
  );
}

/** Initial plus added margin, exactly (USDT at the ledger's scale); null when either does not read. */
function marginHeld(initial: string | null, added: string, quoteScale: number): string | null {
  const a = initial === null ? null : toUnits(initial, quoteScale);
  const b = toUnits(added, quoteScale);
  return a === null || b === null ? null : fromUnits(a + b, quoteScale);
}
