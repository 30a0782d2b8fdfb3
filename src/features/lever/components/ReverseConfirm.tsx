import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverPosition, LeverSide } from '../../../../protocol/lever';
import { quantity } from '../../../../protocol/rules/lever';
import { ConfirmSheet, type SheetFact } from '../../../components/ConfirmSheet';
import type { SheetActions } from '../../../components/sheet-actions';
import { useQuote } from '../../../hooks/useQuote';
import { formatNumber, formatPrice } from '../../../lib/format';
import { formatQuantity } from '../format';
import { closeEstimate, oppositeSide, positionTerms, reverseEstimate } from '../ticket';

/** A sheet names the exact figures, as a detail page does (the one number rule, src/lib/figures.ts). */
const exactUsdt = (value: string, lang: string) => formatNumber(value, lang, { min: 2, max: 8 });

/**
 * A reverse on one confirmation sheet (RULES "Reverse"): the close of all the position's lots and the open of the
 * same lots on the other side, both at the next recorded tick (now the last price, which the sheet follows while it
 * is open); the close's P&L and fee and the open's margin, fee and (isolated) liquidation price at that price, by
 * the same rule functions as the close sheet and the ticket's estimate. Loaded when the first one is asked for.
 */
export default function ReverseConfirm({
  position,
  priceScale,
  quoteScale,
  confirmEnabled,
  blocked,
  onConfirm,
  onBack,
}: {
  position: LeverPosition;
  priceScale: number;
  quoteScale: number;
} & SheetActions): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const last = useQuote(position.symbol).quote?.last ?? null;
  const lots = BigInt(position.lots);
  const price = (v: string) => formatPrice(v, lang, priceScale);
  const usdt = (v: string | undefined) => (v === undefined ? '--' : `${exactUsdt(v, lang)} USDT`);
  const qty = formatQuantity(quantity(lots, positionTerms(position, priceScale, quoteScale)), lang);
  const sideLots = (side: LeverSide) =>
    t('lever.reverse.sideLots', {
      side: t(side === 'long' ? 'lever.ticket.long' : 'lever.ticket.short'),
      lots: position.lots,
      qty,
      base: position.symbol,
    });
  const other = oppositeSide(position.direction);
  const close = closeEstimate(position, lots, last, priceScale, quoteScale);
  const open = reverseEstimate(position, priceScale, quoteScale, last);
  const facts: SheetFact[] = [
    { label: t('lever.reverse.closes'), value: sideLots(position.direction), testId: 'reverse-close' },
    {
      label: t('lever.reverse.bothAt'),
      value: t('lever.confirm.nextTick', { price: last === null ? '--' : price(last) }),
      testId: 'confirm-fill',
    },
    { label: t('lever.confirm.pnlNow'), value: usdt(close?.pnl), testId: 'confirm-pnl' },
    { label: t('lever.confirm.closeFee'), value: usdt(close?.fee), testId: 'confirm-fee' },
    { label: t('lever.reverse.opens'), value: sideLots(other), testId: 'reverse-open' },
    {
      label: t('lever.confirm.leverage'),
      value: `${t('lever.ticket.times', { n: position.leverage })} · ${t(position.margin_mode === 'isolated' ? 'lever.ticket.isolated' : 'lever.ticket.cross')}`,
      testId: 'confirm-leverage',
    },
    { label: t('lever.reverse.newMargin'), value: usdt(open?.margin), testId: 'reverse-margin' },
    { label: t('lever.reverse.newFee'), value: usdt(open?.fee), testId: 'reverse-fee' },
  ];
  if (position.margin_mode === 'isolated') {
    facts.push({
      label: t('lever.reverse.newLiquidation'),
      value: open?.liquidationPrice ? price(open.liquidationPrice) : t('lever.ticket.none'),
      testId: 'reverse-liquidation',
    });
  }
  return (
    <ConfirmSheet
      title={t('lever.reverse.title', { no: position.order_no })}
      facts={facts}
      note={t('lever.reverse.note')}
      confirmLabel={t('lever.reverse.confirm')}
      confirmClass={`lever-confirm is-${other}`}
      confirmEnabled={confirmEnabled}
      blockedNote={blocked ? t('lever.staleBlocked') : null}
      onConfirm={onConfirm}
      onBack={onBack}
    />
  );
}
