import type { TFunction } from 'i18next';
import { type FormEvent, lazy, type ReactElement, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderEvent, OrderView } from '../../../../machines/spot/order.machine';
import { fromUnits } from '../../../../protocol/rules/spot';
import type { BuyMode, OrderSide, OrderType } from '../../../../protocol/spot';
import { Announcement } from '../../../components/Announcement';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
import { Segmented } from '../../../components/Segmented';
import { amountKeystrokes, wireAmount } from '../../../lib/amount-input';
import { formatQuantity, formatUsdt } from '../../../lib/figures';
import { errorText } from '../../../lib/i18n';
import { confirmsOrders } from '../../../state/order-confirmation';
import { formatPercentRate } from '../format';
import {
  byAmount,
  draftOf,
  estimate,
  type PairTerms,
  PERCENTS,
  percentOf,
  type Ticket,
  ticketProblem,
} from '../ticket';

/** The confirmation sheet of market orders loads when the trader reaches for the button. */
const loadMarketConfirm = () => import('./MarketConfirm');
const MarketConfirm = lazy(loadMarketConfirm);

export interface Balances {
  /** Available USDT and coin in the coin account, as units of their ledger scale. */
  usdt: { units: bigint; scale: number };
  coin: { units: bigint; scale: number };
}

/**
 * The buy/sell ticket: side, market or limit, quantity (or, for a market buy, a USDT amount), percent of available,
 * the estimate from the published rules, and the submit the order machine drives. Stale prices disable it.
 */
