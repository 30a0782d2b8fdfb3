import { Link } from '@tanstack/react-router';
import { lazy, memo, type ReactElement, type RefObject, Suspense, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverOrderRef } from '../../../../machines/lever/book.machine';
import type { FigureBoard } from '../../../../machines/lever/figure-board';
import type { LeverPosition } from '../../../../protocol/lever';
import { fromUnits, toUnits } from '../../../../protocol/rules/spot';
import { OrderFlow } from '../../../app/OrderFlow';
import { Button } from '../../../components/Button';
import { formatPrice } from '../../../lib/format';
import { confirmsOrders } from '../../../state/order-confirmation';
import { formatPercent, formatSignedPercent, formatUsdt, signClass } from '../format';
import { useOnScreen } from '../hooks/useOnScreen';
import { useOrderActor } from '../hooks/useOrderActor';
import { writeCell } from '../live-cells';
import { RowHead } from './RowHead';

// The inline forms load when one is opened: most rows are only watched.
const StopsForm = lazy(() => import('./StopsForm'));
const MarginForm = lazy(() => import('./MarginForm'));
const loadCloseConfirm = () => import('./CloseConfirm');
const CloseConfirm = lazy(loadCloseConfirm);
const loadReverseConfirm = () => import('./ReverseConfirm');
const ReverseConfirm = lazy(loadReverseConfirm);

type Panel = 'stops' | 'margin' | null;

/**
 * An open position (holding or closing): its live figures from the worker (floating P&L, ROE, liquidation price
 * and how far the mark is from it, coloured as it nears), written once a frame; and its actions through its own
 * order machine in the live book: close, reverse (always on its sheet: two trades at once), take-profit and
 * stop-loss, add margin (isolated), and its detail page.
 * Memoised: a row renders again only when its machine's snapshot, its position copy or its scales change.
 */
