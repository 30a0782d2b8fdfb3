import { lazy, type ReactElement, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverOrderRef } from '../../../../machines/lever/book.machine';
import type { LeverAccount, LeverInstrument, LeverOrderType, MarginMode } from '../../../../protocol/lever';
import type { StopKind } from '../../../../protocol/rules/lever';
import { toUnits } from '../../../../protocol/rules/spot';
import { Announcement } from '../../../components/Announcement';
import { Switch } from '../../../components/Controls';
import { Field } from '../../../components/Field';
import { Icon } from '../../../components/Icon';
import { Segmented } from '../../../components/Segmented';
import { useQuote } from '../../../hooks/useQuote';
import { amountKeystrokes, wireAmount } from '../../../lib/amount-input';
import { formatNumber } from '../../../lib/format';
import { errorText } from '../../../lib/i18n';
import { confirmsOrders } from '../../../state/order-confirmation';
import { useOrderActor } from '../hooks/useOrderActor';
import { type StopBasis, type StopUnit, stopWirePrice } from '../stop-input';
import { draftOf, type LeverTicket as Ticket, type TicketField, type TicketProblem, ticketProblem } from '../ticket';
import { StopPriceField } from './StopPriceField';
import { LeverageSlider, SideSwitch } from './TicketChoices';
import { TicketEstimate } from './TicketEstimate';

/** SPEC 8's prompt is rare (a refused real-account order): it loads when it is needed. */
const VerifyDialog = lazy(() => import('./VerifyDialog'));
/** The confirmation sheet loads when the trader reaches for the button, so it is there by the time it is needed. */
const loadOpenConfirm = () => import('./OpenConfirm');
const OpenConfirm = lazy(loadOpenConfirm);

const FIELDS: readonly string[] = ['lots', 'price', 'take_profit', 'stop_loss'] satisfies TicketField[];
/** Phases in which the server has the order: its row in the lists follows it from here. */

const defaultLeverage = (instrument: LeverInstrument): number =>
  instrument.leverages.includes(10) ? 10 : (instrument.leverages[0] ?? 1);

/**
 * The lever ticket: long or short, market or limit, isolated or cross, the instrument's leverages, lots, optional
 * take-profit and stop-loss, and before confirming what it would hold (margin and open fee under the published
 * rules) beside the available balance. The order machine sends it with its request id; stale prices switch the
 * button off. Once the server has the order the ticket lets go of it: the lists show it from then on.
 */
