import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverPosition } from '../../../../protocol/lever';
import { quantity } from '../../../../protocol/rules/lever';
import { ConfirmSheet, type SheetFact } from '../../../components/ConfirmSheet';
import { Field } from '../../../components/Field';
import type { SheetActions } from '../../../components/sheet-actions';
import { useQuote } from '../../../hooks/useQuote';
import { formatNumber, formatPrice } from '../../../lib/format';
import { errorText } from '../../../lib/i18n';
import { formatQuantity } from '../format';
import { closeEstimate, positionTerms } from '../ticket';

/** A sheet names the exact figures, as a detail page does (the one number rule, src/lib/figures.ts). */
const exactUsdt = (value: string, lang: string) => formatNumber(value, lang, { min: 2, max: 8 });

/**
 * A close on the confirmation sheet: how many of the position's lots (all by default; fewer is a partial close,
 * RULES "Partial close"), the tick it closes at (the next recorded one; now the last price, which this sheet follows
 * while it is open), and the P&L of those lots and their close fee at that price by the published rules. Loaded
 * when the first one is asked for.
 */
export default function CloseConfirm({
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
  /** Sends the close: of `lots` lots, or of all of them when none is named. */
  onConfirm: (lots?: number) => void;
} & Omit<SheetActions, 'onConfirm'>): ReactElement {
  const { t, i18n } = useTranslation();
  const [lotsText, setLotsText] = useState(String(position.lots));
  const lots = /^[1-9]\d{0,8}$/.test(lotsText) ? Number(lotsText) : null;
  const lotsError =
    lots === null
      ? errorText('leverLotsInvalid')
      : lots > position.lots
        ? errorText('leverCloseTooManyLots')
        : undefined;
  const closing = lotsError === undefined && lots !== null ? BigInt(lots) : null;
  const lang = i18n.language;
  const last = useQuote(position.symbol).quote?.last ?? null;
  const price = (v: string) => formatPrice(v, lang, priceScale);
  const side = t(position.direction === 'long' ? 'lever.ticket.long' : 'lever.ticket.short');
  const terms = positionTerms(position, priceScale, quoteScale);
  const quantityText = (lots: bigint) => formatQuantity(quantity(lots, terms), lang);
  const estimate = closing === null ? null : closeEstimate(position, closing, last, priceScale, quoteScale);
  const facts: SheetFact[] = [
    {
      label: t('lever.confirm.side'),
      value: `${side} ${position.leverage}x · ${t(position.margin_mode === 'isolated' ? 'lever.ticket.isolated' : 'lever.ticket.cross')}`,
      testId: 'confirm-side',
    },
    {
      label: t('lever.confirm.size'),
      // What this close takes: the lots asked for (all of them by default), in the base coin by the rule.
      value:
        closing === null
          ? '--'
          : t('lever.confirm.sizeValue', {
              lots: String(closing),
              qty: quantityText(closing),
              base: position.symbol,
            }),
      testId: 'confirm-size',
    },
    { label: t('lever.row.entry'), value: position.entry_price ? price(position.entry_price) : '--' },
    {
      label: t('lever.confirm.fillsAt'),
      value: t('lever.confirm.nextTick', { price: last === null ? '--' : price(last) }),
      testId: 'confirm-fill',
    },
    {
      label: t('lever.confirm.pnlNow'),
      value: estimate === null ? '--' : `${exactUsdt(estimate.pnl, lang)} USDT`,
      testId: 'confirm-pnl',
    },
    {
      label: t('lever.confirm.closeFee'),
      value: estimate === null ? '--' : `${exactUsdt(estimate.fee, lang)} USDT`,
      testId: 'confirm-fee',
    },
  ];
  return (
    <ConfirmSheet
      field={
        <Field
          label={t('lever.confirm.lotsToClose', { count: position.lots })}
          value={lotsText}
          onValue={(v) => setLotsText(v.replace(/[^\d]/g, '').slice(0, 9))}
          inputMode="numeric"
          autoComplete="off"
          error={lotsError}
          data-testid="close-lots"
        />
      }
      title={t('lever.confirm.closeTitle', { no: position.order_no })}
      facts={facts}
      note={t('lever.confirm.note')}
      confirmLabel={
        lots !== null && lots < position.lots
          ? t('lever.confirm.closePart', { count: lots })
          : t('lever.confirm.closeAction')
      }
      confirmClass={`lever-confirm is-${position.direction === 'long' ? 'short' : 'long'}`}
      confirmEnabled={confirmEnabled && closing !== null}
      blockedNote={blocked ? t('lever.staleBlocked') : null}
      onConfirm={() => onConfirm(lots !== null && lots < position.lots ? lots : undefined)}
      onBack={onBack}
    />
  );
}