export function OrderTicket({
  terms,
  last,
  balances,
  view,
  send,
  initialSide = 'buy',
}: {
  terms: PairTerms;
  last: string | null;
  balances: Balances | null;
  view: OrderView;
  send: (event: OrderEvent) => void;
  /** The side chosen when the ticket opens (the chart's Buy and Sell open it with theirs). */
  initialSide?: OrderSide;
}): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const coin = terms.pair.symbol;
  const [side, setSide] = useState<OrderSide>(initialSide);
  const [type, setType] = useState<OrderType>('market');
  const [mode, setMode] = useState<BuyMode>('quantity');
  const [typed, setTyped] = useState({ qty: '', amount: '', price: '' });
  const [problem, setProblem] = useState<{ key: string; field: string } | null>(null);

  const ticket: Ticket = {
    side,
    type,
    mode,
    qty: wireAmount(typed.qty, lang),
    amount: wireAmount(typed.amount, lang),
    price: wireAmount(typed.price, lang),
  };
  const amountMode = byAmount(ticket);
  const held = side === 'buy' ? balances?.usdt : balances?.coin;
  const heldScale = side === 'buy' ? terms.terms.quoteScale : terms.steps.qtyScale;
  // The side's balance at the scale the rules compare it in (quote units for buys, quantity units for sells).
  const available = held ? (held.units * 10n ** BigInt(Math.max(0, heldScale))) / 10n ** BigInt(held.scale) : 0n;
  const est = estimate(ticket, last, terms);
  const edit = (field: keyof typeof typed, value: string) => {
    setTyped((v) => ({ ...v, [field]: value }));
    setProblem(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = ticketProblem(ticket, last, available, terms);
    setProblem(found);
    if (found) return;
    const draft = draftOf(ticket, coin);
    // A market order fills at a price nobody knows yet: the sheet first, unless the trader turned it off.
    const review = ticket.type === 'market' && confirmsOrders('spot');
    send(review ? { type: 'REVIEW', draft } : { type: 'SUBMIT', draft });
  };

  const fieldError = (field: string) =>
    problem?.field === field
      ? errorText(problem.key)
      : view.error && view.phase === 'entering' && view.errorField === field
        ? view.error
        : undefined;
  const busy = view.busy;
  const disabled = !view.submitEnabled && !busy;

  return (
    <form className="spot-ticket card" onSubmit={submit} noValidate data-testid="ticket">
      <fieldset className="spot-sides" aria-label={t('spot.side')}>
        {(['buy', 'sell'] as const).map((s) => (
          <button
            key={s}
            type="button"
            className={`spot-side is-${s}${side === s ? ' is-active' : ''}`}
            aria-pressed={side === s}
            onClick={() => {
              setSide(s);
              setProblem(null);
            }}
          >
            {t(`spot.${s}`)}
          </button>
        ))}
      </fieldset>
      <Segmented
        label={t('spot.orderType')}
        value={type}
        onChange={(v) => {
          setType(v);
          setProblem(null);
        }}
        options={[
          { value: 'market', label: t('spot.market') },
          { value: 'limit', label: t('spot.limit') },
        ]}
      />
      {type === 'limit' ? (
        <Field
          label={t('spot.price')}
          value={typed.price}
          onValue={(v) => edit('price', amountKeystrokes(v))}
          inputMode="decimal"
          autoComplete="off"
          error={fieldError('price')}
          data-testid="ticket-price"
        />
      ) : (
        <p className="spot-market-price">{t('spot.marketPrice')}</p>
      )}
      {side === 'buy' && type === 'market' ? (
        <Segmented
          label={t('spot.buyAs')}
          value={mode}
          onChange={(v) => {
            setMode(v);
            setProblem(null);
          }}
          options={[
            { value: 'quantity', label: t('spot.byQuantity') },
            { value: 'amount', label: t('spot.byAmount') },
          ]}
        />
      ) : null}
      {amountMode ? (
        <Field
          label={t('spot.amount')}
          value={typed.amount}
          onValue={(v) => edit('amount', amountKeystrokes(v))}
          inputMode="decimal"
          autoComplete="off"
          error={fieldError('amount')}
          data-testid="ticket-amount"
        />
      ) : (
        <Field
          label={t('spot.quantity', { coin })}
          value={typed.qty}
          onValue={(v) => edit('qty', amountKeystrokes(v))}
          inputMode="decimal"
          autoComplete="off"
          error={fieldError('qty')}
          data-testid="ticket-qty"
        />
      )}
      <div className="spot-percents">
        {PERCENTS.map((pct) => (
          <button
            key={pct}
            type="button"
            className="spot-percent"
            aria-label={t('spot.percentOf', { pct })}
            disabled={!held}
            onClick={() => {
              if (!held) return;
              const value = percentOf(pct, ticket, held, last, terms);
              edit(amountMode ? 'amount' : 'qty', value);
            }}
          >
            {pct}%
          </button>
        ))}
      </div>
      <p className="spot-available" data-testid="ticket-available">
        {t('spot.available', {
          amount: !held
            ? '–'
            : side === 'buy'
              ? formatUsdt(fromUnits(held.units, held.scale), lang)
              : formatQuantity(fromUnits(held.units, held.scale), coin, lang, terms.steps.qtyScale),
        })}
      </p>
      <dl className="spot-facts spot-estimate" data-testid="ticket-estimate">
        <dt className="spot-estimate-title">
          {t('spot.estimate.title', {
            basis: type === 'limit' ? t('spot.estimate.basisLimit') : t('spot.estimate.basisLast'),
          })}
        </dt>
        <dd />
        {[
          ['qty', t('spot.estimate.qty'), est ? formatQuantity(est.qty, coin, lang, terms.steps.qtyScale) : '–'],
          ['value', t('spot.estimate.value'), est ? formatUsdt(est.value, lang) : '–'],
          [
            'fee',
            t('spot.estimate.fee', { rate: formatPercentRate(terms.terms.feeRate, lang) }),
            est ? formatUsdt(est.fee, lang, true) : '–',
          ],
          [
            'total',
            side === 'buy' ? t('spot.estimate.totalBuy') : t('spot.estimate.totalSell'),
            est ? formatUsdt(est.total, lang) : '–',
          ],
        ].map(([key, label, value]) => (
          <div key={key} data-testid={`estimate-${key}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {type === 'market' ? <p className="spot-muted">{t('spot.estimate.note')}</p> : null}
      {view.blockedByStalePrices ? (
        <p className="note note-warn" role="status">
          {t('spot.staleBlocked')}
        </p>
      ) : null}
      {view.error && view.phase === 'entering' && !view.errorField ? (
        <p className="field-msg field-error" role="alert">
          {view.error}
        </p>
      ) : null}
      <Button
        type="submit"
        block
        busy={busy}
        disabled={disabled}
        className={side === 'buy' ? 'spot-submit bottom-action is-buy' : 'spot-submit bottom-action is-sell'}
        onPointerDown={type === 'market' ? loadMarketConfirm : undefined}
      >
        {side === 'buy' ? t('spot.submitBuy', { coin }) : t('spot.submitSell', { coin })}
      </Button>
      {view.reviewing ? (
        <Suspense fallback={null}>
          <MarketConfirm
            ticket={ticket}
            terms={terms}
            last={last}
            confirmEnabled={view.confirmEnabled}
            blocked={view.blockedByStalePrices}
            onConfirm={() => send({ type: 'CONFIRM' })}
            onBack={() => send({ type: 'BACK' })}
          />
        </Suspense>
      ) : null}
      <OrderStatus view={view} onNew={() => send({ type: 'NEW_ORDER' })} onCancel={() => send({ type: 'CANCEL' })} />
      <Announcement text={statusText(view, t)} testId="order-announcement" />
    </form>
  );
}

/** What the ticket's live region says: the order's phase and why it was cancelled, once per change (no prices). */
function statusText(view: OrderView, t: TFunction): string {
  if (view.phase === 'entering') return '';
  const parts = [t(view.labelKey), view.reasonKey ? t(view.reasonKey) : ''];
  if (view.error && view.phase === 'pending') parts.push(view.error);
  return parts.filter(Boolean).join('. ');
}

/**
 * The ticket's own order: its phase, why it was cancelled, its fill, and cancel while it rests. Not a live region
 * itself (it appears with its first words, which would go unheard): the ticket's Announcement says the same.
 */
function OrderStatus({
  view,
  onNew,
  onCancel,
}: {
  view: OrderView;
  onNew: () => void;
  onCancel: () => void;
}): ReactElement | null {
  const { t } = useTranslation();
  // Nothing was sent yet: the confirmation sheet shows the order meanwhile.
  if (view.phase === 'entering' || view.phase === 'confirming') return null;
  return (
    <div className="spot-status" data-testid="order-status" data-phase={view.phase}>
      <p className="spot-status-label">{t(view.labelKey)}</p>
      {view.reasonKey ? <p className="spot-muted">{t(view.reasonKey)}</p> : null}
      {view.error && view.phase === 'pending' ? <p className="field-msg field-error">{view.error}</p> : null}
      <div className="spot-order-actions">
        {view.cancelEnabled ? (
          <Button variant="secondary" className="btn-small" onClick={onCancel}>
            {t('spot.orders.cancel')}
          </Button>
        ) : null}
        {view.phase === 'completed' || view.phase === 'cancelled' ? (
          <Button variant="ghost" className="btn-small" onClick={onNew}>
            {t('spot.newOrder')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