export function LeverTicket({
  book,
  instrument,
  quoteScale,
  available,
  ticket: ticketActor,
}: {
  book: LeverAccount;
  instrument: LeverInstrument;
  quoteScale: number;
  available: string;
  /** The book's ticket machine (machines/lever/book.machine.ts). */
  ticket: LeverOrderRef;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const { view, send } = useOrderActor(ticketActor);
  // The estimate and the checks follow the instrument's last price: the ticket renders with it, nothing else does.
  const last = useQuote(instrument.symbol).quote?.last ?? null;
  const lang = i18n.language;
  const [side, setSide] = useState<Ticket['side']>('long');
  const [type, setType] = useState<LeverOrderType>('market');
  const [marginMode, setMarginMode] = useState<MarginMode>('isolated');
  const [leverage, setLeverage] = useState(() => defaultLeverage(instrument));
  const [lots, setLots] = useState('1');
  const [price, setPrice] = useState('');
  const [takeProfitOn, setTakeProfitOn] = useState(false);
  const [takeProfit, setTakeProfit] = useState('');
  const [stopLossOn, setStopLossOn] = useState(false);
  const [stopLoss, setStopLoss] = useState('');
  const [takeProfitUnit, setTakeProfitUnit] = useState<StopUnit>('price');
  const [stopLossUnit, setStopLossUnit] = useState<StopUnit>('price');
  const [problem, setProblem] = useState<TicketProblem | null>(null);
  const [reviewed, setReviewed] = useState<Ticket | null>(null);

  // An ROE is turned into a price from the price the order expects to open at: its limit, else the last price.
  const basis: StopBasis = {
    side,
    entry: type === 'limit' ? wireAmount(price, lang) || null : last,
    leverage,
    priceScale: instrument.price_scale,
  };
  const takeProfitPrice = stopWirePrice(takeProfitUnit, wireAmount(takeProfit, lang), 'take_profit', basis);
  const stopLossPrice = stopWirePrice(stopLossUnit, wireAmount(stopLoss, lang), 'stop_loss', basis);
  const ticket: Ticket = {
    side,
    type,
    marginMode,
    leverage,
    lots,
    price: wireAmount(price, lang),
    takeProfitOn,
    takeProfit: takeProfitPrice ?? '',
    stopLossOn,
    stopLoss: stopLossPrice ?? '',
  };

  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    setProblem(null);
  };
  /** An ROE typed that stands for no price (unreadable, or under one tick from the entry). */
  const roeProblem = (): TicketProblem | null => {
    // Without a readable entry (a limit price not yet valid) the limit price is the problem: ticketProblem says so.
    if (basis.entry === null || toUnits(basis.entry, basis.priceScale) === null) return null;
    if (takeProfitOn && takeProfitPrice === null) return { key: 'leverRoeInvalid', field: 'take_profit' };
    if (stopLossOn && stopLossPrice === null) return { key: 'leverRoeInvalid', field: 'stop_loss' };
    return null;
  };
  const confirm = () => {
    const found = roeProblem() ?? ticketProblem(ticket, instrument, quoteScale, last, available);
    setProblem(found);
    if (found) return;
    const draft = draftOf(ticket, instrument.symbol, book);
    // The sheet names the order as the draft holds it: a stop typed as an ROE is priced now, not at later ticks.
    setReviewed(ticket);
    // The trader's setting: the sheet first (the default), or straight out.
    send(confirmsOrders('lever') ? { type: 'REVIEW', draft } : { type: 'SUBMIT', draft });
  };
  const showsServerError = view.phase === 'entering' && view.error !== null;
  const fieldError = (field: TicketField) => {
    if (problem?.field === field) return errorText(problem.key);
    if (showsServerError && view.errorField === field) return view.error ?? undefined;
    return undefined;
  };
  const generalError = showsServerError && !FIELDS.includes(view.errorField ?? '') ? view.error : null;
  const disabled = !view.submitEnabled || view.busy;

  return (
    <section
      className="lever-ticket card"
      data-testid="ticket"
      data-phase={view.phase}
      aria-label={t('lever.ticket.label')}
    >
      <SideSwitch
        value={side}
        onChange={(s) => {
          setSide(s);
          setProblem(null);
        }}
      />
      <div className="lever-ticket-modes">
        <Segmented
          label={t('lever.ticket.orderType')}
          value={type}
          onChange={setType}
          options={[
            { value: 'market', label: t('lever.ticket.market') },
            { value: 'limit', label: t('lever.ticket.limit') },
          ]}
        />
        <Segmented
          label={t('lever.ticket.marginMode')}
          value={marginMode}
          onChange={setMarginMode}
          options={[
            { value: 'isolated', label: t('lever.ticket.isolated') },
            { value: 'cross', label: t('lever.ticket.cross') },
          ]}
        />
      </div>
      <LeverageSlider leverages={instrument.leverages} value={leverage} onChange={setLeverage} />
      <Field
        label={t('lever.ticket.lots')}
        value={lots}
        onValue={edit((v) => setLots(v.replace(/[^\d]/g, '').slice(0, 9)))}
        inputMode="numeric"
        autoComplete="off"
        hint={t('lever.ticket.lotSize', {
          size: formatNumber(instrument.contract_size, lang, { min: 0, max: 8 }),
          base: instrument.symbol,
        })}
        error={fieldError('lots')}
        data-testid="ticket-lots"
      />
      {type === 'limit' ? (
        <Field
          label={t('lever.ticket.price')}
          value={price}
          onValue={edit((v) => setPrice(amountKeystrokes(v)))}
          inputMode="decimal"
          autoComplete="off"
          error={fieldError('price')}
          data-testid="ticket-price"
        />
      ) : null}
      <StopToggle
        kind="take_profit"
        label={t('lever.ticket.takeProfit')}
        on={takeProfitOn}
        onToggle={(on) => {
          setTakeProfitOn(on);
          setProblem(null);
        }}
        unit={takeProfitUnit}
        onUnit={setTakeProfitUnit}
        value={takeProfit}
        onValue={edit(setTakeProfit)}
        basis={basis}
        error={fieldError('take_profit')}
        testId="ticket-tp"
      />
      <StopToggle
        kind="stop_loss"
        label={t('lever.ticket.stopLoss')}
        on={stopLossOn}
        onToggle={(on) => {
          setStopLossOn(on);
          setProblem(null);
        }}
        unit={stopLossUnit}
        onUnit={setStopLossUnit}
        value={stopLoss}
        onValue={edit(setStopLoss)}
        basis={basis}
        error={fieldError('stop_loss')}
        testId="ticket-sl"
      />
      <TicketEstimate
        ticket={ticket}
        instrument={instrument}
        quoteScale={quoteScale}
        last={last}
        available={available}
        book={book}
      />
      {view.blockedByStalePrices ? (
        <p className="note note-warn" role="status" data-testid="stale-blocked">
          <Icon name="clock" size={16} />
          {t('lever.staleBlocked')}
        </p>
      ) : null}
      {generalError ? (
        <p className="field-msg field-error" role="alert" data-testid="ticket-error">
          {generalError}
        </p>
      ) : null}
      <button
        type="button"
        className={`lever-confirm bottom-action is-${side}`}
        disabled={disabled}
        aria-busy={view.busy || undefined}
        onClick={confirm}
        onPointerDown={loadOpenConfirm}
        onFocus={loadOpenConfirm}
        data-testid="ticket-confirm"
      >
        {t(side === 'long' ? 'lever.ticket.openLong' : 'lever.ticket.openShort')}
      </button>
      {view.busy ? (
        <p className="lever-muted">{t(view.labelKey)}</p>
      ) : view.placed ? (
        <p className="lever-placed" data-testid="ticket-placed">
          {t('lever.ticket.placed', { no: view.placed })}
        </p>
      ) : null}
      {/* The same words, in a region that is there before them (one inserted with its text often goes unheard). */}
      <Announcement
        text={view.busy ? t(view.labelKey) : view.placed ? t('lever.ticket.placed', { no: view.placed }) : ''}
        testId="ticket-announcement"
      />
      {view.reviewing === 'open' ? (
        <Suspense fallback={null}>
          <OpenConfirm
            ticket={reviewed ?? ticket}
            instrument={instrument}
            quoteScale={quoteScale}
            last={last}
            confirmEnabled={view.confirmEnabled}
            blocked={view.blockedByStalePrices}
            onConfirm={() => send({ type: 'CONFIRM' })}
            onBack={() => send({ type: 'BACK' })}
          />
        </Suspense>
      ) : null}
      {view.promptVerify ? (
        <Suspense fallback={null}>
          <VerifyDialog open onClose={() => send({ type: 'DISMISS' })} />
        </Suspense>
      ) : null}
    </section>
  );
}

/** A take-profit or stop-loss: a switch, and its field (a price or an ROE) while it is on (then required). */
function StopToggle({
  kind,
  label,
  on,
  onToggle,
  error,
  testId,
  ...field
}: {
  kind: StopKind;
  label: string;
  on: boolean;
  onToggle: (on: boolean) => void;
  unit: StopUnit;
  onUnit: (unit: StopUnit) => void;
  value: string;
  onValue: (v: string) => void;
  basis: StopBasis;
  error: string | undefined;
  testId: string;
}): ReactElement {
  return (
    <div className="lever-stop">
      <div className="lever-stop-head">
        <span>{label}</span>
        <Switch checked={on} onChange={onToggle} label={label} />
      </div>
      {on ? <StopPriceField kind={kind} error={error} testId={testId} {...field} /> : null}
    </div>
  );
}
