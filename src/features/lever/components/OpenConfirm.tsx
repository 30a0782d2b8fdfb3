import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverInstrument } from '../../../../protocol/lever';
import { quantity } from '../../../../protocol/rules/lever';
import { fromUnits } from '../../../../protocol/rules/spot';
import { ConfirmSheet, type SheetFact } from '../../../components/ConfirmSheet';
import type { SheetActions } from '../../../components/sheet-actions';
import { formatNumber, formatPrice } from '../../../lib/format';
import { type LeverTicket, lotsOf, termsOf, ticketEstimate } from '../ticket';

/** A sheet names the exact figures, as a detail page does (the one number rule, src/lib/figures.ts). */
const exactUsdt = (value: string, lang: string) => formatNumber(value, lang, { min: 2, max: 8 });

/**
 * A lever open on the confirmation sheet: side, size, leverage and margin mode, the tick it fills at (the next
 * recorded one for a market order, the first reaching the limit for a limit), margin, open fee and, isolated, the
 * liquidation price, by the same rules as the ticket's estimate; then the take-profit and stop-loss prices. Loaded
 * when the first one is asked for.
 */
export default function OpenConfirm({
  ticket,
  instrument,
  quoteScale,
  last,
  confirmEnabled,
  blocked,
  onConfirm,
  onBack,
}: {
  ticket: LeverTicket;
  instrument: LeverInstrument;
  quoteScale: number;
  last: string | null;
} & SheetActions): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const estimate = ticketEstimate(ticket, instrument, quoteScale, last);
  const side = t(ticket.side === 'long' ? 'lever.ticket.long' : 'lever.ticket.short');
  const usdt = (v: string | undefined) => (v === undefined ? t('lever.ticket.none') : `${exactUsdt(v, lang)} USDT`);
  const price = (v: string) => formatPrice(v, lang, instrument.price_scale);
  const lots = lotsOf(ticket.lots);
  const facts: SheetFact[] = [
    { label: t('lever.confirm.side'), value: side, testId: 'confirm-side' },
    {
      label: t('lever.confirm.size'),
      value: t('lever.confirm.sizeValue', {
        lots: ticket.lots,
        qty: lots === null ? '--' : quantityText(lots, instrument, quoteScale, lang),
        base: instrument.symbol,
      }),
      testId: 'confirm-size',
    },
    {
      label: t('lever.confirm.leverage'),
      value: `${ticket.leverage}x · ${t(ticket.marginMode === 'isolated' ? 'lever.ticket.isolated' : 'lever.ticket.cross')}`,
      testId: 'confirm-leverage',
    },
    {
      label: t('lever.confirm.fillsAt'),
      value:
        ticket.type === 'limit'
          ? t('lever.confirm.limitTick', { price: price(ticket.price) })
          : t('lever.confirm.nextTick', { price: last === null ? '--' : price(last) }),
      testId: 'confirm-fill',
    },
    { label: t('lever.ticket.margin'), value: usdt(estimate?.margin), testId: 'confirm-margin' },
    { label: t('lever.ticket.fee'), value: usdt(estimate?.fee), testId: 'confirm-fee' },
  ];
  if (ticket.marginMode === 'isolated') {
    facts.push({
      label: t('lever.ticket.liquidation'),
      value: estimate?.liquidationPrice ? price(estimate.liquidationPrice) : t('lever.ticket.none'),
      testId: 'confirm-liquidation',
    });
  }
  // The stops as they will be sent: a stop typed as an ROE goes out as its price, so the sheet names that price.
  if (ticket.takeProfitOn && ticket.takeProfit !== '') {
    facts.push({ label: t('lever.ticket.takeProfit'), value: price(ticket.takeProfit), testId: 'confirm-tp' });
  }
  if (ticket.stopLossOn && ticket.stopLoss !== '') {
    facts.push({ label: t('lever.ticket.stopLoss'), value: price(ticket.stopLoss), testId: 'confirm-sl' });
  }
  return (
    <ConfirmSheet
      title={t('lever.confirm.openTitle', { side, symbol: `${instrument.symbol}/USDT` })}
      facts={facts}
      note={t('lever.confirm.note')}
      confirmLabel={t(ticket.side === 'long' ? 'lever.ticket.openLong' : 'lever.ticket.openShort')}
      confirmClass={`lever-confirm is-${ticket.side}`}
      confirmEnabled={confirmEnabled}
      blockedNote={blocked ? t('lever.staleBlocked') : null}
      onConfirm={onConfirm}
      onBack={onBack}
    />
  );
}

/** Q = lots × contract size in the base coin, exact by the published rule. */
function quantityText(lots: bigint, instrument: LeverInstrument, quoteScale: number, lang: string): string {
  const q = quantity(lots, termsOf(instrument, quoteScale));
  return formatNumber(fromUnits(q.units, q.scale), lang, { min: 0, max: q.scale });
}
