import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmSheet, type SheetFact } from '../../../components/ConfirmSheet';
import type { SheetActions } from '../../../components/sheet-actions';
import { formatPrice, formatQuantity, formatUsdt } from '../../../lib/figures';
import { formatPercentRate } from '../format';
import { estimate, type PairTerms, type Ticket } from '../ticket';

/**
 * A spot market order on the confirmation sheet: side, size, the tick it fills at (the next recorded one; now the
 * last price, which the sheet follows), and the estimate at that price by the published rules (value, fee, total).
 * Loaded when the first one is asked for.
 */
export default function MarketConfirm({
  ticket,
  terms,
  last,
  confirmEnabled,
  blocked,
  onConfirm,
  onBack,
}: {
  ticket: Ticket;
  terms: PairTerms;
  last: string | null;
} & SheetActions): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const coin = terms.pair.symbol;
  const est = estimate(ticket, last, terms);
  // A confirmation names the exact figures, as a detail page does (src/lib/figures.ts).
  const usdt = (v: string | undefined) => (v === undefined ? '–' : formatUsdt(v, lang, true));
  const facts: SheetFact[] = [
    {
      label: t('spot.confirm.side'),
      value: t(ticket.side === 'buy' ? 'spot.buy' : 'spot.sell'),
      testId: 'confirm-side',
    },
    {
      label: t('spot.confirm.size'),
      value: est ? formatQuantity(est.qty, coin, lang, terms.steps.qtyScale) : '–',
      testId: 'confirm-size',
    },
    {
      label: t('spot.confirm.fillsAt'),
      value: t('spot.confirm.nextTick', {
        price: last === null ? '–' : `${formatPrice(last, lang, terms.steps.priceScale)} USDT`,
      }),
      testId: 'confirm-fill',
    },
    { label: t('spot.estimate.value'), value: usdt(est?.value), testId: 'confirm-value' },
    {
      label: t('spot.estimate.fee', { rate: formatPercentRate(terms.terms.feeRate, lang) }),
      value: usdt(est?.fee),
      testId: 'confirm-fee',
    },
    {
      label: ticket.side === 'buy' ? t('spot.estimate.totalBuy') : t('spot.estimate.totalSell'),
      value: usdt(est?.total),
      testId: 'confirm-total',
    },
  ];
  return (
    <ConfirmSheet
      title={t('spot.confirm.title')}
      facts={facts}
      note={t('spot.confirm.note')}
      confirmLabel={ticket.side === 'buy' ? t('spot.submitBuy', { coin }) : t('spot.submitSell', { coin })}
      confirmClass={`btn btn-block spot-submit ${ticket.side === 'buy' ? 'is-buy' : 'is-sell'}`}
      confirmEnabled={confirmEnabled}
      blockedNote={blocked ? t('spot.staleBlocked') : null}
      onConfirm={onConfirm}
      onBack={onBack}
    />
  );
}
