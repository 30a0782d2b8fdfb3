import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverPosition } from '../../../../protocol/lever';
import { tradeFee } from '../../../../protocol/rules/lever';
import { fromUnits, toUnits } from '../../../../protocol/rules/spot';
import { ConfirmSheet, type SheetFact } from '../../../components/ConfirmSheet';
import type { SheetActions } from '../../../components/sheet-actions';
import { useQuote } from '../../../hooks/useQuote';
import { formatNumber, formatPrice } from '../../../lib/format';
import { formatAmount, formatPnl } from '../format';

/**
 * A close on the confirmation sheet: the position, the tick it closes at (the next recorded one; now the last
 * price, which this sheet follows while it is open), the floating P&L now and the close fee at that price by the
 * published rule. Loaded when the first one is asked for.
 */
export default function CloseConfirm({
  position,
  pnl,
  priceScale,
  quoteScale,
  confirmEnabled,
  blocked,
  onConfirm,
  onBack,
}: {
  position: LeverPosition;
  /** The worker's floating P&L of the position now, if it has one yet. */
  pnl: string | null;
  priceScale: number;
  quoteScale: number;
} & SheetActions): ReactElement {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const last = useQuote(position.symbol).quote?.last ?? null;
  const price = (v: string) => formatPrice(v, lang, priceScale);
  const side = t(position.direction === 'long' ? 'lever.ticket.long' : 'lever.ticket.short');
  const lastUnits = last === null ? null : toUnits(last, priceScale);
  const fee =
    lastUnits === null
      ? null
      : tradeFee(BigInt(position.lots), lastUnits, {
          contractSize: position.contract_size,
          mmr: position.mmr,
          feeRate: position.fee_rate,
          priceScale,
          quoteScale,
        });
  const facts: SheetFact[] = [
    {
      label: t('leverdetail.confirm.side'),
      value: `${side} ${position.leverage}x · ${t(position.margin_mode === 'isolated' ? 'lever.ticket.isolated' : 'lever.ticket.cross')}`,
      testId: 'confirm-side',
    },
    {
      label: t('leverdetail.confirm.size'),
      value: t('leverdetail.confirm.sizeValue', {
        lots: position.lots,
        qty: formatNumber(position.quantity, lang, { min: 0, max: 8 }),
        base: position.symbol,
      }),
      testId: 'confirm-size',
    },
    { label: t('lever.row.entry'), value: position.entry_price ? price(position.entry_price) : '--' },
    {
      label: t('leverdetail.confirm.fillsAt'),
      value: t('leverdetail.confirm.nextTick', { price: last === null ? '--' : price(last) }),
      testId: 'confirm-fill',
    },
    {
      label: t('leverdetail.confirm.pnlNow'),
      value: pnl === null ? '--' : `${formatPnl(pnl, lang)} USDT`,
      testId: 'confirm-pnl',
    },
    {
      label: t('leverdetail.confirm.closeFee'),
      value: fee === null ? '--' : `${formatAmount(fromUnits(fee, quoteScale), lang)} USDT`,
      testId: 'confirm-fee',
    },
  ];
  return (
    <ConfirmSheet
      title={t('leverdetail.confirm.closeTitle', { no: position.order_no })}
      facts={facts}
      note={t('leverdetail.confirm.note')}
      confirmLabel={t('leverdetail.confirm.closeAction')}
      confirmClass={`lever-confirm is-${position.direction === 'long' ? 'short' : 'long'}`}
      confirmEnabled={confirmEnabled}
      blockedNote={blocked ? t('lever.staleBlocked') : null}
      onConfirm={onConfirm}
      onBack={onBack}
    />
  );
}