export const PositionRow = memo(function PositionRow({
  actor,
  position,
  figures,
  priceScale,
  quoteScale,
}: {
  /** The position's machine in the live book. */
  actor: LeverOrderRef;
  position: LeverPosition;
  figures: FigureBoard;
  priceScale: number;
  quoteScale: number;
}): ReactElement {
  const { t } = useTranslation();
  const { view, snapshot, send } = useOrderActor(actor);
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
      <LiveFacts position={shown} figures={figures} priceScale={priceScale} margin={margin} row={row} />
      {view.error ? (
        <p className="field-msg field-error" role="alert" data-testid="row-error">
          {view.error}
        </p>
      ) : null}
      <div className="lever-actions">
        {holding || view.phase === 'closeRequested' || view.reviewing === 'close' ? (
          <Button
            variant="secondary"
            className="btn-small"
            busy={view.phase === 'closeRequested'}
            disabled={!view.closeEnabled}
            aria-label={t('lever.row.closeLabel', { no: shown.order_no })}
            // The trader's setting: the sheet first (the default), or the close at once.
            onClick={() => send({ type: confirmsOrders('lever') ? 'REVIEW_CLOSE' : 'CLOSE' })}
            onPointerDown={loadCloseConfirm}
            onFocus={loadCloseConfirm}
            data-testid="row-close"
          >
            {t('lever.row.close')}
          </Button>
        ) : null}
        {holding || view.phase === 'reverseRequested' || view.reviewing === 'reverse' ? (
          <Button
            variant="ghost"
            className="btn-small"
            busy={view.phase === 'reverseRequested'}
            disabled={!view.reverseEnabled}
            aria-label={t('lever.row.reverseLabel', { no: shown.order_no })}
            onClick={() => send({ type: 'REVIEW_REVERSE' })}
            onPointerDown={loadReverseConfirm}
            onFocus={loadReverseConfirm}
            data-testid="row-reverse"
          >
            {t('lever.row.reverse')}
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
      {view.reviewing === 'close' ? (
        <Suspense fallback={null}>
          <CloseConfirm
            position={shown}
            priceScale={priceScale}
            quoteScale={quoteScale}
            confirmEnabled={view.confirmEnabled}
            blocked={view.blockedByStalePrices}
            onConfirm={(lots) => send(lots === undefined ? { type: 'CONFIRM' } : { type: 'CONFIRM', lots })}
            onBack={() => send({ type: 'BACK' })}
          />
        </Suspense>
      ) : null}
      {view.reviewing === 'reverse' ? (
        <Suspense fallback={null}>
          <ReverseConfirm
            position={shown}
            priceScale={priceScale}
            quoteScale={quoteScale}
            confirmEnabled={view.confirmEnabled}
            blocked={view.blockedByStalePrices}
            onConfirm={() => send({ type: 'CONFIRM' })}
            onBack={() => send({ type: 'BACK' })}
          />
        </Suspense>
      ) : null}
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
            currentLiquidation={figures.get(shown.id)?.liquidationPrice ?? shown.Liquidation_Price}
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
 * The row's figures, written straight into their cells when the worker publishes new ones (once a frame at most):
 * neither the row nor this part renders with a price, only with the position (with a hundred positions ticking,
 * rendering rows cost most of each frame). The warning level is the row's class and a note, written the same way.
 */
function LiveFacts({
  position: shown,
  figures,
  priceScale,
  margin,
  row,
}: {
  position: LeverPosition;
  figures: FigureBoard;
  priceScale: number;
  margin: string | null;
  row: RefObject<HTMLLIElement | null>;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const pnl = useRef<HTMLElement>(null);
  const roe = useRef<HTMLElement>(null);
  const mark = useRef<HTMLElement>(null);
  const liquidation = useRef<HTMLElement>(null);
  const distance = useRef<HTMLElement>(null);
  const note = useRef<HTMLParagraphElement>(null);
  // Rows out of sight take no figures; they catch up as they come into view.
  const onScreen = useOnScreen(row);
  const id = shown.id;
  const price = (v: string | null | undefined) => (v ? formatPrice(v, lang, priceScale) : '–');
  useLayoutEffect(() => {
    if (!onScreen) return;
    const draw = () => {
      const live = figures.get(id);
      const warning = live?.warning ?? 'safe';
      writeCell(pnl.current, live ? formatUsdt(live.pnl, lang) : '–', signClass(live?.pnl ?? null));
      writeCell(roe.current, live?.roe ? formatSignedPercent(live.roe, lang) : '–', signClass(live?.roe ?? null));
      writeCell(mark.current, live?.mark ? formatPrice(live.mark, lang, priceScale) : '–');
      writeCell(
        liquidation.current,
        live?.liquidationPrice ? formatPrice(live.liquidationPrice, lang, priceScale) : '–',
      );
      writeCell(distance.current, live?.liquidationDistance ? formatPercent(live.liquidationDistance, lang) : '–');
      const li = row.current;
      if (li && li.dataset.warning !== warning) {
        li.classList.remove('is-safe', 'is-near', 'is-danger');
        li.classList.add(`is-${warning}`);
        li.dataset.warning = warning;
      }
      const said = note.current;
      if (said) {
        said.hidden = warning === 'safe';
        writeCell(said, warning === 'safe' ? '' : t(warning === 'danger' ? 'lever.row.danger' : 'lever.row.near'));
      }
    };
    draw();
    return figures.subscribe(id, draw);
  }, [figures, id, onScreen, lang, priceScale, row, t]);
  return (
    <>
      <dl className="lever-facts">
        <div>
          <dt>{t('lever.row.pnl')}</dt>
          <dd ref={pnl} data-testid="row-pnl">
            –
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.roe')}</dt>
          <dd ref={roe} data-testid="row-roe">
            –
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
          <dd ref={mark} data-testid="row-mark">
            –
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.margin')}</dt>
          <dd data-testid="row-margin">{margin ? formatUsdt(margin, lang) : '–'}</dd>
        </div>
        <div>
          <dt>{t('lever.row.liquidation')}</dt>
          <dd ref={liquidation} className="lever-liq" data-testid="row-liquidation">
            –
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.distance')}</dt>
          <dd ref={distance} className="lever-liq" data-testid="row-distance">
            –
          </dd>
        </div>
        <div>
          <dt>{t('lever.row.stops')}</dt>
          <dd data-testid="row-stops">
            {price(shown.profit_take_price)} / {price(shown.stop_loss_price)}
          </dd>
        </div>
      </dl>
      <p ref={note} className="lever-warning" role="status" hidden />
    </>
  );
}

/** Initial plus added margin, exactly (USDT at the ledger's scale); null when either does not read. */
function marginHeld(initial: string | null, added: string, quoteScale: number): string | null {
  const a = initial === null ? null : toUnits(initial, quoteScale);
  const b = toUnits(added, quoteScale);
  return a === null || b === null ? null : fromUnits(a + b, quoteScale);
}
